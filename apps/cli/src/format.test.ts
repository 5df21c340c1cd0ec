import { describe, expect, it } from 'vitest';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { actorStateLabel, formatEvent, formatMessage, formatTable } from './format.js';
import { collectList, parseBoolean, parseKeyValues } from './option-parsers.js';

const event = (kind: string, data: Record<string, unknown>): CCCSEventV1 => ({
  v: 1,
  id: '0123456789abcdef0123456789abcdef',
  ts: '2025-01-02T03:04:05.678901Z',
  kind,
  group_id: 'g_000000000001',
  scope_key: '',
  by: 'lead',
  data,
});

describe('format', () => {
  it('renders a message as `[ts] by → to (mode) [id8]: text` on one line', () => {
    expect(formatMessage(event('chat.message', { text: 'a\nb', to: ['p1', 'p2'], message_mode: 'mail' }))).toBe(
      '[2025-01-02 03:04:05] lead → p1,p2 (mail) [01234567]: a ⏎ b',
    );
    expect(formatMessage(event('chat.message', { text: 'ok', to: ['user'], message_mode: 'send', reply_to: 'fedcba9876543210' }))).toBe(
      '[2025-01-02 03:04:05] lead → user (send) [01234567] ↩fedcba98: ok',
    );
  });

  it('names what a non-chat event is about', () => {
    expect(formatEvent(event('actor.add', { actor: { id: 'p1', command: ['x'] } }))).toBe('[2025-01-02 03:04:05] actor.add by lead [01234567] p1');
    expect(formatEvent(event('system.notify', { kind: 'info', title: 'CI', message: 'green', target_actor_id: 'p1' }))).toBe(
      '[2025-01-02 03:04:05] system.notify by lead [01234567] → p1 (info): CI: green',
    );
  });

  it('aligns table columns and shows empty cells as "-"', () => {
    expect(formatTable(['id', 'title', 'n'], [['lead', '', 0], ['p1', 'Peer', true]])).toEqual(['ID    TITLE  N', 'lead  -      0', 'p1    Peer   yes']);
  });
});

describe('option parsers', () => {
  it('splits repeated and comma-separated recipients', () => {
    expect(['a,b', ' c ', ','].reduce<string[]>((acc, v) => collectList(v, acc), [])).toEqual(['a', 'b', 'c']);
  });

  it('parses booleans and KEY=VALUE without echoing a malformed entry', () => {
    expect(parseBoolean('0')).toBe(false);
    expect(parseBoolean('Yes')).toBe(true);
    expect(parseKeyValues(['A=1', 'B=x=y', 'C='], '--set')).toEqual({ A: '1', B: 'x=y', C: '' });
    expect(() => parseKeyValues(['A=1', 'hunter2'], '--set')).toThrow(/^--set entry #2 is not KEY=VALUE$/);
  });
});

describe('actorStateLabel: cccc actor list reads at a glance', () => {
  const actor = (state: string, source: string, reason: string, running = true) => ({
    running,
    effective_working_state: state,
    effective_working_reason: reason,
    state_source: source,
  });
  it('says plainly what a hooked agent reported', () => {
    expect(actorStateLabel(actor('idle', 'hook', 'claude_hook_Stop'))).toBe('idle');
    expect(actorStateLabel(actor('working', 'hook', 'claude_hook_PreToolUse'))).toBe('working · hook');
    expect(actorStateLabel(actor('waiting', 'hook', 'claude_hook_PermissionRequest'))).toBe('waiting for permission');
    expect(actorStateLabel(actor('waiting', 'hook', 'codex_hook_PermissionRequest'))).toBe('waiting for permission');
    expect(actorStateLabel(actor('waiting', 'app_server', 'app_server_thread_active'))).toBe('waiting for permission');
    expect(actorStateLabel(actor('working', 'app_server', 'app_server_turn_started'))).toBe('working · app-server');
    expect(actorStateLabel(actor('waiting', 'managed_session', 'session/request_permission'))).toBe('waiting for permission');
    expect(actorStateLabel(actor('working', 'managed_session', 'session/update:agent_message_chunk'))).toBe('working · ACP session');
    expect(actorStateLabel(actor('idle', 'managed_session', 'session/ready'))).toBe('idle');
  });
  it('names the evidence of a guess: the screen or output silence', () => {
    expect(actorStateLabel(actor('working', 'terminal', 'terminal_working'))).toBe('working · screen');
    expect(actorStateLabel(actor('idle', 'terminal', 'hook_pending/terminal_idle'))).toBe('idle · screen (hooks starting)');
    expect(actorStateLabel(actor('working', 'idle', 'idle_2s'))).toBe('working · output');
    expect(actorStateLabel(actor('waiting', 'idle', 'idle_42s'))).toBe('quiet 42s');
    expect(actorStateLabel(actor('stuck', 'idle', 'idle_900s'))).toBe('stuck 15m');
  });
  it('stopped, and whether the agent exited on its own', () => {
    expect(actorStateLabel(actor('stopped', 'process', 'not_running', false))).toBe('stopped');
    expect(actorStateLabel(actor('stopped', 'process', 'cli_exited'))).toBe('stopped · exited');
  });
});
