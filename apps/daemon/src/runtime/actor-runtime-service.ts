import { readdirSync } from 'node:fs';
import { findActor, utcNowIso } from '@cccc/groups';
import { IpcError } from '@cccc/ipc-protocol';
import {
  ActorTerminal,
  Emitter,
  PtySpawnError,
  defaultPtySpawner,
  stopPtySession,
  type PtyExit,
  type PtySpawner,
  type TerminalSession,
} from '@cccc/pty-runtime';
import { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { RuntimeTuning } from '../config.js';
import { errorFields } from '../log.js';
import type { Kernel } from '../kernel/kernel.js';
import { hookActorLockKey } from '../hooks/hook-files.js';
import { HOOK_UNAVAILABLE_DIAGNOSTIC, hookSpawnPlan, planHookLaunch, runHookedSpawn } from '../hooks/hook-launch.js';
import { actorLaunch } from './actor-launch.js';
import type { CliLauncher } from './cli-launcher.js';
import { reapOrphans } from './orphan-reaper.js';
import { removeOwnershipRecord, writeOwnershipRecord } from './ownership-records.js';
import { processStartTime } from './proc-identity.js';

export interface ActorStarted {
  readonly groupId: string;
  readonly actorId: string;
  readonly session: TerminalSession;
}

export interface StartOutcome {
  readonly session: TerminalSession;
  /** false when the actor was already running (start is idempotent). */
  readonly started: boolean;
}

/**
 * Owns the actors' PTY processes: start (launch composed from the actor's configuration),
 * stop (SIGTERM to the process group, SIGKILL after a grace), replace, the durable ownership
 * records, and the "exited on its own" transition. Per-actor operations are serialized.
 * Desired state (group.yaml) belongs to the ops; this service only makes processes match it.
 */
export class ActorRuntimeService implements AsyncDisposable {
  private readonly locks = new KeyedMutex();
  /** Sessions we are stopping ourselves: their exit is not an "exited on its own". */
  private readonly expectedExits = new WeakSet<TerminalSession>();
  private readonly startedEmitter = new Emitter<ActorStarted>();
  /** A new PTY session runs (delivery resets its preamble and refills pending work). */
  readonly onActorStarted = this.startedEmitter.event;
  private disposed = false;

  constructor(
    private readonly kernel: Kernel,
    private readonly tuning: RuntimeTuning,
    /** How agents run `cccc` (hooks, MCP server); undefined: claude/codex launch without both. */
    private readonly cli: CliLauncher | undefined,
    private readonly daemonEnv: NodeJS.ProcessEnv = process.env,
    private readonly spawner: PtySpawner = defaultPtySpawner(),
  ) {}

  private static key(groupId: string, actorId: string): string {
    return `${groupId}/${actorId}`;
  }

  session(groupId: string, actorId: string): TerminalSession | undefined {
    const session = this.kernel.runtimes.get(groupId, actorId)?.session;
    return session && !session.exited ? session : undefined;
  }

  isRunning(groupId: string, actorId: string): boolean {
    return this.session(groupId, actorId) !== undefined;
  }

  runningActorIds(groupId: string): string[] {
    return this.kernel.runtimes
      .entries()
      .filter((e) => e.groupId === groupId && e.terminal.session && !e.terminal.session.exited)
      .map((e) => e.actorId);
  }

  /** Throws the launch errors (`missing_project_root`, `scope_not_attached`, ...) without side effects. */
  checkLaunchable(groupId: string, actorId: string): void {
    const group = this.kernel.groups.get(groupId);
    actorLaunch(this.kernel.layout, group, findActor(group.actors, actorId), this.daemonEnv, this.cli);
  }

  start(groupId: string, actorId: string): Promise<StartOutcome> {
    return this.locks.run(ActorRuntimeService.key(groupId, actorId), () => this.startLocked(groupId, actorId));
  }

  stop(groupId: string, actorId: string): Promise<PtyExit | undefined> {
    return this.locks.run(ActorRuntimeService.key(groupId, actorId), () => this.stopLocked(groupId, actorId));
  }

  /** Stop if running, then start a fresh session (restart and actor_new_session). */
  replace(groupId: string, actorId: string): Promise<StartOutcome> {
    return this.locks.run(ActorRuntimeService.key(groupId, actorId), async () => {
      this.checkLaunchable(groupId, actorId);
      await this.stopLocked(groupId, actorId);
      return this.startLocked(groupId, actorId);
    });
  }

  /**
   * Start without an op behind it (daemon start, auto-wake, actor_add): the transition gets its
   * own `actor.start` event by system. Failures are logged and reported, never thrown.
   */
  async ensureRunning(groupId: string, actorId: string, reason: string): Promise<boolean> {
    try {
      const { started } = await this.start(groupId, actorId);
      if (started) {
        await this.kernel.append(groupId, {
          kind: 'actor.start',
          by: 'system',
          data: { actor_id: actorId, runner: 'pty', runner_effective: 'pty', reason },
        });
      }
      return true;
    } catch (error) {
      this.kernel.logger.log('warn', 'actor could not be started', { group_id: groupId, actor_id: actorId, reason, ...errorFields(error) });
      return false;
    }
  }

  async stopGroup(groupId: string): Promise<string[]> {
    const ids = this.runningActorIds(groupId);
    await Promise.all(ids.map((id) => this.stop(groupId, id)));
    return ids;
  }

  /** Daemon start: retire orphans of a previous daemon, then run the enabled actors of running groups. */
  async recover(): Promise<void> {
    await reapOrphans(this.kernel.layout, this.kernel.logger, this.tuning.stopGraceMs);
    let groupIds: string[] = [];
    try {
      groupIds = readdirSync(this.kernel.layout.groupsDir);
    } catch {
      return;
    }
    for (const gid of groupIds) {
      let group;
      try {
        group = this.kernel.groups.get(gid);
      } catch {
        continue;
      }
      if (!group.running) continue;
      for (const actor of group.actors) {
        if (actor.enabled !== false) await this.ensureRunning(gid, actor.id, 'daemon_start');
      }
    }
  }

  private async startLocked(groupId: string, actorId: string): Promise<StartOutcome> {
    if (this.disposed) throw new IpcError('daemon_stopping', 'the daemon is shutting down');
    const current = this.session(groupId, actorId);
    if (current) return { session: current, started: false };
    const group = this.kernel.groups.get(groupId);
    const actor = findActor(group.actors, actorId);
    const plain = actorLaunch(this.kernel.layout, group, actor, this.daemonEnv, this.cli);
    const hooks = await planHookLaunch(plain, this.cli);
    const launch = hooks ? actorLaunch(this.kernel.layout, group, actor, this.daemonEnv, this.cli, hooks) : plain;
    const hookPlan = hookSpawnPlan(plain, launch, hooks);
    if (hookPlan && !hookPlan.hookEnabled) {
      this.kernel.logger.log('warn', 'actor launched without hooks', {
        group_id: groupId,
        actor_id: actorId,
        runtime: hookPlan.runtime,
        diagnostic: HOOK_UNAVAILABLE_DIAGNOSTIC,
      });
    }
    const terminal = this.kernel.runtimes.get(groupId, actorId) ?? this.newTerminal(groupId, actorId);
    let session: TerminalSession;
    try {
      session = await this.kernel.groupLocks.run(hookActorLockKey(groupId, actorId), () =>
        runHookedSpawn(this.kernel.layout, { groupId, actorId }, hookPlan, () => {
          const started = terminal.start(launch);
          this.kernel.runtimes.set(groupId, actorId, terminal);
          return started;
        }),
      );
    } catch (error) {
      if (error instanceof PtySpawnError) {
        throw new IpcError('runtime_start_failed', error.message, { actor_id: actorId, reason: error.code });
      }
      throw error;
    }
    writeOwnershipRecord(this.kernel.layout, {
      v: 1,
      kind: 'pty',
      group_id: groupId,
      actor_id: actorId,
      pid: session.pid,
      started_at: utcNowIso(),
      pid_start_time: processStartTime(session.pid) ?? null,
    });
    this.kernel.logger.log('info', 'actor started', { group_id: groupId, actor_id: actorId, pid: session.pid });
    this.startedEmitter.fire({ groupId, actorId, session });
    return { session, started: true };
  }

  private async stopLocked(groupId: string, actorId: string): Promise<PtyExit | undefined> {
    const terminal = this.kernel.runtimes.get(groupId, actorId);
    const session = terminal?.session;
    this.kernel.runtimes.delete(groupId, actorId);
    if (!terminal || !session) {
      removeOwnershipRecord(this.kernel.layout, groupId, actorId);
      return undefined;
    }
    this.expectedExits.add(session);
    terminal.detachSession();
    const exit = await stopPtySession(session.pty, { graceMs: this.tuning.stopGraceMs });
    session[Symbol.dispose]();
    removeOwnershipRecord(this.kernel.layout, groupId, actorId);
    this.kernel.logger.log('info', 'actor stopped', { group_id: groupId, actor_id: actorId, pid: session.pid });
    return exit;
  }

  private newTerminal(groupId: string, actorId: string): ActorTerminal {
    const terminal = new ActorTerminal({ actorId, spawner: this.spawner });
    terminal.onSessionExited(({ session, exit }) => {
      if (this.expectedExits.has(session)) return;
      void this.locks.run(ActorRuntimeService.key(groupId, actorId), () => this.onExitedOnItsOwn(groupId, actorId, terminal, session, exit));
    });
    return terminal;
  }

  /** The agent ended by itself: it is stopped (desired state unchanged), with its exit status. */
  private async onExitedOnItsOwn(groupId: string, actorId: string, terminal: ActorTerminal, session: TerminalSession, exit: PtyExit): Promise<void> {
    if (terminal.session !== session) return;
    terminal.detachSession();
    session[Symbol.dispose]();
    if (this.kernel.runtimes.get(groupId, actorId) === terminal) this.kernel.runtimes.delete(groupId, actorId);
    removeOwnershipRecord(this.kernel.layout, groupId, actorId);
    this.kernel.logger.log('info', 'actor exited', { group_id: groupId, actor_id: actorId, pid: session.pid, ...exit });
    try {
      await this.kernel.append(groupId, {
        kind: 'actor.stop',
        by: 'system',
        data: { actor_id: actorId, runner: 'pty', runner_effective: 'pty', reason: 'exited', exit_code: exit.exitCode, signal: exit.signal },
      });
    } catch (error) {
      this.kernel.logger.log('warn', 'could not record an actor exit', { group_id: groupId, actor_id: actorId, ...errorFields(error) });
    }
  }

  /** Shutdown: every owned process group is stopped; nothing is left running. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.disposed = true;
    await Promise.all(this.kernel.runtimes.entries().map((e) => this.stop(e.groupId, e.actorId)));
    this.startedEmitter[Symbol.dispose]();
  }
}
