import { describe, expect, it } from 'vitest';
import type { RuntimeActivityRecord } from '@cccc/ipc-protocol';
// Waiting for permission, from the actor's hook evidence and its open tool; pure.
import { applyActivity, emptyActivity, projectBubbles, STUCK_AFTER_MS, type ActivityState } from './activity-store';
import { waitingOf, waitingText } from './waiting';
import { ja } from '../i18n/catalogs/ja';
import { zhCN } from '../i18n/catalogs/zh-CN';
import { translatorFor } from '../i18n/plain';

const T0 = Date.parse('2026-08-01T10:00:00Z');
const rec = (p: Partial<RuntimeActivityRecord> & { at?: number }): RuntimeActivityRecord => {
  const { at = T0, ...rest } = p;
  return {
    v: 1,
    id: `r${Math.random()}`,
    ts: new Date(at).toISOString(),
    group_id: 'g',
    actor_id: 'lead',
    runtime: 'claude',
    activity_id: 'claude:s1:tool:toolu_1',
    kind: 'tool',
    status: 'started',
    event_type: 'PreToolUse',
    session_id: 's1',
    turn_id: 't1',
    operation_id: 'toolu_1',
    tool_name: 'Bash',
    duration_ms: null,
    ...rest,
  } as RuntimeActivityRecord;
};
const apply = (records: RuntimeActivityRecord[], at = T0): ActivityState => records.reduce((s, r) => applyActivity(s, r, at), emptyActivity);
const actor = (p: { state?: 'waiting' | 'working' | 'idle'; source?: 'hook' | 'terminal' | 'idle' | 'app_server' | 'managed_session'; reason?: string; running?: boolean } = {}) => ({
  id: 'lead',
  running: p.running ?? true,
  effective_working_state: p.state ?? 'waiting',
  state_source: p.source ?? 'hook',
  effective_working_reason: p.reason ?? 'claude_hook_PermissionRequest',
});

describe('waiting for permission', () => {
  it('names the tool from the waiting activity: "lead is waiting for permission: Bash"', () => {
    const s = apply([rec({}), rec({ status: 'waiting', event_type: 'PermissionRequest', at: T0 + 500 })]);
    const w = waitingOf(actor({ reason: 'claude_hook_Notification' }), s);
    expect(w).toEqual({ actorId: 'lead', kind: 'permission', tool: 'Bash', toolActivity: 'claude:s1:tool:toolu_1' });
    expect(waitingText('lead', w!)).toBe('lead is waiting for permission: Bash');
  });

  it('is only the hooks\' word: screen or output-timing "waiting" and a working actor are not waiting', () => {
    const s = apply([rec({ status: 'waiting' })]);
    expect(waitingOf(actor({ source: 'idle' }), s)).toBeNull();
    expect(waitingOf(actor({ source: 'terminal' }), s)).toBeNull();
    expect(waitingOf(actor({ state: 'working' }), s)).toBeNull();
    expect(waitingOf(actor({ running: false }), s)).toBeNull();
  });

  it('a managed session (app-server or ACP session) waiting is waiting on an approval', () => {
    expect(waitingOf(actor({ source: 'app_server', reason: 'app_server_thread_active' }), emptyActivity)).toEqual({ actorId: 'lead', kind: 'permission', tool: null, toolActivity: null });
    expect(waitingOf(actor({ source: 'managed_session', reason: 'session/request_permission' }), emptyActivity)).toEqual({ actorId: 'lead', kind: 'permission', tool: null, toolActivity: null });
    expect(waitingOf(actor({ source: 'managed_session', state: 'working' }), emptyActivity)).toBeNull();
  });

  it('without a tool: a PermissionRequest still asks permission, a Notification reads as waiting for input', () => {
    expect(waitingOf(actor(), emptyActivity)).toMatchObject({ kind: 'permission', tool: null });
    const w = waitingOf(actor({ reason: 'claude_hook_Notification' }), emptyActivity)!;
    expect(waitingText('lead', w)).toBe('lead is waiting for input');
  });

  it('the ticker shows the tool waiting for permission, not stuck, however long it waits', () => {
    const s = apply([rec({})]);
    const late = T0 + STUCK_AFTER_MS * 3;
    expect(projectBubbles(s, 'lead', late).map((b) => b.text)).toEqual(['Bash stuck']);
    const w = waitingOf(actor({ reason: 'claude_hook_Notification' }), s)!;
    expect(projectBubbles(s, 'lead', late, w.toolActivity).map((b) => [b.status, b.text])).toEqual([['waiting', 'Bash waiting for permission']]);
    // The daemon's snapshot synthesizes `stuck` after 60 s; the evidence still wins.
    const synth = apply([rec({ status: 'stuck' })]);
    expect(projectBubbles(synth, 'lead', late, 'claude:s1:tool:toolu_1')[0]!.text).toBe('Bash waiting for permission');
  });
});

describe('waiting sentence in Chinese and Japanese', () => {
  it('keeps the name and the tool, and nothing else in English', () => {
    const w = { actorId: 'lead', kind: 'permission' as const, tool: 'Bash', toolActivity: null };
    expect(waitingText('lead', w, translatorFor(zhCN))).toBe('lead 正在等待授权：Bash');
    expect(waitingText('lead', { ...w, tool: null }, translatorFor(ja))).toBe('lead が許可を待っています');
    expect(waitingText('lead', { ...w, kind: 'input', tool: null }, translatorFor(zhCN))).toBe('lead 正在等待输入');
  });
});
