import { describe, expect, it } from 'vitest';
import type { DeliveredMessage } from './message.js';
import { ATTACHMENTS_HEADER, INSIGHT_HEADER, renderChatMessage } from './render-message.js';
import { REPLY_INSTRUCTION, mailNotice, renderDeliveryBatch, renderSystemNotify } from './render-batch.js';
import { buildSystemPrompt } from './system-prompt.js';

type FlatMessage = { event_id: string; by: string } & DeliveredMessage['data'];
const msg = ({ event_id = 'e1', by = 'user', ...data }: Partial<FlatMessage>): DeliveredMessage => ({
  id: event_id,
  by,
  data: { to: ['peer1'], text: 'hello', message_mode: 'send', ...data },
});

describe('renderChatMessage (spec §8.6, REFERENCE_NOTES §3.2 vectors)', () => {
  it.each<[string, Partial<FlatMessage>, string]>([
    ['plain send', {}, '[cccc] user → peer1 [event_id=e1]: hello'],
    ['request_reply marker inside the header', { message_mode: 'request_reply' }, '[cccc] user → peer1 [event_id=e1 reply_required]: hello'],
    ['reply with short parent id', { by: 'peer2', reply_to: 'abcdef123456', text: 'ok' }, '[cccc] peer2 → peer1 (reply:abcdef12) [event_id=e1]: ok'],
    [
      'reply with quote',
      { by: 'peer2', reply_to: 'abcdef123456', quote_text: '外部用户原话', text: '收到，我来处理。' },
      '[cccc] peer2 → peer1 (reply:abcdef12) [event_id=e1]\n> "外部用户原话": 收到，我来处理。',
    ],
    [
      'external source',
      { source_platform: 'dingtalk', source_user_name: 'Alice', source_user_id: '1729', text: '外部消息' },
      '[cccc] user[dingtalk / Alice / 1729] → peer1 [event_id=e1]: 外部消息',
    ],
    ['multiline body', { text: 'line one\nline two' }, '[cccc] user → peer1 [event_id=e1]:\nline one\nline two'],
    ['broadcast when to is empty', { to: [] }, '[cccc] user → @all [event_id=e1]: hello'],
    ['several recipients', { to: ['peer1', 'peer2'] }, '[cccc] user → peer1, peer2 [event_id=e1]: hello'],
    ['legacy mode has no marker', { message_mode: null }, '[cccc] user → peer1 [event_id=e1]: hello'],
  ])('%s', (_name, m, expected) => {
    expect(renderChatMessage(msg(m))).toBe(expected);
  });

  it('never emits a separate REPLY REQUIRED line, never the full parent id', () => {
    const text = renderChatMessage(msg({ message_mode: 'request_reply', reply_to: 'abcdef1234567890' }));
    expect(text).not.toContain('REPLY REQUIRED');
    expect(text).not.toContain('abcdef1234567890');
    expect(text.split('\n')).toHaveLength(1);
  });

  it('caps the quote at 80 characters', () => {
    const text = renderChatMessage(msg({ reply_to: 'abcdef12', quote_text: 'q'.repeat(100) }));
    expect(text).toContain(`> "${'q'.repeat(80)}...":`);
  });

  it('applies the decorations in order with their caps', () => {
    const text = renderChatMessage(
      msg({
        src_group_id: 'g_src',
        src_event_id: 'ev_src',
        refs: [
          { kind: 'task_ref', task_id: 'T1', status: 'active', title: 'Ship it' },
          { kind: 'url', url: 'https://x', title: 'Spec' },
          { kind: 'presentation_ref', slot_id: 's1' },
          { kind: 'commit', sha: 'abc123' },
          { kind: 'task_ref', task_id: 'T5' },
        ],
        attachments: Array.from({ length: 9 }, (_, i) => ({ path: `state/blobs/h${i}_f${i}.txt`, title: `f${i}.txt`, bytes: i })),
        insight: '  maybe the cache is stale  ',
      }),
      { mailPending: 2 },
    );
    expect(text.split('\n')).toEqual([
      '[cccc] user → peer1 [event_id=e1]:',
      '[cccc] RELAYED FROM (group_id=g_src, event_id=ev_src):',
      'hello',
      '[cccc] References:',
      '- Task T1 [active] — Ship it',
      '- url: Spec (https://x)',
      '- Presentation slot s1',
      '- commit: abc123',
      ATTACHMENTS_HEADER,
      ...Array.from({ length: 8 }, (_, i) => `- f${i}.txt (${i} bytes) [state/blobs/h${i}_f${i}.txt]`),
      INSIGHT_HEADER,
      'maybe the cache is stale',
      '[cccc] MAIL PENDING: 2 item(s). Call cccc_inbox_read when appropriate.',
    ]);
  });

  it('mail pending only for send and request_reply; attachments-only messages render', () => {
    expect(renderChatMessage(msg({ message_mode: 'mail' }), { mailPending: 3 })).not.toContain('MAIL PENDING');
    expect(renderChatMessage(msg({ message_mode: 'request_reply' }), { mailPending: 3 })).toContain('MAIL PENDING: 3');
    const only = renderChatMessage(msg({ text: '', attachments: [{ path: 'state/blobs/x_a.png', title: 'a.png', bytes: 5 }] }));
    expect(only).toBe(`[cccc] user → peer1 [event_id=e1]:\n${ATTACHMENTS_HEADER}\n- a.png (5 bytes) [state/blobs/x_a.png]`);
  });

  it('projects ledger events', () => {
    const m: DeliveredMessage = { id: 'ev9', by: 'peer2', data: { text: 'hi', to: ['peer1'], message_mode: 'request_reply', extra: 1 } };
    expect(renderChatMessage(m)).toBe('[cccc] peer2 → peer1 [event_id=ev9 reply_required]: hi');
  });
});

describe('renderDeliveryBatch', () => {
  it('one message gets the reply instruction once', () => {
    expect(renderDeliveryBatch([{ kind: 'chat', message: msg({}) }])).toBe(`[cccc] user → peer1 [event_id=e1]: hello\n\n${REPLY_INSTRUCTION}`);
    expect(REPLY_INSTRUCTION).toContain('cccc_message_reply');
    expect(REPLY_INSTRUCTION).toContain('event_id');
    expect(REPLY_INSTRUCTION).toContain('cccc_message_send only for a new message');
  });

  it('batches several messages with one instruction and mail pending once', () => {
    const text = renderDeliveryBatch(
      [
        { kind: 'chat', message: msg({ event_id: 'a' }) },
        { kind: 'notify', notify: { kind: 'info', title: 'Heads up', message: 'build is red' } },
        { kind: 'chat', message: msg({ event_id: 'b', text: 'second', message_mode: 'request_reply' }) },
      ],
      { mailPending: 1 },
    );
    expect(text).toBe(
      [
        '[cccc] 3 new messages:',
        '[cccc] user → peer1 [event_id=a]: hello',
        '[cccc] SYSTEM (info): Heads up\nbuild is red',
        '[cccc] user → peer1 [event_id=b reply_required]:\nsecond\n[cccc] MAIL PENDING: 1 item(s). Call cccc_inbox_read when appropriate.',
        REPLY_INSTRUCTION,
      ].join('\n\n'),
    );
    expect(text.split(REPLY_INSTRUCTION)).toHaveLength(2);
  });

  it('notify-only batches carry no reply instruction', () => {
    const text = renderDeliveryBatch([{ kind: 'notify', notify: mailNotice(2) }]);
    expect(text).toBe('[cccc] SYSTEM (mail_notice): Mail waiting\nYou have 2 Mail item(s) waiting. Call cccc_inbox_read when appropriate.');
    expect(renderDeliveryBatch([])).toBe('');
    expect(renderSystemNotify({ kind: 'nudge', title: 'Ping' })).toBe('[cccc] SYSTEM (nudge): Ping');
  });
});

describe('buildSystemPrompt', () => {
  const input = {
    actorId: 'peer1',
    role: 'peer' as const,
    groupTitle: 'Demo',
    groupId: 'g_1',
    runtime: 'claude',
    runner: 'pty' as const,
    team: [
      { id: 'lead', role: 'foreman' as const },
      { id: 'peer1', role: 'peer' as const },
    ],
    foreman: 'lead',
    scopes: [
      { label: 'app', path: '/repo/app', active: true },
      { path: '/repo/lib' },
    ],
    projectMdPath: null,
  };

  it('lists identity, team, scopes, protocol and the default preamble', () => {
    const text = buildSystemPrompt(input);
    const lines = text.split('\n');
    expect(lines.slice(0, 10)).toEqual([
      "[CCCC] You are peer1 (peer) in group 'Demo'",
      'group_id: g_1',
      'runtime: claude (pty)',
      'team: lead (foreman), peer1 (peer, you)',
      'foreman: lead',
      'PROJECT.md: missing',
      'scopes:',
      '* app /repo/app',
      '  /repo/lib',
      '---',
    ]);
    expect(lines[10]).toBe('CCCC Protocol:');
    expect(text).toContain('cccc_bootstrap');
  });

  it('uses the CCCC_PREAMBLE.md override and prepends MCP setup where needed', () => {
    const text = buildSystemPrompt({ ...input, runtime: 'cursor', preambleOverride: 'Custom rules.\n' });
    expect(text.startsWith('[CCCC] MCP setup request')).toBe(true);
    expect(text.endsWith('Custom rules.')).toBe(true);
    expect(text).not.toContain('cccc_bootstrap` first');
  });
});
