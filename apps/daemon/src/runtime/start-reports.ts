import { ACTOR_START_PROBLEM_KIND, type ActorStartProblem, type ActorStartResult, type CCCSEventV1 } from '@cccc/ipc-protocol';
import type { ManagedExit, TerminalSession } from '@cccc/pty-runtime';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import { errorFields, type Logger } from '../log.js';
import { earlyExitProblem, failureFields, problemOfStartError, providerExitProblem, waitEarlyExit, waitProviderExit } from './start-check.js';

/** A start as it really went (after the early-exit window), for op results. */
export interface CheckedStart {
  readonly result: ActorStartResult;
  /** The `actor.start` event by system, when the start announced itself (no op event behind it). */
  readonly startEvent?: CCCSEventV1;
  /** What the start threw, when it failed before or at spawn (launch errors, missing executable). */
  readonly error?: unknown;
}

export type StartReportFields = Pick<ActorStartResult, 'start_error' | 'start_failure' | 'start_warning'>;

/** What a start call answered: a spawned (or already running) session, and its caveat. */
export interface SpawnOutcome {
  /** None for a pure headless ACP actor (then `provider` is set). */
  readonly session?: TerminalSession;
  readonly started: boolean;
  readonly warning?: ActorStartProblem;
  /**
   * A managed actor's provider process: the window watches it, not the terminal (the attached
   * TUI is re-opened when it exits; the provider ending is what fails the start).
   */
  readonly provider?: WatchedProvider;
}

export interface WatchedProvider {
  /** What the report calls it (`codex app-server`). */
  readonly name: string;
  /** Its one exit (reason `stopped` when we ended it ourselves). */
  readonly exit: Promise<ManagedExit>;
}

/** A spawned session whose early-exit window is still to be watched, or a start already decided. */
export type Launch =
  | { readonly decided: CheckedStart }
  | { readonly decided?: undefined; readonly session?: TerminalSession; readonly warning?: ActorStartProblem; readonly startEvent?: CCCSEventV1; readonly provider?: WatchedProvider };

export interface StartReportsDeps {
  readonly ledgers: Pick<LedgerPool, 'append'>;
  readonly logger: Logger;
  readonly windowMs: number;
  /** Aborted at shutdown: no early-exit watch keeps a stopping daemon waiting. */
  readonly stopping: AbortSignal;
  /** The session ended because we stopped it (stop, restart, shutdown): not a failed start. */
  readonly stoppedByUs: (session: TerminalSession) => boolean;
  /** The surface the actor now runs on (`pty`, `codex_app_server`), for the announced `actor.start`. */
  readonly runnerEffective?: (groupId: string, actorId: string) => string | null;
  /** The actor's configured runner, as op-recorded lifecycle events carry it. */
  readonly runnerConfigured?: (groupId: string, actorId: string) => string;
}

/**
 * Honest starts (issue 15): runs a start, watches its early-exit window and keeps the last
 * start's problem per actor in memory (the one owner of that state; `actor_list` reads it).
 * Each problem is also appended as `x.cccc.actor_start_problem` (without the agent's output,
 * which may hold secrets).
 */
export class StartReports {
  private readonly problems = new Map<string, { readonly failure?: ActorStartProblem; readonly warning?: ActorStartProblem }>();

  constructor(private readonly deps: StartReportsDeps) {}

  private static key(groupId: string, actorId: string): string {
    return `${groupId}/${actorId}`;
  }

  /** A failure while the actor does not run, a caveat while it runs; nothing after a clean start. */
  fields(groupId: string, actorId: string, running: boolean): StartReportFields {
    const problems = this.problems.get(StartReports.key(groupId, actorId));
    if (!running && problems?.failure) return failureFields(problems.failure);
    if (running && problems?.warning) return { start_warning: problems.warning };
    return {};
  }

  /** A new session or a stop: the previous start's problem no longer describes the actor. */
  forget(groupId: string, actorId: string): void {
    this.problems.delete(StartReports.key(groupId, actorId));
  }

  /** Run the start; a throw (launch error, missing executable) is decided at once. */
  async launch(groupId: string, actorId: string, trigger: string, announce: boolean, run: () => Promise<SpawnOutcome>): Promise<Launch> {
    let outcome: SpawnOutcome;
    try {
      outcome = await run();
    } catch (error) {
      const problem = problemOfStartError(error);
      this.deps.logger.log('warn', 'actor could not be started', { group_id: groupId, actor_id: actorId, trigger, ...errorFields(error) });
      await this.record(groupId, actorId, trigger, false, problem);
      return { decided: { result: { actor_id: actorId, running: false, ...failureFields(problem) }, error } };
    }
    if (!outcome.started) return { decided: { result: { actor_id: actorId, running: true, ...this.fields(groupId, actorId, true) } } };
    const startEvent = announce ? await this.announce(groupId, actorId, trigger) : undefined;
    return {
      ...(outcome.session ? { session: outcome.session } : {}),
      ...(outcome.warning ? { warning: outcome.warning } : {}),
      ...(startEvent ? { startEvent } : {}),
      ...(outcome.provider ? { provider: outcome.provider } : {}),
    };
  }

  /** Wait the window: an exit in it is a failed start (code, signal, output tail). */
  async watch(groupId: string, actorId: string, trigger: string, launch: Exclude<Launch, { decided: CheckedStart }>): Promise<CheckedStart> {
    const { session, warning, startEvent, provider } = launch;
    const withEvent = (result: ActorStartResult): CheckedStart => (startEvent ? { result, startEvent } : { result });
    if (provider) {
      const ended = await waitProviderExit(provider.exit, this.deps.windowMs, this.deps.stopping);
      if (ended?.reason === 'stopped') return withEvent({ actor_id: actorId, running: false });
      if (ended) {
        const problem = await providerExitProblem(session, provider.name, ended, this.deps.windowMs);
        await this.record(groupId, actorId, trigger, false, problem);
        return withEvent({ actor_id: actorId, running: false, ...failureFields(problem) });
      }
      return withEvent({ actor_id: actorId, running: true });
    }
    if (!session) return withEvent({ actor_id: actorId, running: true });
    const exit = await waitEarlyExit(session, this.deps.windowMs, this.deps.stopping);
    if (exit && this.deps.stoppedByUs(session)) return withEvent({ actor_id: actorId, running: false });
    if (exit) {
      const problem = await earlyExitProblem(session, exit, this.deps.windowMs);
      await this.record(groupId, actorId, trigger, false, problem);
      return withEvent({ actor_id: actorId, running: false, ...failureFields(problem) });
    }
    if (warning) {
      await this.record(groupId, actorId, trigger, true, warning);
      return withEvent({ actor_id: actorId, running: true, start_warning: warning });
    }
    return withEvent({ actor_id: actorId, running: true });
  }

  /** The `actor.start` of a start no op event stands for (daemon start, wake, actor_add). */
  private async announce(groupId: string, actorId: string, reason: string): Promise<CCCSEventV1 | undefined> {
    try {
      const { event } = await this.deps.ledgers.append(groupId, {
        kind: 'actor.start',
        by: 'system',
        // Recorded after the start ran: the surface it really runs on (a codex actor: codex_app_server).
        data: {
          actor_id: actorId,
          runner: this.deps.runnerConfigured?.(groupId, actorId) ?? 'pty',
          runner_effective: this.deps.runnerEffective?.(groupId, actorId) ?? 'pty',
          reason,
        },
      });
      return event;
    } catch (error) {
      this.deps.logger.log('warn', 'could not record an actor start', { group_id: groupId, actor_id: actorId, ...errorFields(error) });
      return undefined;
    }
  }

  private async record(groupId: string, actorId: string, trigger: string, running: boolean, problem: ActorStartProblem): Promise<void> {
    this.problems.set(StartReports.key(groupId, actorId), running ? { warning: problem } : { failure: problem });
    if (this.deps.stopping.aborted) return;
    try {
      await this.deps.ledgers.append(groupId, {
        kind: ACTOR_START_PROBLEM_KIND,
        by: 'system',
        data: { actor_id: actorId, running, code: problem.code, message: problem.message, exit_code: problem.exit_code ?? null, signal: problem.signal ?? null, trigger },
      });
    } catch (error) {
      this.deps.logger.log('warn', 'could not record an actor start problem', { group_id: groupId, actor_id: actorId, ...errorFields(error) });
    }
  }
}
