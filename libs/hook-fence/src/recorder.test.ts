import { describe, expect, it } from 'vitest';
import { dayFileName, decodeLatest, emptyLatest, expiredDayFiles, pruneLatest, recordHookEvent, type RecorderLatest, type RecorderLine } from './recorder.js';

const T0 = Date.parse('2026-07-29T23:59:58Z');
const at = (s: number) => new Date(T0 + s * 1000);

function run(events: object[], start: RecorderLatest = emptyLatest()) {
  let latest = start;
  const lines: RecorderLine[] = [];
  events.forEach((e, i) => {
    const r = recordHookEvent(latest, e, at(i), 'box');
    if ('error' in r) throw new Error(r.error);
    latest = r.latest;
    if (r.line) lines.push(r.line);
  });
  return { latest, lines };
}
const e = (hook_event_name: string, extra: object = {}) => ({ hook_event_name, session_id: 's1', cwd: '/home/u/proj', ...extra });

describe('session activity recorder core', () => {
  it('maps events to working / waiting / idle / ended, one line per change, seq per session', () => {
    const { latest, lines } = run([
      e('SessionStart'),
      e('UserPromptSubmit', { prompt: 'secret' }),
      e('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'secret' } }),
      e('PostToolUse'),
      e('Notification', { notification_type: 'permission_prompt', message: 'secret' }),
      e('PostToolUse'),
      e('Stop'),
      e('Notification', { notification_type: 'idle_prompt' }),
      { ...e('UserPromptSubmit'), session_id: 's2' },
      e('SessionEnd'),
    ]);
    expect(lines.map((l) => `${l.session_id}:${l.seq}:${l.state}`)).toEqual([
      's1:1:idle',
      's1:2:working',
      's1:3:waiting',
      's1:4:working',
      's1:5:idle',
      's2:1:working',
      's1:6:ended',
    ]);
    expect(JSON.stringify({ latest, lines })).not.toContain('secret');
    expect(Object.keys(lines[0]!)).toEqual(['v', 'ts', 'sandbox', 'agent', 'session_id', 'session_name', 'seq', 'event', 'state', 'subagents_active', 'detail']);
    expect(lines[0]).toMatchObject({ v: 1, sandbox: 'box', agent: 'claude', session_name: 'proj' });
    expect(lines[2]!.detail).toBe('permission_prompt');
    expect(latest.sessions.s1).toMatchObject({ state: 'ended', seq: 6, last_event_ts: at(9).toISOString(), subagents_active: 0 });
  });

  it('counts subagents by id: a stop for an unknown id changes nothing; a background one outlives Stop', () => {
    const { latest, lines } = run([
      e('UserPromptSubmit'),
      e('SubagentStart', { agent_id: 'a1', agent_type: 'Explore' }),
      e('SubagentStart', { agent_id: 'a1' }),
      e('SubagentStop', { agent_id: 'internal' }),
      e('SubagentStart', { agent_id: 'a2' }),
      e('Stop'),
      e('SubagentStop', { agent_id: 'a1' }),
    ]);
    expect(lines.map((l) => `${l.seq}:${l.state}:${l.subagents_active}`)).toEqual(['1:working:0', '2:working:1', '3:working:2', '4:idle:2', '5:idle:1']);
    expect(latest.sessions.s1!.subagent_ids).toEqual(['a2']);
    expect(lines[1]!.detail).toBe('Explore');
  });

  it('keeps state_since while the state holds and updates last_event_ts on every event', () => {
    const { latest } = run([e('UserPromptSubmit'), e('PreToolUse'), e('PostToolUse')]);
    expect(latest.sessions.s1).toMatchObject({ state_since: at(0).toISOString(), last_event_ts: at(2).toISOString(), seq: 1 });
  });

  it('rejects bad input and recovers from an unreadable latest file', () => {
    expect(recordHookEvent(emptyLatest(), 'nope', at(0), 'b')).toHaveProperty('error');
    expect(recordHookEvent(emptyLatest(), { hook_event_name: 'Stop' }, at(0), 'b')).toMatchObject({ error: 'session_id' });
    expect(decodeLatest('{torn')).toEqual(emptyLatest());
    expect(decodeLatest('{"v":2,"sessions":{}}')).toEqual(emptyLatest());
    expect(decodeLatest(null)).toEqual(emptyLatest());
  });

  it('prunes sessions and day files past 14 days, with UTC day names', () => {
    const { latest } = run([e('Stop')]);
    expect(Object.keys(pruneLatest(latest, new Date(T0 + 13 * 86_400_000)).sessions)).toEqual(['s1']);
    expect(Object.keys(pruneLatest(latest, new Date(T0 + 15 * 86_400_000)).sessions)).toEqual([]);
    expect(dayFileName(at(0))).toBe('activity-2026-07-29.jsonl');
    expect(dayFileName(at(3))).toBe('activity-2026-07-30.jsonl');
    const names = ['activity-2026-07-01.jsonl', 'activity-2026-07-15.jsonl', 'activity-2026-07-16.jsonl', 'activity-latest.json', 'other'];
    expect(expiredDayFiles(names, new Date('2026-07-30T12:00:00Z'))).toEqual(['activity-2026-07-01.jsonl', 'activity-2026-07-15.jsonl']);
  });
});
