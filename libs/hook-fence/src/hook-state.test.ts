import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activityRecordSchema, encodeActivityRecord } from './activity-record.js';
import { decodeHookState, encodeHookState, FENCE_HISTORY_CAP, pendingHookState } from './hook-state.js';

const goldenText = readFileSync(new URL('../test-fixtures/v3_state_and_activity.json', import.meta.url), 'utf8');
const golden = JSON.parse(goldenText) as { state: unknown; activity: unknown };

describe('v3 hook-state codec', () => {
  it('decode → encode reproduces the golden fixture exactly, key order and nulls included', () => {
    const decoded = decodeHookState(golden.state);
    if (!('value' in decoded)) throw new Error(decoded.error);
    const activity = activityRecordSchema.parse(golden.activity);
    const out = { state: encodeHookState(decoded.value), activity: encodeActivityRecord(activity) };
    expect(JSON.stringify(out, null, 2)).toBe(JSON.stringify(golden, null, 2));
    expect(Object.keys(out.state)).toEqual(Object.keys(golden.state as object));
    expect(out.state.diagnostic).toBeNull();
  });

  it('rejects unknown keys, missing nulls and a wrong version, naming the field', () => {
    const state = golden.state as Record<string, unknown>;
    expect(decodeHookState({ ...state, extra: 1 })).toHaveProperty('error');
    const { diagnostic: _d, ...noDiag } = state;
    expect(decodeHookState(noDiag)).toMatchObject({ error: expect.stringContaining('diagnostic') });
    expect(decodeHookState({ ...state, v: 2 })).toMatchObject({ error: expect.stringContaining('v') });
    expect(decodeHookState(null)).toHaveProperty('error');
  });

  it('fails closed on an id history over the 4096 cap instead of trimming it', () => {
    const state = golden.state as Record<string, unknown>;
    const ids = Array.from({ length: FENCE_HISTORY_CAP + 1 }, (_, i) => `t${i}`);
    expect(decodeHookState({ ...state, seen_turn_ids: ids })).toMatchObject({ error: expect.stringContaining('seen_turn_ids') });
    expect(decodeHookState({ ...state, seen_operation_ids: ids })).toHaveProperty('error');
    expect(decodeHookState({ ...state, seen_turn_ids: ids.slice(1) })).toHaveProperty('value');
  });

  it('a pending state waits for the session start of its launch and round-trips', () => {
    const pending = pendingHookState({ runtime: 'claude', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' });
    expect(pending).toMatchObject({ status: 'waiting', awaiting_session_start: true, session_id: null });
    expect(decodeHookState(JSON.parse(JSON.stringify(encodeHookState(pending))))).toEqual({ value: pending });
  });
});
