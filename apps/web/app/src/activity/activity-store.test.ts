import { describe, expect, it } from 'vitest';
import type { RuntimeActivityRecord } from '@cccc/ipc-protocol';
import { ja } from '../i18n/catalogs/ja';
import { zhCN } from '../i18n/catalogs/zh-CN';
import { translatorFor } from '../i18n/plain';
// The browser's runtime-activity rules (spec pty-runtime-activity.md "Retention and Recovery"),
// pure: run by the web vitest project without a DOM.
import {
  ACTIVE_RETENTION_MS,
  DONE_RETENTION_MS,
  STUCK_AFTER_MS,
  anchor,
  applyActivity,
  emptyActivity,
  projectBubbles,
  pruneActivity,
  type ActivityState,
} from './activity-store';

const T0 = Date.parse('2026-07-28T03:00:00Z');
let seq = 0;
function rec(over: Partial<RuntimeActivityRecord> & { at?: number } = {}): RuntimeActivityRecord {
  const { at = T0, ...rest } = over;
  return {
    v: 1,
    id: `rev-${++seq}`,
    ts: new Date(at).toISOString(),
    group_id: 'g_x',
    actor_id: 'worker',
    runtime: 'claude',
    activity_id: 'claude:s1:tool:toolu_1',
    kind: 'tool',
    status: 'started',
    event_type: 'PreToolUse',
    session_id: 's1',
    turn_id: null,
    operation_id: 'toolu_1',
    tool_name: 'Bash',
    duration_ms: null,
    ...rest,
  };
}
const apply = (records: RuntimeActivityRecord[], receivedAt = T0): ActivityState => records.reduce((s, r) => applyActivity(s, r, receivedAt), emptyActivity);
const texts = (s: ActivityState, now: number, actor = 'worker') => projectBubbles(s, actor, now).map((b) => b.text);

describe('activity store (browser retention rules)', () => {
  it('a newer revision of the same activity replaces the old one; duplicates and older revisions are ignored', () => {
    const started = rec({ at: T0 });
    const done = rec({ at: T0 + 2000, status: 'completed', event_type: 'PostToolUse', duration_ms: 2000 });
    let s = apply([started, done], T0 + 2000);
    expect(texts(s, T0 + 2000)).toEqual(['Bash done']);
    s = applyActivity(s, started, T0 + 2100); // a replay of the older revision
    expect(texts(s, T0 + 2100)).toEqual(['Bash done']);
    expect(applyActivity(s, done, T0 + 2200)).toBe(s); // exact duplicate: same state object
  });

  it('a real completion supersedes a stuck revision whatever its timestamp; an active revision never reopens a finished tool', () => {
    const stuck = rec({ at: T0 + 70_000, status: 'stuck' });
    const completedEarlier = rec({ at: T0 + 65_000, status: 'completed', event_type: 'PostToolUse' });
    const s = apply([rec({ at: T0 }), stuck, completedEarlier], T0 + 70_000);
    expect(projectBubbles(s, 'worker', T0 + 70_000).map((b) => b.status)).toEqual(['completed']);
    const reopened = applyActivity(s, rec({ at: T0 + 90_000, status: 'started' }), T0 + 70_000);
    expect(projectBubbles(reopened, 'worker', T0 + 70_000).map((b) => b.status)).toEqual(['completed']);
  });

  it('completed records stay eight seconds, active ones at most five minutes', () => {
    const done = apply([rec({ at: T0, status: 'completed' })], T0);
    expect(texts(done, T0 + DONE_RETENTION_MS)).toEqual(['Bash done']);
    expect(texts(done, T0 + DONE_RETENTION_MS + 1)).toEqual([]);
    expect(pruneActivity(done, T0 + DONE_RETENTION_MS + 1).size).toBe(0);
    expect(pruneActivity(done, T0 + 1000)).toBe(done);

    const active = apply([rec({ at: T0 })], T0);
    expect(projectBubbles(active, 'worker', T0 + ACTIVE_RETENTION_MS)).toHaveLength(1);
    expect(pruneActivity(active, T0 + ACTIVE_RETENTION_MS + 1).size).toBe(0);
  });

  it('a completion hydrated from a snapshot keeps its own age (not eight seconds from the reload)', () => {
    const s = apply([rec({ at: T0, status: 'completed' })], T0 + 6000);
    expect(texts(s, T0 + 7000)).toEqual(['Bash done']);
    expect(texts(s, T0 + 9000)).toEqual([]);
    // a server clock ahead of ours never extends the display
    expect(anchor(rec({ at: T0 + 60_000 }), T0)).toBe(T0);
  });

  it('an active tool that has not advanced for 60 s is shown stuck; a stuck tool suppresses the stuck turn', () => {
    const turn = rec({ activity_id: 'claude:s1:turn:t1', kind: 'turn', tool_name: null, operation_id: null, event_type: 'UserPromptSubmit' });
    const s = apply([turn, rec({ at: T0 + 1000 })], T0 + 1000);
    expect(texts(s, T0 + 30_000)).toEqual(['Running Bash']); // a running turn makes no bubble
    expect(texts(s, T0 + 1000 + STUCK_AFTER_MS + 1)).toEqual(['Bash stuck']);
    const turnOnly = apply([turn], T0);
    expect(texts(turnOnly, T0 + STUCK_AFTER_MS + 1)).toEqual(['Turn stuck']);
  });

  it('session start and turn start make no bubble; a session end closes its open tools', () => {
    const session = rec({ activity_id: 'claude:s1:session:s1', kind: 'session', tool_name: null, event_type: 'SessionStart' });
    let s = apply([session, rec({ activity_id: 'claude:s1:turn:t1', kind: 'turn', tool_name: null })], T0);
    expect(texts(s, T0)).toEqual([]);
    s = applyActivity(s, rec({ at: T0 + 1000 }), T0 + 1000);
    s = applyActivity(s, { ...session, id: 'end', ts: new Date(T0 + 2000).toISOString(), status: 'completed', event_type: 'SessionEnd' }, T0 + 2000);
    expect(projectBubbles(s, 'worker', T0 + 2000).map((b) => b.status)).toEqual(['completed']);
  });

  it('bubbles are per actor and tool names reach the page only as the sanitized label', () => {
    const s = apply([rec({ actor_id: 'other', tool_name: 'mcp__x__y<script>' }), rec({ activity_id: 'a2' })]);
    expect(texts(s, T0, 'other')).toEqual(['Running mcp__x__yscript']);
    expect(texts(s, T0, 'worker')).toEqual(['Running Bash']);
  });
});

describe('activity bubbles in Chinese and Japanese', () => {
  it('translate the words around the tool name, and the turn and fallback labels', () => {
    const turn = rec({ activity_id: 'claude:s1:turn:t1', kind: 'turn', tool_name: null, operation_id: null, event_type: 'UserPromptSubmit' });
    const s = apply([turn, rec({ at: T0 + 1000 })], T0 + 1000);
    const zh = translatorFor(zhCN);
    expect(projectBubbles(s, 'worker', T0 + 30_000, null, zh).map((b) => b.text)).toEqual(['正在运行 Bash']);
    expect(projectBubbles(s, 'worker', T0 + 1000 + STUCK_AFTER_MS + 1, null, zh).map((b) => b.text)).toEqual(['Bash 卡住了']);
    expect(projectBubbles(apply([turn], T0), 'worker', T0 + STUCK_AFTER_MS + 1, null, translatorFor(ja)).map((b) => b.text)).toEqual(['ターンが停滞']);
    const unnamed = apply([rec({ tool_name: null })], T0);
    expect(projectBubbles(unnamed, 'worker', T0, null, translatorFor(ja)).map((b) => b.text)).toEqual(['ツール を実行中']);
    expect(projectBubbles(unnamed, 'worker', T0)[0]).toMatchObject({ label: 'tool', text: 'Running tool' });
  });
});
