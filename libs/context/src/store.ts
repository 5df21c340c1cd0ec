import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { FileLock, writeFileAtomic } from '@cccc/durable-fs';
import { applyOps, type ContextChange } from './apply-ops.js';
import { ContextFiles } from './context-files.js';
import {
  agentsFromDisk,
  agentsToDisk,
  bump,
  contextFromDisk,
  contextToDisk,
  parseYaml,
  taskFromDisk,
  taskToDisk,
  versionStateFromDisk,
  versionStateToDisk,
} from './disk-format.js';
import { ContextErrorCodes, contextError, rejectionError } from './errors.js';
import type { ContextHead, ContextState, Task } from './model.js';
import type { ActorRoles, ContextPrincipal } from './permissions.js';

export interface SyncRequest {
  readonly ops: readonly unknown[];
  readonly principal: ContextPrincipal;
  readonly roles: ActorRoles;
  readonly dry_run?: boolean | undefined;
  readonly if_version?: string | undefined;
  readonly now?: string | undefined;
  readonly idempotencyKey?: string | undefined;
}

/** The store's answer: the wire's `context_sync` result (see `syncView`) plus what the daemon needs. */
export type SyncResult = {
  success: true;
  dry_run: boolean;
  changes: ContextChange[];
  version: string;
  tasks_version: string;
  /** Whether any file changed (a batch of no-op patches persists nothing and keeps the versions). */
  persisted: boolean;
  /** The state after the batch (the current one for a dry run). */
  state: ContextState;
};

const nowIso = () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The IO shell of one group's context. Reads are cached and revalidated by the small
 * `version_state.json`, which every write replaces last: 2,000 task files are parsed once, not
 * per request. Writes run under a file lock, apply the pure core, and write only changed files.
 */
export class ContextStore {
  readonly files: ContextFiles;
  private cache: { stamp: string; head: ContextHead; tasks?: Map<string, Task> } | undefined;

  constructor(groupDir: string) {
    this.files = new ContextFiles(groupDir);
  }

  private stamp(): string {
    return readText(this.files.versionState) ?? '';
  }

  private guard<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw contextError(ContextErrorCodes.ioError, `cannot read ${what}: ${(error as Error).message}`, { path: what });
    }
  }

  /** Brief, notes, agent states, meta and versions; reads no task file. */
  readHead(): ContextHead {
    const stamp = this.stamp();
    if (this.cache?.stamp === stamp) return this.cache.head;
    const versions = this.guard(this.files.versionState, () => versionStateFromDisk(stamp || undefined));
    const ctx = this.guard(this.files.context, () => contextFromDisk(parseYaml(readText(this.files.context) ?? '')));
    const agents = this.guard(this.files.agents, () => agentsFromDisk(parseYaml(readText(this.files.agents) ?? '')));
    const head: ContextHead = { ...versions, coordination: ctx.coordination, meta: ctx.meta, agents };
    this.cache = { stamp, head };
    return head;
  }

  read(): ContextState {
    const head = this.readHead();
    const cache = this.cache!;
    if (!cache.tasks) cache.tasks = this.readTasks();
    return { ...head, tasks: cache.tasks };
  }

  private readTasks(): Map<string, Task> {
    const tasks = new Map<string, Task>();
    if (!existsSync(this.files.tasksDir)) return tasks;
    for (const name of readdirSync(this.files.tasksDir)) {
      const m = /^(T\d+)\.yaml$/.exec(name);
      if (!m) continue;
      const path = this.files.task(m[1]!);
      const task = this.guard(path, () => taskFromDisk(parseYaml(readFileSync(path, 'utf8')), m[1]!));
      tasks.set(task.id, task);
    }
    return tasks;
  }

  /** `context_sync`: all ops or none, under the store lock. */
  async sync(req: SyncRequest): Promise<SyncResult> {
    const lock = await FileLock.acquire(this.files.lock);
    try {
      const current = this.read();
      if (req.if_version !== undefined && req.if_version !== current.version) {
        throw contextError(ContextErrorCodes.versionConflict, `context is at version ${current.version}, not ${req.if_version}`, {
          expected: req.if_version,
          current: current.version,
        });
      }
      const now = req.now ?? nowIso();
      const outcome = applyOps({ state: current, ops: req.ops, principal: req.principal, roles: req.roles, now, idempotencyKey: req.idempotencyKey });
      if (!outcome.ok) throw rejectionError(outcome.rejection);
      const base = { success: true as const, changes: outcome.changes };
      if (req.dry_run) {
        return { ...base, dry_run: true, version: current.version, tasks_version: current.tasks_version, persisted: false, state: current };
      }
      const next = await this.persist(current, outcome.state, now);
      return { ...base, dry_run: false, version: next.version, tasks_version: next.tasks_version, persisted: next.version !== current.version, state: next };
    } finally {
      lock.release();
    }
  }

  /** Write what differs; bump `version` on any change and `tasks_version` on task changes only. */
  private async persist(before: ContextState, after: ContextState, now: string): Promise<ContextState> {
    const writes: Array<[string, string]> = [];
    const removals: string[] = [];
    for (const [id, task] of after.tasks) {
      const old = before.tasks.get(id);
      if (old !== task && (!old || taskToDisk(old) !== taskToDisk(task))) writes.push([this.files.task(id), taskToDisk(task)]);
    }
    for (const id of before.tasks.keys()) if (!after.tasks.has(id)) removals.push(this.files.task(id));
    const tasksChanged = writes.length + removals.length > 0;
    const ctxText = contextToDisk(after);
    if (ctxText !== contextToDisk(before) || !existsSync(this.files.context)) writes.push([this.files.context, ctxText]);
    const agentsText = agentsToDisk(after.agents);
    if (agentsText !== agentsToDisk(before.agents) || !existsSync(this.files.agents)) writes.push([this.files.agents, agentsText]);
    const contentChanged = tasksChanged || ctxText !== contextToDisk(before) || agentsText !== agentsToDisk(before.agents);
    if (!contentChanged) return before;
    const versions = { version: bump(before.version), tasks_version: tasksChanged ? bump(before.tasks_version) : before.tasks_version };
    try {
      for (const [path, text] of writes) await writeFileAtomic(path, text);
      for (const path of removals) await unlink(path).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
      const stamp = versionStateToDisk(versions, now);
      // Written last: readers revalidate their cache on it, so it marks the batch complete.
      await writeFileAtomic(this.files.versionState, stamp);
      const state: ContextState = { ...after, ...versions };
      this.cache = { stamp, head: { ...versions, coordination: after.coordination, agents: after.agents, meta: after.meta }, tasks: after.tasks };
      return state;
    } catch (error) {
      this.cache = undefined;
      throw contextError(ContextErrorCodes.ioError, `persisting the context failed; reload before retrying: ${(error as Error).message}`);
    }
  }
}
