import { afterDue, builtinSettings, evaluateRule, isoUtc, rebase, withError, type GroupRunState } from '@cccc/automation';
import { readRegistry, type HomeLayout } from '@cccc/groups';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import { errorFields, type Logger } from '../log.js';
import { runAction, type Dispatch } from './automation-actions.js';
import { runBuiltins } from './automation-builtins.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import type { AutomationService } from './automation-service.js';
import { readAutomationState, readAutomationStateText, storedAutomation, writeAutomationState } from './automation-store.js';

export interface AutomationSchedulerDeps {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly groupLocks: KeyedMutex;
  readonly logger: Logger;
  readonly automation: AutomationService;
  readonly dispatch: Dispatch;
  readonly now: () => number;
  readonly ledgers: LedgerPool;
  readonly isRunning: (groupId: string, actorId: string) => boolean;
}

/**
 * The one scheduler (§8.3), owned by the daemon that holds the home lock: every tick it reads
 * each group's rules and state/automation.json, decides with the pure engine, runs what is due
 * outside the group lock, and records the outcome. A daemon start rebases every clock
 * ('restart'); a group leaving paused/stopped, or going from idle to active, rebases its clocks
 * ('resume'): nothing catches up.
 */
export class AutomationScheduler implements Disposable {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private readonly lastState = new Map<string, GroupRunState>();

  constructor(
    private readonly deps: AutomationSchedulerDeps,
    private readonly tickMs: number,
  ) {}

  /** Rebase after a daemon start, then tick every `tickMs` (0: never; tests drive `tick`). */
  async start(): Promise<void> {
    for (const groupId of this.groupIds()) await this.rebaseGroup(groupId, 'restart').catch((e) => this.logError(groupId, e));
    if (this.tickMs > 0) {
      this.timer = setInterval(() => void this.tick(), this.tickMs);
      this.timer.unref();
    }
  }

  /** One pass over every group; a pass still running makes this one a no-op. */
  tick(): Promise<void> {
    this.ticking ??= (async () => {
      try {
        for (const groupId of this.groupIds()) await this.tickGroup(groupId).catch((e) => this.logError(groupId, e));
      } finally {
        this.ticking = undefined;
      }
    })();
    return this.ticking;
  }

  [Symbol.dispose](): void {
    clearInterval(this.timer);
  }

  private groupIds(): string[] {
    try {
      return Object.keys(readRegistry(this.deps.layout).groups);
    } catch {
      return [];
    }
  }

  private logError(groupId: string, error: unknown): void {
    this.deps.logger.log('warn', 'automation tick failed', { group_id: groupId, ...errorFields(error) });
  }

  private async rebaseGroup(groupId: string, mode: 'restart' | 'resume'): Promise<void> {
    const { layout, groups, groupLocks, now } = this.deps;
    await groupLocks.run(groupId, () => {
      const group = groups.get(groupId);
      this.lastState.set(groupId, group.state);
      const existed = readAutomationStateText(layout, groupId) !== undefined;
      const state = readAutomationState(layout, groupId);
      const t = now();
      let touched = false;
      for (const rule of storedAutomation(group).rules) {
        const before = state.rules[rule.id];
        const after = rebase(rule, before ?? {}, t, mode);
        if (before || Object.keys(after).length > 0) {
          state.rules[rule.id] = after;
          touched = true;
        }
      }
      // A group with no automation state and nothing to rebase keeps no file.
      const s = builtinSettings((group as Record<string, unknown>)['automation']);
      const builtinsOn = s.actor_idle_timeout_seconds > 0 || s.silence_timeout_seconds > 0 || s.keepalive_delay_seconds > 0 || (s.help_nudge_interval_seconds > 0 && s.help_nudge_min_messages > 0);
      if (!existed && !touched && !builtinsOn) return;
      // The built-ins start over too: silence counts from now, no keepalive or nudge backlog.
      state['consecutive_silence_count'] = 0;
      state['last_silence_notify_at'] = isoUtc(t);
      writeAutomationState(layout, groupId, { ...state, [`${mode}_at`]: isoUtc(t) }, isoUtc(t));
    });
  }

  async tickGroup(groupId: string): Promise<void> {
    const { groups } = this.deps;
    const current = groups.get(groupId).state;
    const previous = this.lastState.get(groupId);
    this.lastState.set(groupId, current);
    if (current === 'paused' || current === 'stopped') return;
    // Back to work from paused/stopped (nothing ran) or idle (the stand-up did not): rebase.
    if (previous === 'paused' || previous === 'stopped' || (previous === 'idle' && current === 'active')) await this.rebaseGroup(groupId, 'resume');
    await this.tickRules(groupId);
    // The built-ins (silence, keepalive, help nudge) run for active groups only.
    const group = groups.get(groupId);
    if (group.state === 'active') await runBuiltins(this.deps, group);
  }

  private async tickRules(groupId: string): Promise<void> {
    const { layout, groups, groupLocks, now, dispatch, automation } = this.deps;

    // Decide under the lock: clocks established, errors recorded, due slots collected.
    const due = await groupLocks.run(groupId, () => {
      const group = groups.get(groupId);
      const state = readAutomationState(layout, groupId);
      const t = now();
      let dirty = false;
      const out = [];
      for (const rule of storedAutomation(group).rules) {
        const st = state.rules[rule.id] ?? {};
        const e = evaluateRule(rule, st, t, group.state);
        if (e.kind === 'establish') state.rules[rule.id] = e.state;
        else if (e.kind === 'error') state.rules[rule.id] = withError(st, e.message, t);
        else if (e.kind === 'due') out.push({ rule, e });
        dirty ||= e.kind === 'establish' || (e.kind === 'error' && state.rules[rule.id] !== st);
      }
      if (dirty) writeAutomationState(layout, groupId, state, isoUtc(t));
      return out;
    });
    if (due.length === 0) return;

    // Act outside the lock (actions are ops that take it themselves), then record the outcomes.
    const outcomes: Array<{ rule: (typeof due)[number]['rule']; e: (typeof due)[number]['e']; outcome: { completed: boolean; error?: string } }> = [];
    for (const { rule, e } of due) {
      const outcome = await runAction(dispatch, groups.get(groupId), rule, e).catch((error: unknown) => ({ completed: false, error: String((error as Error).message ?? error) }));
      outcomes.push({ rule, e, outcome });
    }
    await groupLocks.run(groupId, async () => {
      const state = readAutomationState(layout, groupId);
      const t = now();
      for (const { rule, e, outcome } of outcomes) state.rules[rule.id] = afterDue(rule, state.rules[rule.id] ?? {}, e, t, outcome);
      writeAutomationState(layout, groupId, state, isoUtc(t));
      // A one-time rule that completed is turned off in group.yaml too (it survives a copied home).
      for (const { rule, outcome } of outcomes) {
        if (rule.trigger.kind !== 'at' || !outcome.completed) continue;
        await automation.disableRule(groupId, rule.id).catch((error: unknown) => {
          const st = readAutomationState(layout, groupId);
          st.rules[rule.id] = withError(st.rules[rule.id] ?? {}, `auto-disable failed: ${(error as Error).message}`, now());
          writeAutomationState(layout, groupId, st, isoUtc(now()));
        });
      }
    });
  }
}
