import type { EventOf } from '@cccc/ipc-protocol';
import { describe, expect, it } from 'vitest';
import {
  chatMessageData,
  crossGroupForwardData,
  crossGroupSourceData,
  messageData,
  notifyData,
  quoteOf,
  replyData,
  sentMessage,
  sentReply,
} from './message-data.js';
import { GroupDoc } from './schemas/group.js';

type ChatEvent = EventOf<'chat.message'>;

function chatEvent(data: ChatEvent['data'], id = 'e'.repeat(32)): ChatEvent {
  return { v: 1, id, ts: '2026-01-01T00:00:00.000000Z', kind: 'chat.message', group_id: 'g_test', scope_key: 's_x', by: 'peer1', data };
}

const routed = { routing: { to: ['peer1'], audience: 'agents' as const, recipient_ids: ['peer1'], enabled_recipient_ids: ['peer1'] }, insight: null };

describe('chat.message data', () => {
  it('keeps `to`, drops undefined, null insight and empty arrays, in one key order', () => {
    const data = chatMessageData({ text: 't', to: [], message_mode: 'send', insight: null, attachments: [], refs: undefined, client_id: 'c1' });
    expect(data).toEqual({ text: 't', format: 'plain', to: [], message_mode: 'send', client_id: 'c1' });
    const full = chatMessageData({
      client_id: 'c',
      dst_message_mode: 'mail',
      dst_to: ['x'],
      dst_group_id: 'g_d',
      src_by: 'p',
      src_event_id: 's',
      src_group_id: 'g_s',
      refs: [{ kind: 'task_ref' }],
      attachments: [{ path: 'a' }],
      insight: 'i',
      quote_text: 'q',
      reply_to: 'r',
      message_mode: 'send',
      to: ['peer1'],
      text: 't',
    });
    expect(Object.keys(full)).toEqual([
      'text', 'format', 'to', 'message_mode', 'reply_to', 'quote_text', 'insight', 'attachments', 'refs',
      'src_group_id', 'src_event_id', 'src_by', 'dst_group_id', 'dst_to', 'dst_message_mode', 'client_id',
    ]);
  });

  it('a message takes the resolved `to` and normalized insight, never the raw request fields', () => {
    const req = { text: 'hi', to: ['Peer One'], insight: '  raw  ', message_mode: 'mail' as const, client_id: 'k', group_id: 'g_test' };
    expect(messageData(req, { ...routed, insight: 'raw' })).toEqual({ text: 'hi', format: 'plain', to: ['peer1'], message_mode: 'mail', insight: 'raw', client_id: 'k' });
  });

  it('a reply names and quotes its source (100 characters, then "...")', () => {
    const source = chatEvent({ text: 'é'.repeat(150), message_mode: 'request_reply', to: ['lead'] });
    const data = replyData(source, { text: 'done', message_mode: 'send' }, routed);
    expect(data).toEqual({ text: 'done', format: 'plain', to: ['peer1'], message_mode: 'send', reply_to: source.id, quote_text: 'é'.repeat(100) + '...' });
    expect(quoteOf('short')).toBe('short');
  });

  it('cross-group: a source record to the user, and the forwarded message naming it', () => {
    const out = { ...routed, insight: 'why', foreignBy: 'peer1@g_src' };
    expect(crossGroupSourceData({ text: 't', message_mode: 'mail', dst_group_id: 'g_dst' }, out)).toEqual({
      text: 't', format: 'plain', to: ['user'], message_mode: 'send', insight: 'why', dst_group_id: 'g_dst', dst_to: ['peer1'], dst_message_mode: 'mail',
    });
    expect(crossGroupForwardData({ text: 't', message_mode: 'mail', by: 'peer1', src_group_id: 'g_src', src_event_id: 'e1' }, out)).toEqual({
      text: 't', format: 'plain', to: ['peer1'], message_mode: 'mail', insight: 'why', src_group_id: 'g_src', src_event_id: 'e1', src_by: 'peer1',
    });
  });
});

describe('replies to a repeated client_id', () => {
  it('replay the original message with its mode; a legacy row reads as send', () => {
    const legacy = chatEvent({ text: 'old', to: ['peer1'] });
    expect(sentMessage(legacy)).toEqual({ event: legacy, message_mode: 'send' });
    const mail = chatEvent({ text: 'm', to: ['peer1'], message_mode: 'mail' });
    expect(sentReply(mail)).toEqual({ event: mail, message_mode: 'mail' });
  });

  it('a reply whose client_id names a request_reply send is refused, not replayed', () => {
    const rr = chatEvent({ text: 'q', to: ['peer1'], message_mode: 'request_reply' });
    expect(sentMessage(rr).message_mode).toBe('request_reply');
    expect(() => sentReply(rr)).toThrowError(expect.objectContaining({ code: 'invalid_request', details: { field: 'client_id' } }));
  });
});

describe('notifyData', () => {
  const group = GroupDoc.parse({ group_id: 'g_test', actors: [{ id: 'lead' }, { id: 'peer1' }] });

  it('fills the defaults: info, normal, internal, broadcast', () => {
    expect(notifyData(group, 'svc:ci', {})).toEqual({
      kind: 'info', priority: 'normal', title: '', message: '', target_actor_id: null, im_visibility: 'internal', context: {},
    });
    expect(notifyData(group, 'lead', { kind: 'alert', target_actor_id: 'peer1', im_visibility: 'public', context: { a: 1 } })).toMatchObject({
      kind: 'alert', target_actor_id: 'peer1', im_visibility: 'public', context: { a: 1 },
    });
  });

  it('refuses an unknown sender before an unknown target', () => {
    expect(() => notifyData(group, 'ghost', { target_actor_id: 'nobody' })).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => notifyData(group, 'user', { target_actor_id: 'nobody' })).toThrowError(
      expect.objectContaining({ code: 'actor_not_found', details: { actor_id: 'nobody' } }),
    );
  });
});
