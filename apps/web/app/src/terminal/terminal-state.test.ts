import { describe, expect, it } from 'vitest';
import { terminalStateLabel } from './terminal-state';
import { ja } from '../i18n/catalogs/ja';
import { zhCN } from '../i18n/catalogs/zh-CN';
import { translatorFor } from '../i18n/plain';

const open = { phase: 'open' as const, mode: 'control' as const, writable: true, cols: 80, rows: 24 };

describe('terminal state line', () => {
  it('says Connected with the role and the size', () => {
    expect(terminalStateLabel(open, { running: true, exit: null })).toEqual({ connection: 'connected', text: 'Connected · control · 80×24' });
    expect(terminalStateLabel({ ...open, writable: false }, { running: true, exit: null }).text).toBe('Connected · read-only (another writer) · 80×24');
    expect(terminalStateLabel({ ...open, mode: 'viewer', writable: false }, { running: true, exit: null }).text).toBe('Connected · view only · read-only · 80×24');
  });

  it('after the stream closed: Exited with how, Not running, or Disconnected while the agent still runs', () => {
    const closed = { ...open, phase: 'closed' as const };
    expect(terminalStateLabel(closed, { running: false, exit: 'code 130' })).toEqual({ connection: 'exited', text: 'Exited (code 130)' });
    expect(terminalStateLabel(closed, { running: false, exit: '' }).text).toBe('Exited');
    expect(terminalStateLabel(closed, { running: false, exit: null }).text).toBe('Not running');
    expect(terminalStateLabel(closed, { running: true, exit: null }).text).toBe('Disconnected');
    expect(terminalStateLabel(closed, { running: null, exit: null }).text).toBe('Disconnected');
    expect(terminalStateLabel(null, { running: true, exit: null }).text).toBe('loading…');
  });
});

describe('terminal state line in Chinese and Japanese', () => {
  it('translates every state, keeping the size and the exit as given', () => {
    const zh = translatorFor(zhCN);
    const jp = translatorFor(ja);
    expect(terminalStateLabel(open, { running: true, exit: null }, zh).text).toBe('已连接 · 控制中 · 80×24');
    expect(terminalStateLabel({ ...open, mode: 'viewer', writable: false }, { running: true, exit: null }, jp).text).toBe('接続済み · 表示のみ · 読み取り専用 · 80×24');
    const closed = { ...open, phase: 'closed' as const };
    expect(terminalStateLabel(closed, { running: false, exit: '退出码 130' }, zh)).toEqual({ connection: 'exited', text: '已退出（退出码 130）' });
    expect(terminalStateLabel(closed, { running: false, exit: null }, jp).text).toBe('実行されていません');
    expect(terminalStateLabel(closed, { running: true, exit: null }, zh).text).toBe('已断开');
    expect(terminalStateLabel(null, { running: true, exit: null }, jp).text).toBe('読み込み中…');
  });
});
