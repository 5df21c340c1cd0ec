import type { LedgerEvent } from '@cccc/ledger';
import { actorIdleDecision, builtinSettings, declaredNext, helpNudgeDecision, isoUtc, keepaliveDecision, parseRfc3339, silenceDecision, type KeepaliveState } from '@cccc/automation';
import { foremanOf, isVisibleActor, toMatchesActor, type GroupDoc, type HomeLayout } from '@cccc/groups';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import type { Dispatch } from './automation-actions.js';
import { readAutomationState, writeAutomationState, type AutomationStateFile } from './automation-store.js';

// The IO shell of the built-in automation (silence check and auto-idle, keepalive, help nudge):
// reads the recent ledger, decides with @cccc/automation, sends system.notify through the ops.
// Runs for active groups only; every setting at 0 (a new group's default) turns its part off.

export interface BuiltinDeps {
  readonly layout: HomeLayout;
  readonly ledgers: LedgerPool;
  readonly groupLocks: KeyedMutex;
  readonly dispatch: Dispatch;
  readonly now: () => number;
  /** Whether an actor has a live runtime (keepalive only nudges running actors). */
  readonly isRunning: (groupId: string, actorId: string) => boolean;
}

/** How far back one look at the ledger goes. */
const SCAN_LIMIT = 5000;

/** Notifications the automation sends; a reply to one by its target is not group activity. */
const QUIET_REPLY_KINDS = new Set(['silence_check', 'auto_idle']);

interface ActorBuiltinState extends KeepaliveState {
  help_last_nudge_at?: string;
  /** When the actor was first seen running (its idle clock starts there at the latest). */
  idle_clock_at?: string;
  last_idle_notify_at?: string;
}

type BuiltinState = AutomationStateFile & {
  last_silence_notify_at?: string;
  consecutive_silence_count?: number;
  actors?: Record<string, ActorBuiltinState>;
};

function* recent(events: Iterable<LedgerEvent>): Iterable<LedgerEvent> {
  let n = 0;
  for (const e of events) {
    if (n++ >= SCAN_LIMIT) return;
    yield e;
  }
}

const tsOf = (e: LedgerEvent) => parseRfc3339(e.ts) ?? Date.parse(e.ts);

export async function runBuiltins(deps: BuiltinDeps, group: GroupDoc): Promise<void> {
  const settings = builtinSettings((group as Record<string, unknown>)['automation']);
  if (
    settings.actor_idle_timeout_seconds <= 0 &&
    settings.silence_timeout_seconds <= 0 &&
    settings.keepalive_delay_seconds <= 0 &&
    (settings.help_nudge_interval_seconds <= 0 || settings.help_nudge_min_messages <= 0)
  ) {
    return;
  }
  const gid = group.group_id;
  const store = await deps.ledgers.get(gid);
  const notifies: Array<Record<string, unknown>> = [];
  let idle = false;

  await deps.groupLocks.run(gid, () => {
    const state = readAutomationState(deps.layout, gid) as BuiltinState;
    const now = deps.now();
    const baseline = parseRfc3339(typeof state['resume_at'] === 'string' ? state['resume_at'] : undefined) ?? parseRfc3339(typeof state['restart_at'] === 'string' ? state['restart_at'] : undefined);
    const actors = group.actors.filter((a) => isVisibleActor(a) && a.enabled !== false);
    const actorStates = (state.actors ??= {});
    let dirty = false;

    // Silence check: business chat only (not the system, not a target confirming a silence ping).
    const foreman = foremanOf(group.actors);
    if (settings.silence_timeout_seconds > 0 && foreman && foreman.enabled !== false) {
      let last: number | undefined;
      for (const e of recent(store.readBackward())) {
        if (e.kind !== 'chat.message' || !e.by || e.by === 'system') continue;
        const replyTo = typeof e.data['reply_to'] === 'string' ? store.findById(e.data['reply_to']) : undefined;
        if (replyTo?.kind === 'system.notify' && QUIET_REPLY_KINDS.has(String(replyTo.data['kind'])) && replyTo.data['target_actor_id'] === e.by) continue;
        last = tsOf(e);
        break;
      }
      const d = silenceDecision({
        timeoutSeconds: settings.silence_timeout_seconds,
        ...(last !== undefined ? { lastActivityMs: last } : {}),
        nowMs: now,
        ...(parseRfc3339(state.last_silence_notify_at) !== undefined ? { lastNotifyMs: parseRfc3339(state.last_silence_notify_at)! } : {}),
        count: state.consecutive_silence_count ?? 0,
      });
      if (d.kind === 'reset') {
        state.consecutive_silence_count = 0;
        dirty = true;
      } else if (d.kind === 'check' || d.kind === 'auto_idle') {
        state.consecutive_silence_count = d.count;
        state.last_silence_notify_at = isoUtc(now);
        dirty = true;
        idle = d.kind === 'auto_idle';
        notifies.push({
          kind: d.kind === 'auto_idle' ? 'auto_idle' : 'silence_check',
          title: d.kind === 'auto_idle' ? 'Group set to idle' : 'Group is quiet',
          message:
            d.kind === 'auto_idle'
              ? `Nothing happened for ${d.silentSeconds}s over two silence checks, so the group is now idle. A message wakes it.`
              : `Nothing happened for ${d.silentSeconds}s. Is the work done, or does someone need help?`,
          target_actor_id: foreman.id,
        });
      }
    }

    for (const actor of actors) {
      const st = (actorStates[actor.id] ??= {});
      // Actor idle: a running non-foreman actor with no ledger event for the timeout → the foreman hears.
      if (settings.actor_idle_timeout_seconds > 0 && foreman && actor.id !== foreman.id) {
        if (!deps.isRunning(gid, actor.id)) {
          if (st.idle_clock_at) {
            delete st.idle_clock_at;
            dirty = true;
          }
        } else {
          if (!st.idle_clock_at) {
            st.idle_clock_at = isoUtc(now);
            dirty = true;
          }
          let lastEvent: number | undefined;
          for (const e of recent(store.readBackward())) {
            if (e.by === actor.id) {
              lastEvent = tsOf(e);
              break;
            }
          }
          const since = Math.max(lastEvent ?? 0, parseRfc3339(st.idle_clock_at) ?? now, baseline ?? 0);
          const lastNotify = parseRfc3339(st.last_idle_notify_at);
          const d = actorIdleDecision({ timeoutSeconds: settings.actor_idle_timeout_seconds, sinceMs: since, ...(lastNotify !== undefined ? { lastNotifyMs: lastNotify } : {}), nowMs: now });
          if (d === 'due') {
            st.last_idle_notify_at = isoUtc(now);
            dirty = true;
            notifies.push({
              kind: 'actor_idle',
              title: `Actor ${actor.id} may need attention`,
              message: `${actor.id} has done nothing visible for ${Math.floor((now - since) / 1000)}s. It may be stuck or waiting for input.`,
              target_actor_id: foreman.id,
            });
          }
        }
      }
      // Keepalive: the actor's latest message declared "Next: …" and it has gone quiet.
      if (settings.keepalive_delay_seconds > 0 && deps.isRunning(gid, actor.id)) {
        let next: { text: string; ms: number } | undefined;
        for (const e of recent(store.readBackward())) {
          if (e.kind !== 'chat.message' || e.by !== actor.id) continue;
          const text = declaredNext(String(e.data['text'] ?? ''));
          if (text) next = { text, ms: tsOf(e) };
          break;
        }
        const d = keepaliveDecision({ delaySeconds: settings.keepalive_delay_seconds, max: settings.keepalive_max_per_actor, ...(next ? { next } : {}), ...(baseline !== undefined ? { baselineMs: baseline } : {}), nowMs: now, state: st, parse: parseRfc3339 });
        if (d.state !== st) dirty = true;
        Object.assign(st, d.state);
        if (d.due) {
          st.last_keepalive_at = isoUtc(now);
          dirty = true;
          notifies.push({ kind: 'keepalive', title: 'Ready to continue?', message: `You said: "${d.state.last_keepalive_next}". Carry on when ready.`, target_actor_id: actor.id });
        }
      }
      // Help nudge: enough messages to this actor since its last nudge, and enough time.
      const last = parseRfc3339(st.help_last_nudge_at);
      let since = 0;
      if (last !== undefined && settings.help_nudge_min_messages > 0) {
        for (const e of recent(store.readBackward())) {
          if (tsOf(e) < last) break;
          if (e.kind === 'chat.message' && e.by !== actor.id && toMatchesActor((e.data['to'] as string[] | undefined) ?? [], actor, group.actors)) since++;
        }
      }
      const h = helpNudgeDecision({ intervalSeconds: settings.help_nudge_interval_seconds, minMessages: settings.help_nudge_min_messages, ...(last !== undefined ? { lastNudgeMs: last } : {}), messagesSince: since, nowMs: now });
      if (h === 'establish' || h === 'due') {
        st.help_last_nudge_at = isoUtc(now);
        dirty = true;
      }
      if (h === 'due') {
        notifies.push({ kind: 'help_nudge', title: 'Refresh your bearings', message: `${since} messages reached you since the last reminder. Call cccc_help to refresh how this group works before you continue.`, target_actor_id: actor.id });
      }
    }
    if (dirty) writeAutomationState(deps.layout, gid, state, isoUtc(now));
  });

  if (idle) await deps.dispatch('group_set_state', { group_id: gid, by: 'user', state: 'idle' });
  for (const n of notifies) await deps.dispatch('system_notify', { group_id: gid, by: 'system', priority: 'normal', ...n });
}
