import { describe, expect, it } from 'vitest';
import { assertOtherGroup, assertReplyMode, messageScopeKey, validateCrossGroup, validateMessage, validateOutgoing, validateReply } from './outgoing.js';
import { GroupDoc } from './schemas/group.js';

function group(extra: Record<string, unknown> = {}): GroupDoc {
  return GroupDoc.parse({
    group_id: 'g_test',
    actors: [{ id: 'lead' }, { id: 'peer1' }, { id: 'peer2', enabled: false }],
    active_scope_key: 's_active',
    scopes: [
      { scope_key: 's_active', url: '/repo' },
      { scope_key: 's_docs', url: '/docs/' },
    ],
    ...extra,
  });
}

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

describe('validateOutgoing', () => {
  it('resolves routing and normalizes insight', () => {
    const out = validateOutgoing(group(), { by: 'user', text: 'hi', to: ['peer1'], mode: 'send', hasAttachments: false, insight: '  why  ' });
    expect(out).toEqual({ routing: { to: ['peer1'], audience: 'agents', recipient_ids: ['peer1'], enabled_recipient_ids: ['peer1'] }, insight: 'why' });
    expect(validateOutgoing(group(), { by: 'peer1', text: 'hi', mode: 'send', hasAttachments: false }).routing.to).toEqual(['@foreman']);
  });

  it('checks in order: sender, content, insight, routing, peer insight, root body', () => {
    const g = group({ messaging: { root_body_policy: 'summary' } });
    const base = { by: 'user', text: 'ok', to: ['peer1'], mode: 'send' as const, hasAttachments: false };
    expect(codeOf(() => validateOutgoing(g, { ...base, by: 'ghost', text: '' }))).toBe('permission_denied');
    expect(codeOf(() => validateOutgoing(g, { ...base, text: '  ', insight: 7 }))).toBe('empty_message');
    expect(codeOf(() => validateOutgoing(g, { ...base, text: '  ', hasAttachments: true }))).toBeUndefined();
    expect(codeOf(() => validateOutgoing(g, { ...base, insight: 7, to: ['ghost'] }))).toBe('invalid_insight');
    expect(codeOf(() => validateOutgoing(g, { ...base, to: ['ghost'], requirePeerInsight: true }))).toBe('invalid_recipient');
    expect(codeOf(() => validateOutgoing(g, { ...base, text: 'a\nb\nc', requirePeerInsight: true }))).toBe('peer_insight_required');
    expect(codeOf(() => validateOutgoing(g, { ...base, text: 'a\nb\nc' }))).toBe('root_body_not_summary');
    expect(codeOf(() => validateOutgoing(g, { ...base, text: 'a\nb\nc', replyTo: 'e1' }))).toBeUndefined();
  });

  it('validateMessage and validateReply read the request fields; a reply defaults to the original sender', () => {
    const req = { text: 'hi', message_mode: 'send' as const, insight: 'x', require_peer_insight: true };
    expect(validateMessage(group(), 'user', { ...req, to: ['peer1'] }, false).insight).toBe('x');
    expect(codeOf(() => validateMessage(group(), 'user', { ...req, insight: undefined, to: ['peer1'] }, false))).toBe('peer_insight_required');
    expect(validateReply(group(), 'lead', { id: 'e1', by: 'peer1' }, req, false).routing.to).toEqual(['peer1']);
    const summary = group({ messaging: { root_body_policy: 'summary' } });
    expect(codeOf(() => validateReply(summary, 'lead', { id: 'e1', by: 'peer1' }, { ...req, text: 'a\nb\nc' }, false))).toBeUndefined();
  });

  it('a reply is send or mail; a cross-group send names another group', () => {
    expect(() => assertReplyMode('mail')).not.toThrow();
    expect(() => assertReplyMode('request_reply')).toThrowError(expect.objectContaining({ code: 'invalid_request', details: { field: 'message_mode' } }));
    expect(() => assertOtherGroup('g_a', 'g_b')).not.toThrow();
    expect(() => assertOtherGroup('g_a', 'g_a')).toThrowError(expect.objectContaining({ code: 'invalid_request', details: { field: 'dst_group_id' } }));
  });
});

describe('validateCrossGroup', () => {
  const dst = GroupDoc.parse({ group_id: 'g_dst', actors: [{ id: 'boss' }, { id: 'helper' }] });

  it('the sender must be known at the source; at the destination it is routed as the system and named foreign', () => {
    const out = validateCrossGroup(group(), dst, { by: 'peer1', srcGroupId: 'g_test', text: 'hello', mode: 'send' });
    expect(out.foreignBy).toBe('peer1@g_test');
    expect(out.routing.to).toEqual(['@foreman']);
    expect(validateCrossGroup(group(), dst, { by: 'user', srcGroupId: 'g_test', text: 'x', to: ['helper'], mode: 'send' }).foreignBy).toBe('user');
    expect(codeOf(() => validateCrossGroup(group(), dst, { by: 'boss', srcGroupId: 'g_test', text: 'x', mode: 'send' }))).toBe('permission_denied');
    expect(codeOf(() => validateCrossGroup(group(), dst, { by: 'user', srcGroupId: 'g_test', text: ' ', mode: 'send' }))).toBe('empty_message');
    expect(codeOf(() => validateCrossGroup(group(), dst, { by: 'user', srcGroupId: 'g_test', text: 'x', to: ['peer1'], mode: 'send' }))).toBe('invalid_recipient');
  });
});

describe('messageScopeKey', () => {
  it('files a message under the attached scope holding its path, else the active scope', () => {
    expect(messageScopeKey(group(), '/docs/a.md')).toBe('s_docs');
    expect(messageScopeKey(group(), '/repo')).toBe('s_active');
    expect(messageScopeKey(group(), '/repository/x')).toBe('s_active');
    expect(messageScopeKey(group(), '/elsewhere')).toBe('s_active');
    expect(messageScopeKey(group(), undefined)).toBe('s_active');
    expect(messageScopeKey(group({ scopes: [], active_scope_key: '' }), '/repo')).toBe('');
  });
});
