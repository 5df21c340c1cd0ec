import { describe, expect, it } from 'vitest';
import type { ActorListEntry, CCCSEventV1, RecipientStatus } from '@cccc/ipc-protocol';
// The conversation's pure parts: days and relative times, notices for the user, filters, senders.
import { matchesFilter, statusCandidates, userReplyTargets } from './filters';
import { noticeForUser } from './notices';
import { senderOf } from './sender';
import { dayKey, dayLabel, relativeTime } from './time';
import { buildTimeline } from './timeline';

const local = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).toISOString();
const NOW = Date.parse(local(2026, 8, 3, 15, 0));
const ev = (id: string, kind: string, data: Record<string, unknown>, ts = local(2026, 8, 3), by = 'user'): CCCSEventV1 => ({ v: 1, id, ts, kind, group_id: 'g', scope_key: '', by, data });
const status = (s: Partial<RecipientStatus>): RecipientStatus => ({ delivery_state: null, read: false, reply_requested: false, replied: false, cancelled: false, delivery_confirmation: null, ...s });

describe('times', () => {
  it('relative while recent, the clock today, the date before', () => {
    expect(relativeTime(new Date(NOW - 20_000).toISOString(), NOW)).toBe('just now');
    expect(relativeTime(new Date(NOW - 5 * 60_000).toISOString(), NOW)).toBe('5 min ago');
    expect(relativeTime(new Date(NOW - 3 * 3600_000).toISOString(), NOW)).toBe('3 h ago');
    expect(relativeTime(local(2026, 8, 3, 8, 5), NOW)).toMatch(/08.05/);
    expect(relativeTime(local(2026, 7, 30, 8, 5), NOW)).toMatch(/30/);
  });
  it('labels days Today, Yesterday, then by date', () => {
    expect(dayLabel(local(2026, 8, 3, 1), NOW)).toBe('Today');
    expect(dayLabel(local(2026, 8, 2, 23), NOW)).toBe('Yesterday');
    expect(dayLabel(local(2026, 7, 20), NOW)).toMatch(/2026/);
    expect(dayKey(local(2026, 8, 2, 23, 59))).toBe('2026-08-02');
  });
});

describe('timeline', () => {
  it('puts a separator before each new day and shows only the user\'s notices', () => {
    const items = buildTimeline(
      [
        ev('a', 'chat.message', { text: 'one' }, local(2026, 8, 2, 9)),
        ev('n1', 'system.notify', { kind: 'info', title: 'Build green', message: 'all tests pass', target_actor_id: null }, local(2026, 8, 2, 10), 'lead'),
        ev('n2', 'system.notify', { kind: 'nudge', title: 'psst', message: 'reply', target_actor_id: 'peer1' }, local(2026, 8, 2, 11), 'system'),
        ev('n3', 'system.notify', { kind: 'mail_notice', title: 'mail', message: 'x', target_actor_id: null }, local(2026, 8, 2, 11), 'system'),
        ev('b', 'chat.message', { text: 'two' }, local(2026, 8, 3, 9)),
      ],
      NOW,
    );
    expect(items.map((i) => (i.type === 'day' ? `[${i.label}]` : i.key))).toEqual(['[Yesterday]', 'a', 'n1', '[Today]', 'b']);
    expect(noticeForUser(ev('n', 'system.notify', { kind: 'info', title: '', message: '' }))).toBeNull();
    expect(noticeForUser(ev('n', 'system.notify', { kind: 'error', priority: 'high', title: 'Oops', target_actor_id: 'user' }))).toEqual({ kind: 'error', priority: 'high', title: 'Oops', message: '' });
  });
});

describe('filters', () => {
  const ask = ev('ask', 'chat.message', { text: 'q', to: ['peer1'], message_mode: 'request_reply' });
  const askUser = ev('askUser', 'chat.message', { text: 'may I?', to: ['user'], message_mode: 'request_reply' }, local(2026, 8, 3), 'lead');
  const mail = ev('mail', 'chat.message', { text: 'm', to: ['peer1'], message_mode: 'mail' });
  const agent = ev('agent', 'chat.message', { text: 'done', to: ['user'], message_mode: 'send' }, local(2026, 8, 3), 'lead');
  const events = [ask, askUser, mail, agent];
  const ctx = (statuses: Record<string, Record<string, RecipientStatus>>, replied: string[] = []) => ({ statuses: new Map(Object.entries(statuses)), repliedByUser: new Set(replied) });

  it('from user keeps the user\'s messages', () => {
    expect(events.filter((e) => matchesFilter('user', e, ctx({}))).map((e) => e.id)).toEqual(['ask', 'mail']);
  });
  it('needs reply: open obligations of agents, and the user\'s own answer still owed', () => {
    const open = ctx({ ask: { peer1: status({ reply_requested: true }) } });
    expect(events.filter((e) => matchesFilter('needs_reply', e, open)).map((e) => e.id)).toEqual(['ask', 'askUser']);
    const answered = ctx({ ask: { peer1: status({ reply_requested: true, replied: true }) } }, ['askUser']);
    expect(events.filter((e) => matchesFilter('needs_reply', e, answered))).toEqual([]);
    expect(userReplyTargets([ev('r', 'chat.message', { text: 'yes', reply_to: 'askUser' })])).toEqual(new Set(['askUser']));
  });
  it('unread: Mail some recipient has not read', () => {
    expect(matchesFilter('unread', mail, ctx({ mail: { peer1: status({ read: false }) } }))).toBe(true);
    expect(matchesFilter('unread', mail, ctx({ mail: { peer1: status({ read: true }) } }))).toBe(false);
    expect(statusCandidates('unread', events)).toEqual(['mail']);
    expect(statusCandidates('needs_reply', events)).toEqual(['ask', 'askUser']);
    expect(statusCandidates('all', events)).toEqual([]);
  });
  it('notices show only under All', () => {
    const n = ev('n', 'system.notify', { kind: 'info', title: 't' });
    expect(matchesFilter('all', n, ctx({}))).toBe(true);
    expect(matchesFilter('user', n, ctx({}))).toBe(false);
  });
});

describe('senders', () => {
  it('the user is "You"; an agent has its title, initials, a stable colour, runtime and foreman marker', () => {
    expect(senderOf('user', undefined, { title: null, runtime: null })).toMatchObject({ name: 'You', isUser: true });
    const lead = { id: 'lead', title: 'Lead Dev', runtime: 'claude', role: 'foreman' } as ActorListEntry;
    const s = senderOf('lead', lead, { title: null, runtime: null });
    expect(s).toMatchObject({ name: 'Lead Dev', initials: 'LD', runtime: 'claude', foreman: true });
    expect(senderOf('lead', undefined, { title: null, runtime: 'codex' })).toMatchObject({ name: 'lead', initials: 'LE', runtime: 'codex', foreman: false, hue: s.hue });
  });
});
