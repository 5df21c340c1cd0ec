import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BRIDGE_EXIT } from '@cccc/im';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import type { Logger } from '../log.js';
import type { ImService } from './im-service.js';

export interface BridgeSupervisorOptions {
  readonly home: string;
  readonly im: ImService;
  readonly logger: Logger;
  /** The bridge child's entry script (the built @cccc/im/bridge-main by default). */
  readonly entry?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** First restart delay after a failure; doubles per consecutive failure up to `maxBackoffMs`. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** How long a stopping bridge gets after SIGTERM before SIGKILL. */
  readonly stopGraceMs?: number;
}

interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stopping: boolean;
}

interface Slot {
  running?: Running;
  failures: number;
  restartTimer?: NodeJS.Timeout;
}

/** Group events after which a bridge may have to start or stop. */
const LIFECYCLE_KINDS = new Set(['group.start', 'group.stop', 'actor.start', 'group.set_state', 'group.delete']);

const defaultEntry = () => createRequire(import.meta.url).resolve('@cccc/im/bridge-main');

/**
 * Owns the IM bridge child processes: one per group whose IM is enabled with its token(s) and
 * whose group is running. A bridge that exits unasked is restarted with exponential backoff; a
 * configuration change restarts it with the new settings; group stop, IM disable and daemon stop
 * end it (SIGTERM, then SIGKILL after a grace), so no bridge outlives the daemon that owns it.
 * The child talks to the daemon over the normal IPC socket, like any client.
 */
export class BridgeSupervisor {
  private readonly slots = new Map<string, Slot>();
  private readonly chains = new Map<string, Promise<void>>();
  private closed = false;
  private entryPath: string | undefined;

  constructor(private readonly options: BridgeSupervisorOptions) {
    options.im.onConfigChange((groupId) => void this.reconcile(groupId, { restart: true }));
  }

  /** Resolved on first use, so a daemon whose groups use no IM never looks for the bridge build. */
  private get entry(): string {
    this.entryPath ??= this.options.entry ?? defaultEntry();
    return this.entryPath;
  }

  /** Starts the bridges of every group that wants one (after the socket listens). */
  start(): void {
    let ids: string[] = [];
    try {
      ids = readdirSync(join(this.options.home, 'groups'));
    } catch {
      return;
    }
    for (const id of ids) void this.migrateThenReconcile(id);
  }

  /** A reference home's legacy IM fields become canonical before the first bridge reads them. */
  private async migrateThenReconcile(groupId: string): Promise<void> {
    try {
      const { migrated, warnings } = await this.options.im.migrateLegacy(groupId, this.options.env ?? process.env);
      if (migrated) this.options.logger.log('info', 'im: legacy group.yaml fields migrated', { group_id: groupId });
      for (const warning of warnings) this.options.logger.log('warn', 'im: legacy migration', { group_id: groupId, note: warning });
    } catch (err) {
      this.options.logger.log('error', 'im: legacy migration failed', { group_id: groupId, error: err instanceof Error ? err.message : 'unknown' });
    }
    await this.reconcile(groupId);
  }

  /** Feed of committed events: lifecycle changes may start or stop a bridge. */
  published(events: readonly CCCSEventV1[]): void {
    for (const e of events) if (LIFECYCLE_KINDS.has(e.kind)) void this.reconcile(e.group_id);
  }

  pid(groupId: string): number | undefined {
    const r = this.slots.get(groupId)?.running;
    return r && !r.stopping ? r.child.pid : undefined;
  }

  /** Brings a group's bridge to its wanted state; calls for one group run one after another. */
  reconcile(groupId: string, options: { restart?: boolean } = {}): Promise<void> {
    const next = (this.chains.get(groupId) ?? Promise.resolve()).then(() => this.reconcileNow(groupId, options));
    const settled = next.catch((err: unknown) => {
      this.options.logger.log('error', 'im bridge reconcile failed', { group_id: groupId, error: err instanceof Error ? err.message : 'unknown' });
    });
    this.chains.set(groupId, settled);
    return settled;
  }

  private async reconcileNow(groupId: string, { restart = false }: { restart?: boolean }): Promise<void> {
    const slot = this.slots.get(groupId) ?? { failures: 0 };
    this.slots.set(groupId, slot);
    const want = !this.closed && this.options.im.bridgeWanted(groupId);
    if (slot.running && (!want || restart)) await this.stopChild(slot.running);
    if (!want) {
      clearTimeout(slot.restartTimer);
      slot.restartTimer = undefined;
      slot.failures = 0;
      return;
    }
    if (restart) {
      // A new configuration (say, a replaced token) deserves a try now, not after the backoff.
      slot.failures = 0;
      clearTimeout(slot.restartTimer);
      slot.restartTimer = undefined;
    }
    if (!slot.running && !slot.restartTimer) this.spawn(groupId, slot);
  }

  private spawn(groupId: string, slot: Slot): void {
    const { home, logger } = this.options;
    const stateDir = join(home, 'groups', groupId, 'state');
    mkdirSync(stateDir, { recursive: true });
    const logFd = openSync(join(stateDir, 'im_bridge.log'), 'a', 0o600);
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [this.entry, '--group', groupId], {
        env: { ...(this.options.env ?? process.env), CCCC_HOME: home },
        stdio: ['ignore', logFd, logFd],
      });
    } finally {
      closeSync(logFd);
    }
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', () => resolve(null));
    });
    const running: Running = { child, exited, stopping: false };
    slot.running = running;
    logger.log('info', 'im bridge started', { group_id: groupId, pid: child.pid });
    void exited.then((code) => {
      if (slot.running === running) slot.running = undefined;
      if (running.stopping || this.closed) return;
      if (code === BRIDGE_EXIT.idle) {
        slot.failures = 0;
        return;
      }
      slot.failures += 1;
      // A rejected token will not heal by itself: retry slowly, at the cap.
      const base = this.options.backoffMs ?? 1000;
      const max = this.options.maxBackoffMs ?? 60_000;
      const delay = code === BRIDGE_EXIT.auth || code === BRIDGE_EXIT.config ? max : Math.min(base * 2 ** (slot.failures - 1), max);
      logger.log('warn', 'im bridge exited; restarting after backoff', { group_id: groupId, code, delay_ms: delay });
      slot.restartTimer = setTimeout(() => {
        slot.restartTimer = undefined;
        void this.reconcile(groupId);
      }, delay);
      slot.restartTimer.unref();
    });
  }

  private async stopChild(running: Running): Promise<void> {
    running.stopping = true;
    running.child.kill('SIGTERM');
    const grace = this.options.stopGraceMs ?? 3000;
    const timer = setTimeout(() => running.child.kill('SIGKILL'), grace);
    await running.exited;
    clearTimeout(timer);
  }

  /** Stops every bridge (daemon stop). */
  async close(): Promise<void> {
    this.closed = true;
    const stops: Array<Promise<void>> = [];
    for (const slot of this.slots.values()) {
      clearTimeout(slot.restartTimer);
      if (slot.running) stops.push(this.stopChild(slot.running));
    }
    await Promise.all(stops);
  }
}
