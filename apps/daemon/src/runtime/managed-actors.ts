import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { utcNowIso, type ActorDoc, type HomeLayout } from '@cccc/groups';
import type { ManagedStateSource } from '@cccc/hook-fence';
import { Emitter, ManagedLaunchError, type LaunchCommand, type ManagedExit, type ManagedMcpServer, type ManagedSession, type ManagedState } from '@cccc/pty-runtime';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import { markPromptAttempted, markStartupPromptSent, readManagedReceipt, receiptMatches, writeManagedReceipt, type ReceiptIdentity } from './managed-receipt.js';
import { removeOwnershipRecord, writeOwnershipRecord, type OwnedKind } from './ownership-records.js';
import { readSelfStatus, writeSelfStatus } from './managed-self-status.js';
import { processStartTime } from './proc-identity.js';
import { managedKey, managedRuntime, type ManagedRuntime } from './managed-runtimes.js';

/** What `actor_list`, `actor.*` events and the activity snapshot call this running surface. */
export const CODEX_APP_SERVER_RUNNER = 'codex_app_server';

/** A person's own status report for the session (headless_set_status), kept beside the provider's state. */
export interface SelfStatus {
  readonly status: 'idle' | 'working' | 'waiting' | 'stopped';
  readonly task_id: string | null;
  readonly updated_at: string;
}

/** One actor's running managed session and its generation. */
export interface ManagedEntry {
  readonly groupId: string;
  readonly actorId: string;
  readonly runtime: string;
  /** The running surface (`codex_app_server`, `opencode_acp`): runner_effective and the delivery transport. */
  readonly runner: string;
  readonly ownedKind: OwnedKind;
  /** Pure headless ACP (acp mode): no native TUI in the actor's PTY. */
  readonly headless: boolean;
  /** `runtime_state_source` while it runs (`app_server`, `managed_session`). */
  readonly stateSource: ManagedStateSource;
  /** The effective runtime mode (`acp` for a headless ACP session). */
  readonly runtimeMode: 'default' | 'acp';
  /** The session has had a prompt attempted, recorded in its receipt (see `prompt_attempted`). */
  promptAttempted: boolean;
  /** A fresh token per started session: controls must name it exactly. */
  readonly generation: string;
  readonly session: ManagedSession;
  readonly startedAt: string;
  /** The actor generation (actor.created_at) the session belongs to: binds the durable self status. */
  readonly actorGeneration: string;
  selfStatus: SelfStatus | null;
  /** The provider thread has had its start-up prompt (durable in the receipt: once per thread). */
  startupPromptSent: boolean;
}

export interface ManagedEnded {
  readonly entry: ManagedEntry;
  readonly exit: ManagedExit;
}

/**
 * Whether an actor runs managed: every daemon-launched `codex` actor (spec §8.4 MUST), unless
 * the daemon runs with CCCC_CODEX_MANAGED=0 (`codexManaged` false) — then only a codex actor
 * whose runner is explicitly `headless`. `runner: "pty"` is every actor's default, so it cannot
 * serve as an escape. Every daemon-launched `opencode` and `kilo` actor runs managed (§8.4 MUST; no escape).
 */
export function wantsManaged(actor: ActorDoc, codexManaged: boolean): boolean {
  // §8.4 acp mode (Antigravity, Copilot, Devin, Cursor): a pure headless ACP session.
  if (actor.runtime_mode === 'acp') return managedRuntime(managedKey(actor)) !== undefined;
  if (actor.runtime === 'opencode' || actor.runtime === 'kilo') return true;
  if (actor.runtime !== 'codex') return false;
  return codexManaged || actor.runner === 'headless';
}

const key = (groupId: string, actorId: string) => `${groupId}\u0000${actorId}`;

/**
 * The daemon's managed provider sessions: start (resuming the recorded thread when its receipt
 * still matches), the durable ownership record of the provider process, and the one "ended"
 * notification when a session dies on its own. Per-actor serialization is the caller's.
 */
export class ManagedActors {
  private readonly entries = new Map<string, ManagedEntry>();
  /** Sessions we are stopping ourselves: their exit is not an "ended on its own". */
  private readonly stopping = new WeakSet<ManagedSession>();
  private readonly endedEmitter = new Emitter<ManagedEnded>();
  private readonly stateEmitter = new Emitter<{ groupId: string; actorId: string; state: ManagedState }>();
  private readonly turnEmitter = new Emitter<{ entry: ManagedEntry; phase: 'started' | 'completed'; turnId: string; status?: string; error?: string }>();
  readonly onEnded = this.endedEmitter.event;
  readonly onStateChanged = this.stateEmitter.event;
  readonly onTurn = this.turnEmitter.event;

  constructor(
    private readonly layout: HomeLayout,
    private readonly runtimes: (runtime: string) => ManagedRuntime | undefined = managedRuntime,
  ) {}

  private runtimeOf(key: string, actorId: string): ManagedRuntime {
    const managed = this.runtimes(key);
    if (!managed) throw daemonError(DaemonErrorCodes.runtimeStartFailed, `runtime ${key} has no managed session`, { actor_id: actorId, reason: 'unsupported_command' });
    return managed;
  }

  get(groupId: string, actorId: string): ManagedEntry | undefined {
    const entry = this.entries.get(key(groupId, actorId));
    return entry && !entry.session.exited ? entry : undefined;
  }

  all(): ManagedEntry[] {
    return [...this.entries.values()];
  }

  /** Throws the spec's explicit failure for a command that cannot run managed (nothing started). */
  check(launch: LaunchCommand, actorId: string, key: string): void {
    const managed = this.runtimeOf(key, actorId);
    try {
      managed.adapter.plan(launch.argv);
    } catch (error) {
      if (error instanceof ManagedLaunchError) throw daemonError(DaemonErrorCodes.runtimeStartFailed, error.message, { actor_id: actorId, reason: error.code });
      throw error;
    }
  }

  /** headless_set_status: kept on the entry and written durably, bound to its thread and actor generation. */
  setSelfStatus(entry: ManagedEntry, status: SelfStatus): void {
    writeSelfStatus(this.layout, entry.groupId, entry.actorId, { v: 1, session_id: entry.session.sessionId, actor_generation: entry.actorGeneration, ...status });
    entry.selfStatus = status;
  }

  /** An admitted turn carried the start-up prompt: its thread never gets it again (written before the flag is set). */
  markStartupPromptSent(entry: ManagedEntry): void {
    if (entry.startupPromptSent) return;
    markStartupPromptSent(this.layout, entry.groupId, entry.actorId, entry.session.sessionId);
    entry.startupPromptSent = true;
  }

  /**
   * Before a prompt goes out (confirmed or not): a provider that stores no empty session must
   * find this session again after a restart, so the attempt is made durable first (§8.4).
   */
  markPromptAttempted(entry: ManagedEntry): void {
    if (entry.promptAttempted) return;
    markPromptAttempted(this.layout, entry.groupId, entry.actorId, entry.session.sessionId);
    entry.promptAttempted = true;
  }

  async start(groupId: string, actor: ActorDoc, launch: LaunchCommand, mcpServers: readonly ManagedMcpServer[] = []): Promise<ManagedEntry> {
    const runtimeKey = managedKey(actor);
    this.check(launch, actor.id, runtimeKey);
    const managed = this.runtimeOf(runtimeKey, actor.id);
    const identity: ReceiptIdentity = {
      runtime: runtimeKey as ReceiptIdentity['runtime'],
      cwd: launch.cwd,
      command: [...launch.argv],
      actor_generation: actor.created_at ?? '',
      storage: managed.storage(launch.env),
    };
    const receipt = readManagedReceipt(this.layout, groupId, actor.id);
    // A never-prompted session of a provider that stores no empty session does not exist for it:
    // start fresh. An attempted one must load (or the start fails: never a silent fresh session).
    const resumable = receiptMatches(receipt, identity) && (!managed.volatileEmptySessions || receipt.prompt_attempted === true);
    const resume = resumable ? receipt!.session_id : undefined;
    let session: ManagedSession;
    try {
      session = await managed.adapter.start({
        argv: launch.argv,
        cwd: launch.cwd,
        env: launch.env,
        // Short and private: the listener's unix socket path must fit sun_path.
        stateDir: join(this.layout.home, 'daemon', 'managed'),
        sessionName: `cccc ${groupId}/${actor.id}`,
        mcpServers,
        ...(resume ? { resumeSessionId: resume } : {}),
      });
    } catch (error) {
      if (error instanceof ManagedLaunchError) throw daemonError(DaemonErrorCodes.runtimeStartFailed, error.message, { actor_id: actor.id, reason: error.code });
      throw error;
    }
    writeOwnershipRecord(this.layout, {
      v: 1,
      kind: managed.ownedKind,
      group_id: groupId,
      actor_id: actor.id,
      pid: session.pid,
      started_at: utcNowIso(),
      pid_start_time: processStartTime(session.pid) ?? null,
    });
    // A resumed thread keeps its start-up prompt mark; a fresh one has had none.
    const startupPromptSent = session.resumed && receipt?.session_id === session.sessionId && receipt.startup_prompt_sent === true;
    const promptAttempted = session.resumed && receipt?.session_id === session.sessionId && receipt.prompt_attempted === true;
    writeManagedReceipt(this.layout, groupId, actor.id, {
      v: 2,
      ...identity,
      session_id: session.sessionId,
      created_at: utcNowIso(),
      ...(startupPromptSent ? { startup_prompt_sent: true as const } : {}),
      ...(promptAttempted ? { prompt_attempted: true as const } : {}),
    });
    // A resumed thread of the same actor generation gets its last self-reported status back.
    const saved = readSelfStatus(this.layout, groupId, actor.id, session.sessionId, identity.actor_generation);
    const entry: ManagedEntry = {
      groupId,
      actorId: actor.id,
      runtime: session.runtime,
      runner: managed.runner,
      ownedKind: managed.ownedKind,
      headless: managed.headless === true,
      stateSource: managed.stateSource,
      runtimeMode: actor.runtime_mode === 'acp' ? 'acp' : 'default',
      promptAttempted,
      generation: randomUUID(),
      session,
      startedAt: utcNowIso(),
      actorGeneration: identity.actor_generation,
      selfStatus: saved ? { status: saved.status, task_id: saved.task_id, updated_at: saved.updated_at } : null,
      startupPromptSent,
    };
    this.entries.set(key(groupId, actor.id), entry);
    session.onStateChanged((state) => this.stateEmitter.fire({ groupId, actorId: actor.id, state }));
    session.onTurn((turn) => this.turnEmitter.fire({ entry, ...turn }));
    session.onExit((exit) => {
      if (this.stopping.has(session)) return;
      if (this.entries.get(key(groupId, actor.id)) === entry) this.entries.delete(key(groupId, actor.id));
      removeOwnershipRecord(this.layout, groupId, actor.id, managed.ownedKind);
      this.endedEmitter.fire({ entry, exit });
    });
    return entry;
  }

  /**
   * Daemon start, after the orphans were retired: listener sockets left by a previous daemon
   * (a kill -9 removes none) name no live server any more.
   */
  sweepStaleSockets(): void {
    const dir = join(this.layout.home, 'daemon', 'managed');
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) if (name.endsWith('.sock')) rmSync(join(dir, name), { force: true });
  }

  /** Ends the actor's managed session, if any; its receipt stays for the next start. */
  async stop(groupId: string, actorId: string, graceMs: number): Promise<ManagedExit | undefined> {
    const entry = this.entries.get(key(groupId, actorId));
    if (!entry) return undefined;
    this.entries.delete(key(groupId, actorId));
    this.stopping.add(entry.session);
    const exit = await entry.session.stop(graceMs);
    removeOwnershipRecord(this.layout, groupId, actorId, entry.ownedKind);
    return exit;
  }

  [Symbol.dispose](): void {
    this.endedEmitter[Symbol.dispose]();
    this.stateEmitter[Symbol.dispose]();
    this.turnEmitter[Symbol.dispose]();
  }
}
