import { describe, expect, it } from 'vitest';
import type { CCCSEventV1, RecipientStatus } from '@cccc/ipc-protocol';
// The browser app's pure chat and settings logic (no DOM), run by the web vitest project.
import { applyCandidate, candidates, mentionAt, recipientsOf } from './mentions';
import { appendLive, chatFields, mergeOlder, modeLabel, staleIdsFor, statusLabels } from './message';
import { diffSettings, formFromSettings } from '../settings/settings-form';

const ev = (id: string, kind: string, data: Record<string, unknown>): CCCSEventV1 =>
  ({ v: 1, id, ts: '2026-01-01T00:00:00Z', kind, group_id: 'g', scope_key: '', by: 'user', data }) as CCCSEventV1;
const status = (s: Partial<RecipientStatus>): RecipientStatus => ({
  delivery_state: null,
  read: false,
  reply_requested: false,
  replied: false,
  cancelled: false,
  delivery_confirmation: null,
  ...s,
});

describe('composer @-recipients', () => {
  it('finds the mention being typed before the caret only', () => {
    expect(mentionAt('hi @pe', 6)).toEqual({ start: 3, query: 'pe' });
    expect(mentionAt('mail me@example', 15)).toBeNull();
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
  });
  it('ranks actors before selectors once a prefix is typed, selectors first otherwise', () => {
    const actors = [{ id: 'peer1', title: 'Reviewer' }, { id: 'lead' }];
    expect(candidates('pe', actors).map((c) => c.token)).toEqual(['@peer1', '@peers']);
    expect(candidates('', actors).map((c) => c.token)).toEqual(['@all', '@foreman', '@peers', '@peer1', '@lead']);
    expect(candidates('rev', actors).map((c) => c.token)).toEqual(['@peer1']);
  });
  it('replaces the typed mention and puts the caret after it', () => {
    expect(applyCandidate('hi @pe there', 3, 6, '@peer1')).toEqual({ text: 'hi @peer1 there', caret: 10 });
  });
  it('addresses only known actors and selectors, each once', () => {
    expect(recipientsOf('@peer1 and @all, cc @peer1. mail a@b.c @ghost', ['peer1'])).toEqual(['peer1', '@all']);
  });
});

describe('message rows', () => {
  it('reads chat fields and labels legacy rows "normal"', () => {
    const f = chatFields(ev('a', 'chat.message', { text: 't', to: ['peer1'], message_mode: 'mail', reply_to: 'x', quote_text: 'q' }));
    expect(f).toMatchObject({ text: 't', to: ['peer1'], mode: 'mail', replyTo: 'x', quote: 'q' });
    expect(modeLabel(chatFields(ev('b', 'chat.message', { text: '' })).mode)).toBe('normal');
    expect(modeLabel('request_reply')).toBe('request reply');
  });
  it('shows typed-but-not-submitted for an accepted but unconfirmed delivery', () => {
    expect(statusLabels(status({ delivery_state: 'accepted', delivery_confirmation: 'unconfirmed' }), 'send')[0]).toEqual({ text: 'typed but not submitted', tone: 'warn' });
    expect(statusLabels(status({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' }), 'send')[0]!.text).toBe('delivered · submitted');
    expect(statusLabels(status({ delivery_state: 'accepted' }), 'send')[0]!.text).toBe('delivered');
  });
  it('shows Mail read state and the reply obligation', () => {
    expect(statusLabels(status({ read: true }), 'mail').map((l) => l.text)).toEqual(['in inbox', 'read']);
    expect(statusLabels(status({ delivery_state: 'accepted', reply_requested: true }), 'request_reply').map((l) => l.text)).toEqual(['delivered', 'awaiting reply']);
    expect(statusLabels(status({ delivery_state: 'accepted', reply_requested: true, replied: true }), 'request_reply').at(-1)!.text).toBe('replied');
    expect(statusLabels(status({ delivery_state: 'failed' }), 'send')[0]!.tone).toBe('bad');
  });
  it('knows which loaded rows a live event makes stale', () => {
    const loaded = [ev('m1', 'chat.message', { text: '', message_mode: 'mail' }), ev('s1', 'chat.message', { text: '', message_mode: 'send' })];
    expect(staleIdsFor(ev('d', 'runtime.delivery', { source_event_id: 's1' }), loaded)).toEqual(['s1']);
    expect(staleIdsFor(ev('c', 'x.cccc.delivery_confirmation', { source_event_id: 's1' }), loaded)).toEqual(['s1']);
    expect(staleIdsFor(ev('r', 'mail.read', { actor_id: 'peer1', event_id: 'm1' }), loaded)).toEqual(['m1']);
    expect(staleIdsFor(ev('n', 'chat.message', { text: '', reply_to: 's1' }), loaded)).toEqual(['s1', 'n']);
  });
  it('merges pages without duplicates, in append order', () => {
    const a = ev('a', 'chat.message', { text: '' });
    const b = ev('b', 'chat.message', { text: '' });
    const c = ev('c', 'chat.message', { text: '' });
    expect(mergeOlder([a, b], [b, c]).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    const live = appendLive([a, b], c);
    expect(appendLive(live, c)).toBe(live);
  });
});

describe('settings form', () => {
  it('fills defaults and sends only changed fields as flat spec names', () => {
    const saved = formFromSettings({ messaging: { default_send_to: 'foreman' }, delivery: {} });
    expect(saved.mail_notice_after_seconds).toBe('1800');
    expect(saved.terminal_transcript_visibility).toBe('foreman');
    expect(diffSettings(saved, { ...saved, mail_notice_after_seconds: '600', terminal_transcript_visibility: 'all' })).toEqual({
      ok: true,
      patch: { mail_notice_after_seconds: 600, terminal_transcript_visibility: 'all' },
    });
    expect(diffSettings(saved, { ...saved, reply_notice_after_seconds: '' })).toMatchObject({ ok: false });
    expect(diffSettings(saved, { ...saved, reply_notice_after_seconds: '-1' })).toMatchObject({ ok: false });
  });
});
