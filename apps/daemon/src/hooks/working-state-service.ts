import { utcNowIso, type HomeLayout } from '@cccc/groups';
import { deriveWorkingState, type LaunchIdentity, type ManagedStateSource, type WorkingState } from '@cccc/hook-fence';
import { Emitter, type ManagedState, type TerminalSession } from '@cccc/pty-runtime';
import { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import { errorFields, type Logger } from '../log.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';
import { activityChanged, activityEntry, track, type TrackedState } from './actor-activity.js';
import type { HookChannel } from './hook-channel.js';
import { sessionIdentity } from './session-identity.js';
import { managedWorkingState } from './managed-working-state.js';
import { terminalWorkingHint } from './terminal-heuristic.js';

/** How much PTY output the screen heuristics look at. */
const SCREEN_TAIL_BYTES = 4096;
/** REFERENCE_NOTES §4: visible output within this window counts as working in the idle fallback. */
const RECENT_OUTPUT_S = 5;

/** An unreadable identity or state file is no evidence: the derivation falls back, never throws. */
function failClosed<T>(read: Promise<T | null>): Promise<T | null> {
  return read.catch(() => null);
}

export interface WorkingStateChange {
  readonly groupId: string;
  readonly actorId: string;
  readonly previous: TrackedState | undefined;
  readonly current: TrackedState;
}

export interface WorkingStateDeps {
  readonly hookChannel: Pick<HookChannel, 'launchRecord' | 'hookState'>;
  readonly groups: GroupDocCache;
  readonly ledgers: Pick<LedgerPool, 'append'>;
  readonly runtimes: RuntimeRegistry;
  readonly logger: Logger;
  /** A managed actor's session state (its provider's events are the authority), if it runs managed. */
  readonly managed?: (groupId: string, actorId: string) => ManagedState | undefined;
  /** The surface a managed actor runs on (`codex_app_server`, `opencode_acp`), for actor.activity. */
  readonly managedRunner?: (groupId: string, actorId: string) => string | undefined;
  /** Which provider events a managed actor's state comes from (Codex app-server or an ACP session). */
  readonly managedStateSource?: (groupId: string, actorId: string) => ManagedStateSource | undefined;
}

/** A derived state plus the time its effective state last changed (what actor_list shows). */
export interface WorkingView extends WorkingState {
  readonly running: boolean;
  readonly idle_seconds: number | null;
  readonly effective_working_updated_at: string;
}

/**
 * Derives every watched actor's working state once per tick (and right after an accepted hook
 * event), keeps the last result, and appends `actor.activity` only when some actor's effective
 * state changed. Hook state is trusted only when the live session, the launch record and the
 * hook state agree (`deriveWorkingState`); the rest is a labelled fallback.
 */
export class WorkingStateService implements Disposable {
  private readonly tracked = new Map<string, Map<string, TrackedState>>();
  /** Last seen output cursor per session and when it moved (idle time, sampled per derivation). */
  private readonly output = new WeakMap<TerminalSession, { cursor: number; at: number }>();
  private readonly groupLocks = new KeyedMutex();
  private readonly changedEmitter = new Emitter<WorkingStateChange>();
  /** One actor's tracked state changed (the send gate re-checks held work on this). */
  readonly onChanged = this.changedEmitter.event;
  private readonly timer: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly deps: WorkingStateDeps,
    tickMs: number,
  ) {
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
  }

  /** Derive one actor's state now, without recording it. */
  async derive(groupId: string, actorId: string): Promise<{ running: boolean; idleSeconds: number | null; state: WorkingState }> {
    const managed = this.deps.managed?.(groupId, actorId);
    if (managed) {
      const idle = managed.working ? 0 : Math.max(0, Math.floor((Date.now() - Date.parse(managed.updated_at)) / 1000));
      return { running: managed.state !== 'stopped', idleSeconds: idle, state: managedWorkingState(managed, this.deps.managedStateSource?.(groupId, actorId) ?? 'app_server') };
    }
    const session = this.deps.runtimes.get(groupId, actorId)?.session;
    const live = session && !session.exited ? session : undefined;
    if (!live) {
      const state = deriveWorkingState({ running: false, cliAlive: false, session: null, launch: null, hook: null, terminal: null, idleSeconds: 0, hadRecentOutput: false });
      return { running: false, idleSeconds: null, state };
    }
    const identity = sessionIdentity(live);
    const record = await failClosed(this.deps.hookChannel.launchRecord(groupId, actorId));
    const launch: LaunchIdentity | null =
      record && record.hook_enabled && record.pid !== null ? { runtime: record.runtime, pid: record.pid, launch_token: record.launch_token } : null;
    const runtime = identity?.runtime ?? launch?.runtime;
    const hook = runtime === 'claude' || runtime === 'codex' ? await failClosed(this.deps.hookChannel.hookState(runtime, groupId, actorId)) : null;
    const now = Date.now();
    const seen = this.sampleOutput(live, now);
    const idleSeconds = Math.max(0, (now - seen.at) / 1000);
    const actor = this.deps.groups.get(groupId).actors.find((a) => a.id === actorId);
    // Screen heuristics exist only for the CLIs they were written for.
    const screenRuntime = actor?.runtime === 'claude' || actor?.runtime === 'codex' ? actor.runtime : undefined;
    const state = deriveWorkingState({
      running: true,
      cliAlive: true,
      session: identity,
      launch,
      hook,
      terminal: screenRuntime ? terminalWorkingHint(screenRuntime, this.screenTail(live)) : null,
      idleSeconds,
      hadRecentOutput: live.firstOutputAt !== undefined && idleSeconds < RECENT_OUTPUT_S,
    });
    return { running: true, idleSeconds: Math.floor(idleSeconds), state };
  }

  /** actor_list's view: derived now, with the last recorded change time when the state is the same. */
  async view(groupId: string, actorId: string): Promise<WorkingView> {
    const { running, idleSeconds, state } = await this.derive(groupId, actorId);
    const t = track(this.tracked.get(groupId)?.get(actorId), running, idleSeconds, state, utcNowIso());
    return { ...state, running, idle_seconds: idleSeconds, effective_working_updated_at: t.updatedAt };
  }

  /**
   * Derive and record the actors of a group (only `actorId` when given: the others keep their
   * last derivation); append `actor.activity` when an effective state changed.
   */
  refreshGroup(groupId: string, actorId?: string): Promise<void> {
    return this.groupLocks.run(groupId, () => this.refreshLocked(groupId, actorId));
  }

  private async refreshLocked(groupId: string, only?: string): Promise<void> {
    let actorIds: string[];
    try {
      actorIds = this.deps.groups.get(groupId).actors.map((a) => a.id);
    } catch {
      actorIds = []; // the group is gone: everyone it had is reported stopped below
    }
    const prev = this.tracked.get(groupId) ?? new Map<string, TrackedState>();
    const next = new Map<string, TrackedState>();
    const now = utcNowIso();
    for (const actorId of actorIds) {
      const before = prev.get(actorId);
      if (only !== undefined && actorId !== only && before) {
        next.set(actorId, before);
        continue;
      }
      const { running, idleSeconds, state } = await this.derive(groupId, actorId);
      next.set(actorId, track(before, running, idleSeconds, state, now));
    }
    const changed = activityChanged(prev, next);
    if (next.size > 0) this.tracked.set(groupId, next);
    else this.tracked.delete(groupId);
    if (changed && actorIds.length > 0) {
      const gone = [...prev].filter(([id]) => !next.has(id));
      const stopped = deriveWorkingState({ running: false, cliAlive: false, session: null, launch: null, hook: null, terminal: null, idleSeconds: 0, hadRecentOutput: false });
      const actors = [
        ...[...next].map(([id, t]) => activityEntry(id, t, this.deps.managedRunner?.(groupId, id))),
        ...gone.map(([id, t]) => activityEntry(id, track(t, false, null, stopped, now))),
      ];
      try {
        await this.deps.ledgers.append(groupId, { kind: 'actor.activity', by: 'system', data: { actors } });
      } catch (error) {
        this.deps.logger.log('warn', 'could not record actor activity', { group_id: groupId, ...errorFields(error) });
      }
    }
    for (const [actorId, current] of next) {
      const previous = prev.get(actorId);
      if (!previous || previous.state.effective_working_state !== current.state.effective_working_state || previous.state.input_state !== current.state.input_state) {
        this.changedEmitter.fire({ groupId, actorId, previous, current });
      }
    }
  }

  /** Groups with a live PTY, plus groups whose last recorded state still has someone not stopped. */
  private watchedGroups(): string[] {
    const groups = new Set(this.deps.runtimes.entries().map((e) => e.groupId));
    for (const [gid, actors] of this.tracked) {
      if ([...actors.values()].some((t) => t.state.effective_working_state !== 'stopped')) groups.add(gid);
    }
    return [...groups];
  }

  private async tick(): Promise<void> {
    if (this.ticking) return; // a slow disk must not pile up derivations
    this.ticking = true;
    try {
      for (const gid of this.watchedGroups()) {
        try {
          await this.refreshGroup(gid);
        } catch (error) {
          this.deps.logger.log('warn', 'working state derivation failed', { group_id: gid, ...errorFields(error) });
        }
      }
    } finally {
      this.ticking = false;
    }
  }

  private sampleOutput(session: TerminalSession, now: number): { cursor: number; at: number } {
    const cursor = session.ring.endCursor;
    const seen = this.output.get(session);
    if (seen && seen.cursor === cursor) return seen;
    // The first sample of a session that already printed counts its output as just seen.
    const next = { cursor, at: seen || cursor > 0 ? now : (session.firstOutputAt ?? session.startedAt) };
    this.output.set(session, next);
    return next;
  }

  private screenTail(session: TerminalSession): string {
    const end = session.ring.endCursor;
    return session.ring.slice(Math.max(0, end - SCREEN_TAIL_BYTES), end).toString('utf8');
  }

  [Symbol.dispose](): void {
    clearInterval(this.timer);
    this.changedEmitter[Symbol.dispose]();
  }
}
