import { describe, expect, it } from 'vitest';
import { projectActivity, type ActivityDraft } from './activity-record.js';
import {
  ACTIVITY_GROUP_LIMIT,
  ActivityOverflowError,
  activitySnapshot,
  commitActivity,
  enforceLimits,
  type ActivityEntry,
} from './activity-store.js';
import { applyHookEvent } from './fence.js';
import { pendingHookState, type HookState } from './hook-state.js';
import type { HookEvent, HookRuntime } from './payloads.js';

const T0 = Date.parse('2026-07-29T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
let n = 0;
const newId = () => `e${++n}`;

const draft = (identity: string, status: ActivityDraft['status'], extra: Partial<ActivityDraft> = {}): ActivityDraft => ({
  v: 1,
  group_id: 'g',
  actor_id: 'a',
  runtime: 'codex',
  activity_id: `codex:s:tool:${identity}`,
  kind: 'tool',
  status,
  event_type: 'PreToolUse',
  session_id: 's',
  turn_id: 't',
  operation_id: identity,
  tool_name: 'exec',
  ...extra,
});
const commit = (entries: ActivityEntry[], drafts: ActivityDraft[], s: number) => commitActivity(entries, { drafts, now: at(s), newId });

describe('activity records', () => {
  it('a newer revision with the same activity_id replaces the display revision and keeps the start time', () => {
    let e = commit([], [draft('o1', 'started')], 0);
    e = commit(e, [draft('o1', 'waiting', { event_type: 'PermissionRequest' })], 2);
    e = commit(e, [draft('o1', 'completed', { event_type: 'PostToolUse' })], 5);
    expect(e).toHaveLength(1);
    expect(e[0]!.record).toMatchObject({ status: 'completed', duration_ms: 5000, ts: at(5).toISOString() });
    expect(e[0]!.started_at).toBe(at(0).toISOString());
  });

  it('a late start never reopens a completed activity', () => {
    let e = commit([], [draft('o1', 'completed')], 5);
    e = commit(e, [draft('o1', 'started')], 6);
    expect(e[0]!.record.status).toBe('completed');
  });

  it('session end, interrupt or a terminal turn closes open child activity of that actor and session only', () => {
    let e = commit([], [draft('o1', 'started'), draft('o2', 'started', { actor_id: 'b' }), draft('o3', 'started', { session_id: 'other' })], 0);
    e = commitActivity(e, {
      drafts: [draft('t', 'completed', { kind: 'turn', activity_id: 'codex:s:turn:t', event_type: 'Stop' })],
      closeChildren: { actor_id: 'a', session_id: 's', closeStatus: 'completed', event_type: 'Stop' },
      now: at(3),
      newId,
    });
    const status = Object.fromEntries(e.map((x) => [x.record.operation_id + x.record.actor_id + x.record.session_id, x.record.status]));
    expect(status).toMatchObject({ o1as: 'completed', o2bs: 'started', o3aother: 'started' });
  });

  it('synthesizes stuck after 60 s for turns and tools, never stored, and a real completion wins', () => {
    let e = commit([], [draft('o1', 'started'), draft('sess', 'started', { kind: 'session', activity_id: 'codex:s:session:s' })], 0);
    expect(activitySnapshot(e, at(59)).map((r) => r.status)).toEqual(['started', 'started']);
    expect(activitySnapshot(e, at(61)).map((r) => r.status)).toEqual(['stuck', 'started']);
    // The daemon's CCCC_ACTIVITY_STUCK_MS moves the threshold.
    expect(activitySnapshot(e, at(4), 5_000).map((r) => r.status)).toEqual(['started', 'started']);
    expect(activitySnapshot(e, at(6), 5_000).map((r) => r.status)).toEqual(['stuck', 'started']);
    expect(e[0]!.record.status).toBe('started');
    e = commit(e, [draft('o1', 'completed')], 62);
    expect(activitySnapshot(e, at(63)).find((r) => r.kind === 'tool')!.status).toBe('completed');
  });

  it('a snapshot holds active records and completions of the last 15 s', () => {
    let e = commit([], [draft('done', 'completed'), draft('fail', 'failed')], 0);
    e = commit(e, [draft('live', 'started')], 1);
    expect(activitySnapshot(e, at(15)).map((r) => r.operation_id)).toEqual(['done', 'fail', 'live']);
    expect(activitySnapshot(e, at(16)).map((r) => r.operation_id)).toEqual(['live']);
  });

  it('removes records older than five minutes', () => {
    const e = commit([], [draft('old', 'started')], 0);
    expect(commit(e, [draft('new', 'started')], 301).map((x) => x.record.operation_id)).toEqual(['new']);
    expect(enforceLimits(e, at(300))).toHaveLength(1);
  });

  it('enforces 256 per group evicting terminal history, then waiting, never a started predecessor', () => {
    const mk = (prefix: string, status: ActivityDraft['status'], count: number) => Array.from({ length: count }, (_, i) => draft(`${prefix}${i}`, status));
    let e = commit([], [...mk('w', 'waiting', 2), ...mk('c', 'completed', 2)], 0);
    e = commit(e, mk('s', 'started', ACTIVITY_GROUP_LIMIT - 4), 1);
    expect(e).toHaveLength(ACTIVITY_GROUP_LIMIT);
    e = commit(e, mk('x', 'started', 3), 2);
    const ids = e.map((x) => x.record.operation_id);
    expect(ids).toHaveLength(ACTIVITY_GROUP_LIMIT);
    expect(ids).not.toContain('c0');
    expect(ids).not.toContain('c1');
    expect(ids).not.toContain('w0');
    expect(ids).toContain('w1');
    const onlyStarted = commit([], mk('s', 'started', ACTIVITY_GROUP_LIMIT), 0);
    expect(() => commit(onlyStarted, [draft('one-more', 'started')], 1)).toThrow(ActivityOverflowError);
  });
});

describe('projection from accepted hook transitions', () => {
  const ctx = { launchToken: 'tok', launchPid: 1, livePid: 1, now: 'T' };
  const ev = (runtime: HookRuntime, event: HookEvent['event'], extra: Partial<HookEvent> = {}): HookEvent => ({
    runtime, event, sessionId: 's', turnId: null, toolUseId: null, toolName: null, notificationType: null, agentId: null, ...extra,
  });
  const step = (state: HookState, e: HookEvent) => {
    const r = applyHookEvent(state, e, ctx);
    if (!r.accepted) throw new Error(r.reason);
    return { next: r.state, drafts: projectActivity(state, r.state, e) };
  };

  it('codex projects sessions, turns, tools and subagents with the golden activity_id shape', () => {
    let s = pendingHookState({ runtime: 'codex', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' });
    const out: ActivityDraft[] = [];
    for (const e of [
      ev('codex', 'SessionStart'),
      ev('codex', 'UserPromptSubmit', { turnId: 't' }),
      ev('codex', 'PreToolUse', { turnId: 't', toolUseId: 'op', toolName: 'mcp__github__search' }),
      ev('codex', 'PostToolUse', { turnId: 't', toolUseId: 'op', toolName: 'mcp__github__search' }),
      ev('codex', 'SubagentStart', { turnId: 't', agentId: 'sub' }),
      ev('codex', 'Stop', { turnId: 't' }),
    ]) {
      const r = step(s, e);
      s = r.next;
      out.push(...r.drafts);
    }
    expect(out.map((d) => `${d.activity_id} ${d.status}`)).toEqual([
      'codex:s:session:s started',
      'codex:s:turn:t started',
      'codex:s:tool:op started',
      'codex:s:tool:op completed',
      'codex:s:subagent:sub started',
      'codex:s:turn:t completed',
    ]);
    expect(out[2]).toMatchObject({ tool_name: 'mcp__github__search', turn_id: 't', operation_id: 'op', event_type: 'PreToolUse' });
  });

  it('a codex PermissionRequest without a tool_use_id marks the open operation waiting', () => {
    let s = pendingHookState({ runtime: 'codex', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' });
    const out: ActivityDraft[] = [];
    for (const e of [
      ev('codex', 'SessionStart'),
      ev('codex', 'UserPromptSubmit', { turnId: 't' }),
      ev('codex', 'PreToolUse', { turnId: 't', toolUseId: 'call_1', toolName: 'Bash' }),
      ev('codex', 'PermissionRequest', { turnId: 't', toolName: 'Bash' }),
    ]) {
      const r = step(s, e);
      s = r.next;
      out.push(...r.drafts);
    }
    expect(out.at(-1)).toMatchObject({ activity_id: 'codex:s:tool:call_1', status: 'waiting', operation_id: 'call_1', tool_name: 'Bash', event_type: 'PermissionRequest' });
  });

  it('claude turn hooks stay observational: only tool activity is projected', () => {
    let s = pendingHookState({ runtime: 'claude', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' });
    const out: ActivityDraft[] = [];
    for (const e of [
      ev('claude', 'SessionStart'),
      ev('claude', 'UserPromptSubmit', { turnId: 'p' }),
      ev('claude', 'PreToolUse', { toolUseId: 'tu', toolName: 'Bash' }),
      ev('claude', 'PermissionRequest', { toolUseId: 'tu', toolName: 'Bash' }),
      ev('claude', 'PostToolUseFailure', { toolUseId: 'tu', toolName: 'Bash' }),
      ev('claude', 'Stop'),
    ]) {
      const r = step(s, e);
      s = r.next;
      out.push(...r.drafts);
    }
    expect(out.map((d) => `${d.activity_id} ${d.status}`)).toEqual(['claude:s:tool:tu started', 'claude:s:tool:tu waiting', 'claude:s:tool:tu failed']);
  });
});
