import { describe, expect, it } from 'vitest';
import { ACTIVITY_GROUP_LIMIT, activitySnapshot, type ActivityEntry } from './activity-store.js';
import { commitHookEvent, commitInterrupt, decodeActivityStore, encodeActivityStore } from './hook-commit.js';
import { pendingHookState, type HookState } from './hook-state.js';
import type { HookEvent } from './payloads.js';

const ctx = { launchToken: 'tok', launchPid: 5, livePid: 5, now: '2026-07-29T00:00:00Z' };
const now = new Date('2026-07-29T00:00:00Z');
let n = 0;
const newId = () => `id${++n}`;
const ev = (event: HookEvent['event'], extra: Partial<HookEvent> = {}): HookEvent => ({
  runtime: 'codex', event, sessionId: 's', turnId: 't', toolUseId: null, toolName: null, notificationType: null, agentId: null, ...extra,
});

function drive(events: HookEvent[]) {
  let state: HookState = pendingHookState({ runtime: 'codex', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' });
  let entries: readonly ActivityEntry[] = [];
  for (const e of events) {
    const r = commitHookEvent({ state, entries, event: e, ctx, now, newId });
    if (!r.accepted) throw new Error(r.reason);
    state = r.state;
    entries = r.entries;
  }
  return { state, entries };
}

describe('commitHookEvent', () => {
  it('fence, projection and retention as one transition; Stop closes open child tools', () => {
    const { state, entries } = drive([ev('SessionStart'), ev('UserPromptSubmit'), ev('PreToolUse', { toolUseId: 'o1', toolName: 'exec' })]);
    expect(state.operation_id).toBe('o1');
    expect(activitySnapshot(entries, now).map((r) => `${r.kind}:${r.status}`)).toEqual(['session:started', 'turn:started', 'tool:started']);
    const stopped = commitHookEvent({ state, entries, event: ev('Stop'), ctx, now, newId });
    expect(stopped.accepted).toBe(true);
    expect(activitySnapshot(stopped.entries, now).map((r) => `${r.kind}:${r.status}`)).toEqual(['session:started', 'turn:completed', 'tool:completed']);
  });

  it('a fenced-out event changes neither state nor activity', () => {
    const { state, entries } = drive([ev('SessionStart')]);
    const r = commitHookEvent({ state, entries, event: ev('Stop'), ctx: { ...ctx, launchToken: 'forged' }, now, newId });
    expect(r).toMatchObject({ accepted: false, reason: 'launch_token_mismatch', state, entries });
  });

  it('an activity overflow of only started records rejects the event and keeps the old state', () => {
    const { state } = drive([ev('SessionStart'), ev('UserPromptSubmit')]);
    const full: ActivityEntry[] = Array.from({ length: ACTIVITY_GROUP_LIMIT }, (_, i) => ({
      started_at: now.toISOString(),
      record: {
        v: 1, id: `x${i}`, ts: now.toISOString(), group_id: 'g', actor_id: 'b', runtime: 'codex', activity_id: `codex:z:tool:${i}`,
        kind: 'tool', status: 'started', event_type: 'PreToolUse', session_id: 'z', turn_id: null, operation_id: `${i}`, tool_name: null, duration_ms: null,
      },
    }));
    const r = commitHookEvent({ state, entries: full, event: ev('PreToolUse', { toolUseId: 'o9' }), ctx, now, newId });
    expect(r).toMatchObject({ accepted: false, reason: 'runtime_activity_overflow', state });
  });

  it('the store decodes all or nothing', () => {
    const { entries } = drive([ev('SessionStart')]);
    expect(decodeActivityStore(encodeActivityStore(entries))).toEqual({ entries });
    expect(decodeActivityStore(null)).toEqual({ entries: [] });
    expect(decodeActivityStore('{torn')).toMatchObject({ error: 'runtime_activity_unavailable' });
    const bad = JSON.parse(encodeActivityStore(entries));
    bad[0].record.tool_name = 'has spaces';
    expect(decodeActivityStore(JSON.stringify(bad))).toMatchObject({ error: 'runtime_activity_unavailable', detail: '0.record.tool_name' });
  });
});

describe('commitInterrupt', () => {
  it('ends the turn as idle + interrupted and closes the open child activity of the session', () => {
    const { state, entries } = drive([ev('SessionStart'), ev('UserPromptSubmit'), ev('PreToolUse', { toolUseId: 'o1', toolName: 'exec' }), ev('PermissionRequest', { toolUseId: 'o1' })]);
    expect(state.status).toBe('waiting');
    const r = commitInterrupt({ state, entries, now, updatedAt: 'T9', newId });
    expect(r.changed).toBe(true);
    expect(r.state).toMatchObject({ status: 'idle', interrupted: true, event: 'Interrupt', operation_id: null, updated_at: 'T9' });
    expect(activitySnapshot(r.entries, now).map((x) => `${x.kind}:${x.status}:${x.event_type}`)).toEqual([
      'session:started:SessionStart',
      'turn:completed:Interrupt',
      'tool:completed:Interrupt',
    ]);
  });

  it('changes nothing before the session started or after it ended', () => {
    const pending = pendingHookState({ runtime: 'codex', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' });
    expect(commitInterrupt({ state: pending, entries: [], now, updatedAt: 'T9', newId })).toEqual({ changed: false, state: pending, entries: [] });
    const { state, entries } = drive([ev('SessionStart'), ev('SessionEnd')]);
    expect(commitInterrupt({ state, entries, now, updatedAt: 'T9', newId })).toEqual({ changed: false, state, entries });
  });
});
