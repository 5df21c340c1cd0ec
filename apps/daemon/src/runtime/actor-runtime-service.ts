import { readdirSync } from 'node:fs';
import { findActor, utcNowIso, type ActorDoc, type GroupDoc, type HomeLayout } from '@cccc/groups';
import { IpcError, type ActorStartProblem } from '@cccc/ipc-protocol';
import {
  ActorTerminal,
  Emitter,
  PtySpawnError,
  defaultPtySpawner,
  stopPtySession,
  type ManagedExit,
  type PtyExit,
  type PtySpawner,
  type TerminalSession,
} from '@cccc/pty-runtime';
import { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { RuntimeTuning } from '../config.js';
import { errorFields, type Logger } from '../log.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import type { RuntimeRegistry } from './runtime-registry.js';
import type { HookChannel } from '../hooks/hook-channel.js';
import { hookActorLockKey } from '../hooks/hook-files.js';
import { HOOK_UNAVAILABLE_DIAGNOSTIC, hookSpawnPlan, moveHookedLaunch, planHookLaunch, runHookedSpawn } from '../hooks/hook-launch.js';
import { sessionIdentity } from '../hooks/session-identity.js';
import { actorLaunch } from './actor-launch.js';
import type { CliLauncher } from './cli-launcher.js';
import { reapOrphans } from './orphan-reaper.js';
import { removeOwnershipRecord, writeOwnershipRecord } from './ownership-records.js';
import { processStartTime } from './proc-identity.js';
import { StartReports, type CheckedStart, type StartReportFields, type WatchedProvider } from './start-reports.js';
import { removeManagedReceipt } from './managed-receipt.js';
import { removeSelfStatus } from './managed-self-status.js';
import { acpModeUnavailable, managedKey, managedRuntime, sessionMcpServers } from './managed-runtimes.js';
import { ManagedActors, wantsManaged, type ManagedEnded, type ManagedEntry } from './managed-actors.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import { ClaudeBackgroundStarter, type BackgroundJob } from './claude-background/background-start.js';
import { CLAUDE_BACKGROUND_RUNNER } from './claude-background/background-plan.js';
import { removeClaudeBackgroundState } from './claude-background/background-receipt.js';

/** Re-attachments in a row after which a `claude attach` that keeps exiting ends the actor. */
const CLAUDE_REATTACH_MAX = 5;
/** An attachment that lived this long was working: its exit starts a fresh count. */
const CLAUDE_ATTACH_STABLE_MS = 30_000;

export type { CheckedStart } from './start-reports.js';

export interface ActorStarted {
  readonly groupId: string;
  readonly actorId: string;
  /** None for a pure headless ACP actor. */
  readonly session?: TerminalSession;
}

/** What the actor lifecycle reaches: group documents, the ledgers it records exits in, the terminal registry. */
export interface ActorRuntimeDeps {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly ledgers: Pick<LedgerPool, 'append'>;
  readonly runtimes: RuntimeRegistry;
  readonly groupLocks: KeyedMutex;
  readonly hookChannel: HookChannel;
  readonly logger: Logger;
  /** What a stop waits for and tells about the input it typed into the session (delivery confirmations). */
  readonly inputDrain?: SessionInputDrain;
  /** The loopback http hook URL for claude launches, while the listener is up (issue 35). */
  readonly claudeHookUrl?: () => string | undefined;
}

/** The input typed into a session, as the stop path sees it. */
export interface SessionInputDrain {
  /**
   * Resolves once every submit begun into the session before this call has been taken up or
   * settled otherwise (or a bound passed); what is begun later is not waited for.
   */
  settled(groupId: string, actorId: string, session: TerminalSession): Promise<void>;
  /** The session is gone: nothing typed into it can be taken up any more. */
  ended(groupId: string, actorId: string, session: TerminalSession): void;
}

export interface StartOutcome {
  /** The actor's PTY session; none for a pure headless ACP actor (no native TUI). */
  readonly session?: TerminalSession;
  /** false when the actor was already running (start is idempotent). */
  readonly started: boolean;
  /** It runs with a caveat (a failed hook probe: no hooks). */
  readonly warning?: ActorStartProblem;
  /** A managed actor's provider: its early exit (not the TUI's) fails the start. */
  readonly provider?: WatchedProvider;
}

/**
 * Owns the actors' PTY processes: start (launch composed from the actor's configuration),
 * stop (SIGTERM to the process group, SIGKILL after a grace), replace, the durable ownership
 * records, and the "exited on its own" transition. Per-actor operations are serialized.
 * Starts that must say how they went (`startChecked`, `ensureRunning`) go through StartReports.
 * Desired state (group.yaml) belongs to the ops; this service only makes processes match it.
 */
export class ActorRuntimeService implements AsyncDisposable {
  private readonly locks = new KeyedMutex();
  /** Sessions we are stopping ourselves: their exit is not an "exited on its own". */
  private readonly expectedExits = new WeakSet<TerminalSession>();
  private readonly startedEmitter = new Emitter<ActorStarted>();
  /** Aborted at shutdown: no early-exit watch keeps a stopping daemon waiting. */
  private readonly shutdown = new AbortController();
  private readonly reports: StartReports;
  /** A new PTY session runs (delivery resets its preamble and refills pending work). */
  readonly onActorStarted = this.startedEmitter.event;
  private disposed = false;
  /** Managed provider sessions (codex app-server); their actors' PTYs hold the attached TUI. */
  readonly managed: ManagedActors;
  /** Claude actors running as an Agent View background session (their PTY holds `claude attach`). */
  private readonly claudeJobs = new Map<string, BackgroundJob>();
  private readonly claudeBackground: ClaudeBackgroundStarter;
  /** Pending re-opens of a managed actor's TUI after it exited (the provider lives on). */
  private readonly tuiReopen = new Map<string, { timer: NodeJS.Timeout; attempts: number }>();
  /** Consecutive re-attachments of a claude background actor's `claude attach` TUI. */
  private readonly claudeReattach = new Map<string, number>();

  constructor(
    private readonly deps: ActorRuntimeDeps,
    private readonly tuning: RuntimeTuning,
    /** How agents run `cccc` (hooks, MCP server); undefined: claude/codex launch without both. */
    private readonly cli: CliLauncher | undefined,
    private readonly daemonEnv: NodeJS.ProcessEnv = process.env,
    private readonly spawner: PtySpawner = defaultPtySpawner(),
  ) {
    this.managed = new ManagedActors(deps.layout);
    this.claudeBackground = new ClaudeBackgroundStarter(deps.layout, deps.logger, tuning.claudeBackground !== false);
    this.managed.onEnded((ended) => {
      void this.locks.run(ActorRuntimeService.key(ended.entry.groupId, ended.entry.actorId), () => this.onManagedEnded(ended));
    });
    this.managed.onTurn(({ entry, phase, turnId, status, error }) => {
      const kind = phase === 'started' ? 'headless.turn.started' : status === 'failed' ? 'headless.turn.failed' : 'headless.turn.completed';
      void this.deps.ledgers
        .append(entry.groupId, {
          kind,
          by: 'system',
          data: {
            actor_id: entry.actorId,
            generation: entry.generation,
            session_id: entry.session.sessionId,
            turn_id: turnId,
            transport: entry.runner,
            ...(status ? { status } : {}),
            ...(error ? { error } : {}),
          },
        })
        .catch((e: unknown) => this.deps.logger.log('warn', 'could not record a managed turn', { group_id: entry.groupId, actor_id: entry.actorId, ...errorFields(e) }));
    });
    this.reports = new StartReports({
      ledgers: deps.ledgers,
      logger: deps.logger,
      windowMs: tuning.earlyExitWindowMs,
      stopping: this.shutdown.signal,
      stoppedByUs: (session) => this.expectedExits.has(session),
      runnerEffective: (g, a) => this.runnerEffective(g, a),
      runnerConfigured: (g, a) => this.runnerConfigured(g, a),
    });
  }

  private static key(groupId: string, actorId: string): string {
    return `${groupId}/${actorId}`;
  }

  session(groupId: string, actorId: string): TerminalSession | undefined {
    const session = this.deps.runtimes.get(groupId, actorId)?.session;
    return session && !session.exited ? session : undefined;
  }

  /** A managed actor runs while its provider session does, whether or not its TUI is open. */
  isRunning(groupId: string, actorId: string): boolean {
    return this.session(groupId, actorId) !== undefined || this.managed.get(groupId, actorId) !== undefined;
  }

  /** The actor's live managed session, if it runs managed. */
  managedSession(groupId: string, actorId: string): ManagedEntry | undefined {
    return this.managed.get(groupId, actorId);
  }

  /** The surface a start of this actor runs on (what `actor.start` records before it runs). */
  plannedRunner(actor: ActorDoc): string {
    return wantsManaged(actor, this.tuning.codexManaged) ? (managedRuntime(managedKey(actor))?.runner ?? 'pty') : 'pty';
  }

  /** actor_new_session: the next start creates a fresh provider session instead of resuming. */
  forgetManagedSession(groupId: string, actorId: string): void {
    removeManagedReceipt(this.deps.layout, groupId, actorId);
    removeSelfStatus(this.deps.layout, groupId, actorId);
    removeClaudeBackgroundState(this.deps.layout, groupId, actorId);
  }

  /** The actor's configured runner (`runner`, as op events record it); `pty` when it cannot be read. */
  private runnerConfigured(groupId: string, actorId: string): string {
    try {
      return findActor(this.deps.groups.get(groupId).actors, actorId).runner ?? 'pty';
    } catch {
      return 'pty';
    }
  }

  /** The surface the actor actually runs on (`runner_effective`); null when it does not run. */
  runnerEffective(groupId: string, actorId: string): string | null {
    const managed = this.managed.get(groupId, actorId);
    if (managed) return managed.runner;
    if (!this.session(groupId, actorId)) return null;
    return this.claudeJobs.has(ActorRuntimeService.key(groupId, actorId)) ? CLAUDE_BACKGROUND_RUNNER : 'pty';
  }

  runningActorIds(groupId: string): string[] {
    const ids = new Set(
      this.deps.runtimes
        .entries()
        .filter((e) => e.groupId === groupId && e.terminal.session && !e.terminal.session.exited)
        .map((e) => e.actorId),
    );
    for (const entry of this.managed.all()) if (entry.groupId === groupId && !entry.session.exited) ids.add(entry.actorId);
    return [...ids];
  }

  /** Throws the launch errors (`missing_project_root`, `scope_not_attached`, ...) without side effects. */
  checkLaunchable(groupId: string, actorId: string): void {
    const group = this.deps.groups.get(groupId);
    const actor = findActor(group.actors, actorId);
    const launch = actorLaunch(this.deps.layout, group, actor, this.daemonEnv, this.cli);
    const unavailable = acpModeUnavailable(actor);
    if (unavailable) throw daemonError(DaemonErrorCodes.runtimeStartFailed, unavailable, { actor_id: actorId, reason: 'runtime_mode_unavailable' });
    if (wantsManaged(actor, this.tuning.codexManaged)) this.managed.check(launch, actorId, managedKey(actor));
  }

  /**
   * Re-opens a managed actor's TUI against its healthy session (explicit start, writable attach,
   * delivery); a stopped provider is never restarted by this. Answers whether a TUI runs.
   */
  reopenTerminal(groupId: string, actorId: string): Promise<boolean> {
    // Not managed, or its TUI is open: nothing to wait for (a PTY actor's attach never queues here).
    if (!this.managed.get(groupId, actorId) || this.session(groupId, actorId)) return Promise.resolve(this.session(groupId, actorId) !== undefined);
    return this.locks.run(ActorRuntimeService.key(groupId, actorId), async () => {
      const entry = this.managed.get(groupId, actorId);
      // A pure headless ACP actor has no TUI to re-open.
      if (!entry || entry.headless) return false;
      if (!this.session(groupId, actorId)) this.openManagedTerminal(groupId, actorId, entry);
      return this.session(groupId, actorId) !== undefined;
    });
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
   * Start without an op behind it (daemon start, auto-wake): the transition gets its own
   * `actor.start` event by system. The early-exit window is watched in the background (its
   * problem is recorded, never thrown); answers whether the actor runs right after spawn.
   */
  async ensureRunning(groupId: string, actorId: string, reason: string): Promise<boolean> {
    const launch = await this.reports.launch(groupId, actorId, reason, true, () => {
      // §8.4: a failed Claude resume pauses automatic startup (never a fresh session in its
      // place); an explicit actor_start / actor_restart retries the same conversation.
      const paused = this.claudeBackground.resumePaused(groupId, actorId);
      if (paused && !this.isRunning(groupId, actorId)) throw this.claudeBackground.pausedError(actorId, paused);
      return this.start(groupId, actorId);
    });
    if (launch.decided) return launch.decided.result.running;
    void this.reports.watch(groupId, actorId, reason, launch);
    return true;
  }

  /**
   * A start as it really went: spawn, then wait the early-exit window (`earlyExitWindowMs`) for an
   * exit. Callers starting several actors run these concurrently, so the window is waited once.
   * Problems are kept for `actor_list` and recorded as `x.cccc.actor_start_problem`.
   * `announce`: append an `actor.start` by system (a start no op event stands for).
   */
  async startChecked(groupId: string, actorId: string, trigger: string, options: { announce?: boolean; replace?: boolean } = {}): Promise<CheckedStart> {
    const run = options.replace ? () => this.replace(groupId, actorId) : () => this.start(groupId, actorId);
    const launch = await this.reports.launch(groupId, actorId, trigger, options.announce === true, run);
    return launch.decided ?? this.reports.watch(groupId, actorId, trigger, launch);
  }

  /** `actor_list`'s runtime_session_* fields (a paused Claude resume). */
  sessionStatus(groupId: string, actorId: string): ReturnType<ClaudeBackgroundStarter['sessionStatus']> {
    return this.claudeBackground.sessionStatus(groupId, actorId);
  }

  /** Why the actor's last start had a problem: a failure while it does not run, a caveat while it runs. */
  startReport(groupId: string, actorId: string): StartReportFields {
    return this.reports.fields(groupId, actorId, this.isRunning(groupId, actorId));
  }

  async stopGroup(groupId: string): Promise<string[]> {
    const ids = this.runningActorIds(groupId);
    await Promise.all(ids.map((id) => this.stop(groupId, id)));
    return ids;
  }

  /** Daemon start: retire orphans of a previous daemon, then run the enabled actors of running groups. */
  async recover(): Promise<void> {
    await reapOrphans(this.deps.layout, this.deps.logger, this.tuning.stopGraceMs);
    this.managed.sweepStaleSockets();
    let groupIds: string[] = [];
    try {
      groupIds = readdirSync(this.deps.layout.groupsDir);
    } catch {
      return;
    }
    for (const gid of groupIds) {
      let group;
      try {
        group = this.deps.groups.get(gid);
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
    if (this.disposed) throw daemonError(DaemonErrorCodes.daemonStopping, 'the daemon is shutting down');
    const live = this.managed.get(groupId, actorId);
    if (live) {
      const session = this.session(groupId, actorId) ?? (live.headless ? undefined : this.openManagedTerminal(groupId, actorId, live));
      return session ? { session, started: false } : { started: false };
    }
    const current = this.session(groupId, actorId);
    if (current) return { session: current, started: false };
    const group = this.deps.groups.get(groupId);
    const actor = findActor(group.actors, actorId);
    const unavailable = acpModeUnavailable(actor);
    if (unavailable) throw daemonError(DaemonErrorCodes.runtimeStartFailed, unavailable, { actor_id: actorId, reason: 'runtime_mode_unavailable' });
    if (wantsManaged(actor, this.tuning.codexManaged)) return this.startManagedLocked(group, actor);
    const plain = actorLaunch(this.deps.layout, group, actor, this.daemonEnv, this.cli);
    const { options: hooks, probeProblem, claudeVersionOutput } = await planHookLaunch(plain, this.cli, this.deps.claudeHookUrl?.());
    const launch = hooks ? actorLaunch(this.deps.layout, group, actor, this.daemonEnv, this.cli, hooks) : plain;
    const hookPlan = hookSpawnPlan(plain, launch, hooks);
    // §8.4: a direct claude runs as a CCCC-owned background session with `claude attach` in the
    // PTY; where that is not possible the native PTY runs, with the reason as a start caveat.
    const background = await this.claudeBackground.prepare({ groupId, actor, plain, launch, hookEnabled: hookPlan?.hookEnabled === true, versionOutput: claudeVersionOutput });
    const warning = probeProblem ?? background.fallback;
    let jobId: string | undefined;
    if (hookPlan && !hookPlan.hookEnabled) {
      this.deps.logger.log('warn', 'actor launched without hooks', {
        group_id: groupId,
        actor_id: actorId,
        runtime: hookPlan.runtime,
        diagnostic: HOOK_UNAVAILABLE_DIAGNOSTIC,
      });
    }
    const terminal = this.deps.runtimes.get(groupId, actorId) ?? this.newTerminal(groupId, actorId);
    let session: TerminalSession;
    try {
      session = await this.deps.groupLocks.run(hookActorLockKey(groupId, actorId), () =>
        runHookedSpawn(
          this.deps.hookChannel,
          { groupId, actorId },
          hookPlan,
          () => {
            const started = terminal.start(background.prepared && jobId ? { ...launch, argv: background.prepared.attachArgv(jobId) } : launch);
            this.deps.runtimes.set(groupId, actorId, terminal);
            return started;
          },
          background.prepared ? async () => void (jobId = await background.prepared!.launch()) : undefined,
        ),
      );
    } catch (error) {
      if (error instanceof PtySpawnError) {
        throw daemonError(DaemonErrorCodes.runtimeStartFailed, error.message, { actor_id: actorId, reason: error.code });
      }
      throw this.claudeBackground.toIpcError(error, groupId, actorId);
    }
    if (background.prepared && jobId) {
      try {
        this.claudeJobs.set(ActorRuntimeService.key(groupId, actorId), await background.prepared.confirm(jobId));
      } catch (error) {
        // Not the exact session: nothing stays attached to it.
        this.recordPtyOwnership(groupId, actorId, session.pid);
        await this.stopTerminalLocked(groupId, actorId);
        throw this.claudeBackground.toIpcError(error, groupId, actorId);
      }
    }
    this.recordPtyOwnership(groupId, actorId, session.pid);
    this.deps.logger.log('info', 'actor started', { group_id: groupId, actor_id: actorId, pid: session.pid });
    // A new session: the previous start's problem no longer describes it.
    this.reports.forget(groupId, actorId);
    this.startedEmitter.fire({ groupId, actorId, session });
    return warning ? { session, started: true, warning } : { session, started: true };
  }

  private async stopLocked(groupId: string, actorId: string): Promise<PtyExit | undefined> {
    this.cancelReopen(groupId, actorId);
    this.claudeReattach.delete(ActorRuntimeService.key(groupId, actorId));
    try {
      return await this.stopTerminalLocked(groupId, actorId);
    } finally {
      // The provider goes after its attached TUI; its thread receipt stays for the next start.
      await this.managed.stop(groupId, actorId, this.tuning.stopGraceMs);
      await this.stopClaudeJob(groupId, actorId);
    }
  }

  /**
   * Ends the actor's background job (after its attached TUI) and answers only once Agent View
   * confirms it absent; unconfirmed, the job stays owned for a retry and the stop fails.
   */
  private async stopClaudeJob(groupId: string, actorId: string): Promise<void> {
    const k = ActorRuntimeService.key(groupId, actorId);
    const job = this.claudeJobs.get(k);
    if (!job) return;
    await this.claudeBackground.stop(job, { group_id: groupId, actor_id: actorId });
    this.claudeJobs.delete(k);
  }

  private async stopTerminalLocked(groupId: string, actorId: string): Promise<PtyExit | undefined> {
    const terminal = this.deps.runtimes.get(groupId, actorId);
    const session = terminal?.session;
    // A restart must not cut a delivery in half (issue 19). A submitted prompt gets its hook
    // (bounded) before the process goes. A submit still waiting to write its Enter gives up
    // (markEnding): Enter typed into an agent about to be killed is a prompt nobody takes up, so
    // its paste dies unsubmitted and the delivery goes to the next session. The input lane stays
    // held until the session is detached, so no new submit starts into a session about to die;
    // one queued meanwhile fails unwritten and is delivered to the next session too.
    if (session && !session.exited) session.markEnding();
    const releaseInput = session && !session.exited && !this.disposed ? await this.drainInput(groupId, actorId, session) : undefined;
    this.deps.runtimes.delete(groupId, actorId);
    this.reports.forget(groupId, actorId);
    if (!terminal || !session) {
      removeOwnershipRecord(this.deps.layout, groupId, actorId);
      return undefined;
    }
    this.expectedExits.add(session);
    terminal.detachSession();
    releaseInput?.();
    this.deps.inputDrain?.ended(groupId, actorId, session);
    const exit = await stopPtySession(session.pty, { graceMs: this.tuning.stopGraceMs });
    session[Symbol.dispose]();
    removeOwnershipRecord(this.deps.layout, groupId, actorId);
    this.deps.logger.log('info', 'actor stopped', { group_id: groupId, actor_id: actorId, pid: session.pid });
    return exit;
  }

  /** Takes the session's input lane once its submitted input settled; returns the release. */
  private drainInput(groupId: string, actorId: string, session: TerminalSession): Promise<() => void> {
    const drain = this.deps.inputDrain;
    if (!drain) return Promise.resolve(() => {});
    // Asked before the lane is queued for: every submit begun so far is ahead of the stop on it.
    const settled = drain.settled(groupId, actorId, session);
    return new Promise((held) => {
      void session.runExclusive(
        () =>
          new Promise<void>((release) => {
            // An agent that dies meanwhile takes nothing up any more: stop waiting for it.
            let exitWatch: Disposable | undefined;
            const exited = new Promise<void>((resolve) => (exitWatch = session.onExit(() => resolve())));
            void Promise.race([settled, exited]).finally(() => {
              exitWatch?.[Symbol.dispose]();
              held(release);
            });
          }),
      );
    });
  }

  private newTerminal(groupId: string, actorId: string): ActorTerminal {
    const terminal = new ActorTerminal({ actorId, spawner: this.spawner });
    terminal.onSessionExited(({ session, exit }) => {
      if (this.expectedExits.has(session)) return;
      if (this.managed.get(groupId, actorId)) {
        // A managed actor's TUI is an attachment, not its lifetime: the provider lives on.
        void this.locks.run(ActorRuntimeService.key(groupId, actorId), async () => this.onManagedTerminalExited(groupId, actorId, terminal, session, exit));
        return;
      }
      if (this.claudeJobs.has(ActorRuntimeService.key(groupId, actorId))) {
        // The background job is the actor; `claude attach` is only a view onto it.
        void this.locks.run(ActorRuntimeService.key(groupId, actorId), () => this.onClaudeTerminalExited(groupId, actorId, terminal, session, exit));
        return;
      }
      void this.locks.run(ActorRuntimeService.key(groupId, actorId), () => this.onExitedOnItsOwn(groupId, actorId, terminal, session, exit));
    });
    return terminal;
  }

  /**
   * The `claude attach` TUI ended while the actor owns a background job (spec §8.4: the terminal
   * is only an attachment). While Agent View still lists the job, the attachment is re-opened
   * after a backoff, a bounded number of times in a row; a job that is gone, or an attachment that
   * keeps dying, ends the actor as an own exit (the job is stopped, the receipt kept).
   */
  private async onClaudeTerminalExited(groupId: string, actorId: string, terminal: ActorTerminal, session: TerminalSession, exit: PtyExit): Promise<void> {
    if (terminal.session !== session) return;
    const k = ActorRuntimeService.key(groupId, actorId);
    const job = this.claudeJobs.get(k);
    // An attachment that lived a while resets the count: only one that keeps dying gives up.
    const prior = Date.now() - session.startedAt > CLAUDE_ATTACH_STABLE_MS ? 0 : (this.claudeReattach.get(k) ?? 0);
    const live = job && prior < CLAUDE_REATTACH_MAX && !this.disposed ? await this.claudeBackground.jobLive(job) : false;
    // Unknown (a failed query) is retried like live: one query failure does not end the session.
    if (!job || live === false) {
      this.claudeReattach.delete(k);
      return this.onExitedOnItsOwn(groupId, actorId, terminal, session, exit);
    }
    const identity = sessionIdentity(session);
    terminal.detachSession();
    this.deps.inputDrain?.ended(groupId, actorId, session);
    session[Symbol.dispose]();
    removeOwnershipRecord(this.deps.layout, groupId, actorId);
    this.claudeReattach.set(k, prior + 1);
    this.deps.logger.log('info', 'claude attach exited; the background job lives on, re-attaching', { group_id: groupId, actor_id: actorId, pid: session.pid, job_id: job.jobId, attempt: prior + 1, ...exit });
    this.cancelReopen(groupId, actorId);
    const timer = setTimeout(() => {
      void this.locks.run(k, async () => {
        this.tuiReopen.delete(k);
        if (this.disposed || this.session(groupId, actorId) || this.claudeJobs.get(k) !== job) return;
        try {
          // Under the hook lock: the launch record follows the new terminal's pid, so the job's
          // hooks (same launch token) keep counting for working state and delivery confirmation.
          await this.deps.groupLocks.run(hookActorLockKey(groupId, actorId), async () => {
            const reopened = terminal.start({ argv: [job.ctx.exe, 'attach', job.jobId], env: { ...job.ctx.env }, cwd: job.ctx.cwd });
            this.deps.runtimes.set(groupId, actorId, terminal);
            this.recordPtyOwnership(groupId, actorId, reopened.pid);
            await moveHookedLaunch(this.deps.hookChannel, { groupId, actorId }, identity, reopened);
          });
        } catch (error) {
          this.deps.logger.log('warn', 'could not re-open claude attach', { group_id: groupId, actor_id: actorId, job_id: job.jobId, ...errorFields(error) });
        }
      });
    }, Math.min(5_000, 250 * 2 ** prior));
    timer.unref();
    this.tuiReopen.set(k, { timer, attempts: prior + 1 });
  }

  /** The agent ended by itself: it is stopped (desired state unchanged), with its exit status. */
  private async onExitedOnItsOwn(groupId: string, actorId: string, terminal: ActorTerminal, session: TerminalSession, exit: PtyExit): Promise<void> {
    if (terminal.session !== session) return;
    terminal.detachSession();
    this.deps.inputDrain?.ended(groupId, actorId, session);
    session[Symbol.dispose]();
    if (this.deps.runtimes.get(groupId, actorId) === terminal) this.deps.runtimes.delete(groupId, actorId);
    removeOwnershipRecord(this.deps.layout, groupId, actorId);
    this.deps.logger.log('info', 'actor exited', { group_id: groupId, actor_id: actorId, pid: session.pid, ...exit });
    // The attached TUI ended (quit, crash): its background job goes with it, so no session runs
    // that no actor owns; the receipt stays and the next start resumes the same conversation.
    const runner = this.claudeJobs.has(ActorRuntimeService.key(groupId, actorId)) ? CLAUDE_BACKGROUND_RUNNER : 'pty';
    await this.stopClaudeJob(groupId, actorId).catch((error: unknown) =>
      this.deps.logger.log('warn', 'could not stop an exited actor background job', { group_id: groupId, actor_id: actorId, ...errorFields(error) }),
    );
    try {
      await this.deps.ledgers.append(groupId, {
        kind: 'actor.stop',
        by: 'system',
        data: { actor_id: actorId, runner: 'pty', runner_effective: runner, reason: 'exited', exit_code: exit.exitCode, signal: exit.signal },
      });
    } catch (error) {
      this.deps.logger.log('warn', 'could not record an actor exit', { group_id: groupId, actor_id: actorId, ...errorFields(error) });
    }
  }

  /** Shutdown: every owned process group is stopped; nothing is left running. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.disposed = true;
    this.shutdown.abort();
    const keys = new Map<string, { groupId: string; actorId: string }>();
    for (const e of [...this.deps.runtimes.entries(), ...this.managed.all()]) keys.set(ActorRuntimeService.key(e.groupId, e.actorId), e);
    await Promise.all([...keys.values()].map((e) => this.stop(e.groupId, e.actorId)));
    this.startedEmitter[Symbol.dispose]();
    this.managed[Symbol.dispose]();
  }

  /** Start the provider session (resuming its recorded thread when it matches), then its TUI. */
  private async startManagedLocked(group: GroupDoc, actor: ActorDoc): Promise<StartOutcome> {
    const groupId = group.group_id;
    const launch = actorLaunch(this.deps.layout, group, actor, this.daemonEnv, this.cli);
    const mcp = sessionMcpServers(managedKey(actor), this.cli, { home: this.deps.layout.home, groupId, actorId: actor.id });
    const entry = await this.managed.start(groupId, actor, launch, mcp);
    // Subscribed before anything else can run: the provider's exit is never missed by the start check.
    const providerExit = new Promise<ManagedExit>((resolve) => {
      if (entry.session.exited) resolve({ code: null, signal: null, reason: 'exited' });
      else entry.session.onExit(resolve);
    });
    this.deps.logger.log('info', 'managed actor started', {
      group_id: groupId,
      actor_id: actor.id,
      pid: entry.session.pid,
      session_id: entry.session.sessionId,
      resumed: entry.session.resumed,
    });
    const provider = { name: managedRuntime(managedKey(actor))?.providerName ?? entry.runner, exit: providerExit };
    if (entry.headless) {
      // §8.4 pure headless ACP: no native TUI; the actor's terminal ops answer not_pty_actor.
      this.reports.forget(groupId, actor.id);
      this.startedEmitter.fire({ groupId, actorId: actor.id });
      return { started: true, provider };
    }
    let session: TerminalSession;
    try {
      session = this.openManagedTerminal(groupId, actor.id, entry);
    } catch (error) {
      await this.managed.stop(groupId, actor.id, this.tuning.stopGraceMs);
      throw error;
    }
    this.reports.forget(groupId, actor.id);
    this.startedEmitter.fire({ groupId, actorId: actor.id, session });
    return { session, started: true, provider };
  }

  /** The native TUI attached to the managed session's exact thread, in the actor's PTY. */
  private openManagedTerminal(groupId: string, actorId: string, entry: ManagedEntry): TerminalSession {
    const group = this.deps.groups.get(groupId);
    const launch = actorLaunch(this.deps.layout, group, findActor(group.actors, actorId), this.daemonEnv, this.cli);
    const terminal = this.deps.runtimes.get(groupId, actorId) ?? this.newTerminal(groupId, actorId);
    let session: TerminalSession;
    try {
      session = terminal.start({ argv: entry.session.terminalArgv(), env: { ...launch.env, ...entry.session.terminalEnv?.() }, cwd: launch.cwd });
    } catch (error) {
      if (error instanceof PtySpawnError) {
        throw daemonError(DaemonErrorCodes.runtimeStartFailed, error.message, { actor_id: actorId, reason: error.code });
      }
      throw error;
    }
    this.deps.runtimes.set(groupId, actorId, terminal);
    this.recordPtyOwnership(groupId, actorId, session.pid);
    return session;
  }

  /** The TUI of a healthy managed session exited: detach it and re-open it after a short backoff. */
  private onManagedTerminalExited(groupId: string, actorId: string, terminal: ActorTerminal, session: TerminalSession, exit: PtyExit): void {
    if (terminal.session !== session) return;
    terminal.detachSession();
    this.deps.inputDrain?.ended(groupId, actorId, session);
    session[Symbol.dispose]();
    removeOwnershipRecord(this.deps.layout, groupId, actorId);
    this.deps.logger.log('info', 'managed actor terminal exited; the session lives on', { group_id: groupId, actor_id: actorId, pid: session.pid, ...exit });
    const k = ActorRuntimeService.key(groupId, actorId);
    const attempts = (this.tuiReopen.get(k)?.attempts ?? 0) + 1;
    this.cancelReopen(groupId, actorId);
    const delay = Math.min(10_000, 500 * 2 ** Math.min(attempts - 1, 5));
    const timer = setTimeout(() => {
      void this.locks.run(k, async () => {
        const entry = this.managed.get(groupId, actorId);
        if (!entry || this.disposed || this.session(groupId, actorId)) return;
        try {
          this.openManagedTerminal(groupId, actorId, entry);
        } catch (error) {
          this.deps.logger.log('warn', 'could not re-open a managed actor terminal', { group_id: groupId, actor_id: actorId, ...errorFields(error) });
        }
      });
    }, delay);
    timer.unref();
    this.tuiReopen.set(k, { timer, attempts });
  }

  /** Who owns the actor's terminal process, durable so a daemon restarted after kill -9 can retire it. */
  private recordPtyOwnership(groupId: string, actorId: string, pid: number): void {
    writeOwnershipRecord(this.deps.layout, {
      v: 1,
      kind: 'pty',
      group_id: groupId,
      actor_id: actorId,
      pid,
      started_at: utcNowIso(),
      pid_start_time: processStartTime(pid) ?? null,
    });
  }

  private cancelReopen(groupId: string, actorId: string): void {
    const k = ActorRuntimeService.key(groupId, actorId);
    const pending = this.tuiReopen.get(k);
    if (pending) clearTimeout(pending.timer);
    this.tuiReopen.delete(k);
  }

  /** The provider died on its own: the actor stops (its TUI too), with exactly one actor.stop. */
  private async onManagedEnded({ entry, exit }: ManagedEnded): Promise<void> {
    const { groupId, actorId } = entry;
    this.cancelReopen(groupId, actorId);
    await this.stopTerminalLocked(groupId, actorId);
    this.deps.logger.log('info', 'managed actor session ended', { group_id: groupId, actor_id: actorId, pid: entry.session.pid, ...exit });
    try {
      await this.deps.ledgers.append(groupId, {
        kind: 'actor.stop',
        by: 'system',
        data: {
          actor_id: actorId,
          runner: entry.runner,
          runner_effective: entry.runner,
          reason: exit.reason === 'exited' ? 'exited' : exit.reason,
          exit_code: exit.code,
          signal: exit.signal,
        },
      });
    } catch (error) {
      this.deps.logger.log('warn', 'could not record an actor exit', { group_id: groupId, actor_id: actorId, ...errorFields(error) });
    }
  }
}
