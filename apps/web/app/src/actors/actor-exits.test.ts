import { describe, expect, it } from 'vitest';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { applyLifecycle, exitDetail, exitText } from './actor-exits';
import { ja } from '../i18n/catalogs/ja';
import { zhCN } from '../i18n/catalogs/zh-CN';
import { translatorFor } from '../i18n/plain';

const ev = (kind: string, by: string, data: Record<string, unknown>, ts = '2026-08-01T10:00:00Z'): CCCSEventV1 => ({ v: 1, id: `${kind}${ts}`, ts, kind, group_id: 'g', scope_key: '', by, data });

describe('actor exits', () => {
  it('remembers an exit of its own until the actor starts again or someone stops it', () => {
    const exited = ev('actor.stop', 'system', { actor_id: 'lead', reason: 'exited', exit_code: 130, signal: null });
    let m = applyLifecycle(new Map(), [exited]);
    expect(m.get('lead')).toEqual({ exitCode: 130, signal: null, at: exited.ts });
    expect(exitText(m.get('lead')!)).toBe('exited with code 130');
    expect(applyLifecycle(m, [ev('actor.start', 'user', { actor_id: 'lead' })]).has('lead')).toBe(false);
    expect(applyLifecycle(m, [ev('actor.stop', 'user', { actor_id: 'lead' })]).has('lead')).toBe(false);
    m = applyLifecycle(m, [ev('actor.start', 'user', { actor_id: 'other' })]);
    expect(m.has('lead')).toBe(true);
  });

  it('a stop the user asked for is no exit; unchanged input keeps the same map', () => {
    const m = new Map();
    expect(applyLifecycle(m, [ev('actor.stop', 'user', { actor_id: 'lead' }), ev('chat.message', 'user', { text: '' })])).toBe(m);
    expect(exitText({ exitCode: null, signal: 'SIGKILL', at: '' })).toBe('ended by signal SIGKILL');
  });
});

describe('actor exits in Chinese and Japanese', () => {
  it('reads without English fragments', () => {
    const zh = translatorFor(zhCN);
    const jp = translatorFor(ja);
    expect(exitText({ exitCode: 3, signal: null, at: '' }, zh)).toBe('以退出码 3 退出');
    expect(exitText({ exitCode: null, signal: 'SIGKILL', at: '' }, zh)).toBe('因信号 SIGKILL 结束');
    expect(exitText({ exitCode: null, signal: null, at: '' }, zh)).toBe('退出');
    expect(exitText({ exitCode: 3, signal: null, at: '' }, jp)).toBe('終了コード 3 で終了');
    expect(exitDetail({ exitCode: 130, signal: null, at: '' }, jp)).toBe('終了コード 130');
    expect(exitDetail({ exitCode: null, signal: 'SIGTERM', at: '' }, zh)).toBe('信号 SIGTERM');
    expect(exitDetail({ exitCode: null, signal: null, at: '' }, zh)).toBe('');
  });
});
