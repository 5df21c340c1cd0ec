import { describe, expect, it } from 'vitest';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { formatEvent, formatMessage, formatTable } from './format.js';
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
