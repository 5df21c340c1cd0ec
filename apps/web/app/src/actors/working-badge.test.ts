import { describe, expect, it } from 'vitest';
// The working-state badge names its evidence (REFERENCE_NOTES §4); pure, no DOM.
import { ja } from '../i18n/catalogs/ja';
import { zhCN } from '../i18n/catalogs/zh-CN';
import { translatorFor } from '../i18n/plain';
import { isManagedSource, workingBadge } from './working-badge';

describe('working-state badge', () => {
  it('reads "<state> · <source>" for a running actor', () => {
    expect(workingBadge({ running: true, effective_working_state: 'working', state_source: 'hook', effective_working_reason: 'claude_hook_UserPromptSubmit' })).toMatchObject({
      state: 'working',
      source: 'hook',
      label: 'working · hook',
      title: 'claude_hook_UserPromptSubmit',
    });
    expect(workingBadge({ running: true, effective_working_state: 'idle', state_source: 'terminal' }).label).toBe('idle · screen');
    expect(workingBadge({ running: true, effective_working_state: 'working', state_source: 'app_server' }).label).toBe('working · app-server');
    expect(workingBadge({ running: true, effective_working_state: 'working', state_source: 'managed_session' }).label).toBe('working · ACP session');
    // Both managed sources wait on requests the card answers; hooks and the screen do not.
    expect(['app_server', 'managed_session', 'hook', 'terminal', undefined].map(isManagedSource)).toEqual([true, true, false, false, false]);
    expect(workingBadge({ running: true, effective_working_state: 'working', state_source: 'idle' })).toMatchObject({ source: 'idle', label: 'working · output timing' });
  });

  it('a stopped actor is just "stopped"; a missing state is unknown, never guessed', () => {
    expect(workingBadge({ running: false, effective_working_state: 'stopped', state_source: 'process' }).label).toBe('stopped');
    expect(workingBadge({ running: false }).label).toBe('stopped');
    expect(workingBadge({ running: true })).toMatchObject({ state: 'unknown', label: 'unknown · no evidence' });
  });

  it('the tooltip adds a held input state', () => {
    expect(workingBadge({ running: true, effective_working_state: 'waiting', state_source: 'hook', effective_working_reason: 'r', input_state: 'waiting_user' }).title).toBe('r · input waiting_user');
  });
});

describe('working-state badge in Chinese and Japanese', () => {
  it('translates state, source and input state; the reason stays the daemon\'s code', () => {
    const zh = translatorFor(zhCN);
    expect(workingBadge({ running: true, effective_working_state: 'working', state_source: 'hook' }, zh).label).toBe('工作中 · 钩子');
    expect(workingBadge({ running: false }, zh).label).toBe('已停止');
    expect(workingBadge({ running: true, effective_working_state: 'waiting', state_source: 'hook', effective_working_reason: 'r', input_state: 'waiting_user' }, zh).title).toBe('r · 输入：等待用户');
    expect(workingBadge({ running: true, effective_working_state: 'idle', state_source: 'managed_session' }, translatorFor(ja)).label).toBe('アイドル · ACP セッション');
  });
});
