import { describe, expect, it } from 'vitest';
import { IpcError } from '@cccc/ipc-protocol';
import { isRecipientOf, normalizeRecipientTokens, resolveRecipients, splitRecipientTokens, toMatchesActor, type RecipientActor } from './recipients.js';

const actors: RecipientActor[] = [
  { id: 'lead', title: 'Lead Dev', enabled: true },
  { id: 'peer1', title: 'Peer One', enabled: true },
  { id: 'peer2', title: 'Twin', enabled: true },
  { id: 'peer3', title: 'twin', enabled: false },
  { id: 'voice', title: 'Voice', enabled: true, internal_kind: 'voice_secretary' },
];

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(IpcError);
    return (err as IpcError).code;
  }
}

describe('normalizeRecipientTokens', () => {
  it.each([
    [['@all'], ['@all']],
    [['@PEERS'], ['@peers']],
    [['@foreman'], ['@foreman']],
    [['user'], ['user']],
    [['@user'], ['user']],
    [['@peer1'], ['peer1']],
    [['peer1'], ['peer1']],
    [['peer one'], ['peer1']],
    [['@Lead Dev'], ['lead']],
    [['peer1', '@peer1', 'Peer One'], ['peer1']],
    [['peer1,peer2'], ['peer1', 'peer2']],
    [[' peer1 ', ''], ['peer1']],
    [[], []],
  ])('%j → %j', (input, expected) => {
    expect(normalizeRecipientTokens(input, actors)).toEqual(expected);
  });

  it.each([
    ['nobody', 'invalid_recipient'],
    ['@nobody', 'invalid_recipient'],
    ['twin', 'invalid_recipient'], // two actors share the title case-insensitively
    ['#other-group', 'invalid_recipient'],
    ['@', 'invalid_recipient'],
    ['PEER1', 'invalid_recipient'], // ids match exactly only
  ])('%s → %s', (token, code) => {
    expect(codeOf(() => normalizeRecipientTokens([token], actors))).toBe(code);
  });

  it('splits strings and comma lists, de-duplicating', () => {
    expect(splitRecipientTokens('a, b,a')).toEqual(['a', 'b']);
    expect(splitRecipientTokens(undefined)).toEqual([]);
  });
});

describe('toMatchesActor / isRecipientOf', () => {
  const a = (id: string) => actors.find((x) => x.id === id)!;
  it.each([
    [['@all'], 'lead', true],
    [['@all'], 'peer3', true],
    [['@all'], 'voice', false],
    [['voice'], 'voice', true],
    [['@peers'], 'lead', false],
    [['@peers'], 'peer1', true],
    [['@foreman'], 'lead', true],
    [['@foreman'], 'peer1', false],
    [['peer2'], 'peer2', true],
    [['peer2'], 'peer1', false],
    [['user'], 'lead', false],
    [[], 'peer1', true], // legacy empty `to` is a broadcast
    [[], 'voice', false],
  ])('%j matches %s: %s', (to, id, expected) => {
    expect(toMatchesActor(to, a(id), actors)).toBe(expected);
  });

  it('never delivers to the sender', () => {
    expect(isRecipientOf({ by: 'peer1', to: ['@all'] }, a('peer1'), actors)).toBe(false);
    expect(isRecipientOf({ by: 'peer1', to: ['@all'] }, a('peer2'), actors)).toBe(true);
  });
});

describe('resolveRecipients', () => {
  it.each([
    // by, to, mode, defaultSendTo, expected to, expected recipients
    ['user', [], 'send', undefined, ['@foreman'], ['lead']],
    ['user', [], 'send', 'broadcast', ['@all'], ['lead', 'peer1', 'peer2', 'peer3']],
    ['user', [], 'mail', 'foreman', ['@foreman'], ['lead']],
    ['peer1', [], 'send', 'broadcast', ['@all'], ['lead', 'peer2', 'peer3']],
    ['user', [], 'request_reply', 'broadcast', ['lead'], ['lead']],
    ['user', ['@foreman'], 'request_reply', undefined, ['lead'], ['lead']],
    ['user', ['@foreman', 'lead'], 'request_reply', undefined, ['lead'], ['lead']],
    ['lead', ['peer1', 'peer2'], 'request_reply', undefined, ['peer1', 'peer2'], ['peer1', 'peer2']],
    ['lead', ['@peers'], 'send', undefined, ['@peers'], ['peer1', 'peer2', 'peer3']],
    ['lead', ['@all', 'peer1'], 'mail', undefined, ['@all', 'peer1'], ['peer1', 'peer2', 'peer3']],
    ['peer1', ['user'], 'send', undefined, ['user'], []],
    ['user', ['peer3'], 'send', undefined, ['peer3'], ['peer3']], // user sends wake disabled actors
    ['lead', ['peer3'], 'mail', undefined, ['peer3'], ['peer3']], // Mail only fills the inbox
    ['user', ['voice'], 'send', undefined, ['voice'], ['voice']],
  ] as const)('%s → %j (%s, default %s) = %j / %j', (by, to, mode, defaultSendTo, expectedTo, expectedIds) => {
    const r = resolveRecipients({ by, to: [...to], mode, actors, defaultSendTo });
    expect(r.to).toEqual(expectedTo);
    expect(r.recipient_ids).toEqual(expectedIds);
    expect(r.audience).toBe(expectedTo[0] === 'user' ? 'user' : 'agents');
  });

  it('reports the enabled subset', () => {
    const r = resolveRecipients({ by: 'user', to: ['@peers'], mode: 'send', actors });
    expect(r.enabled_recipient_ids).toEqual(['peer1', 'peer2']);
  });

  it('replies fall back to the original sender, not default_send_to', () => {
    const r = resolveRecipients({ by: 'lead', to: [], mode: 'send', actors, defaultSendTo: 'broadcast', fallbackTo: ['peer2'] });
    expect(r.to).toEqual(['peer2']);
  });

  it.each([
    ['user', ['user', 'peer1'], 'send', 'mixed_recipient_kinds'],
    ['user', ['@user', '@all'], 'send', 'mixed_recipient_kinds'],
    ['peer1', ['user'], 'mail', 'mail_requires_actor_recipient'],
    ['user', ['@all'], 'request_reply', 'concrete_recipients_required'],
    ['user', ['@peers'], 'request_reply', 'concrete_recipients_required'],
    ['user', ['peer1', '@all'], 'request_reply', 'concrete_recipients_required'],
    ['lead', ['@foreman'], 'send', 'no_enabled_recipients'], // foreman → @foreman leaves nobody
    ['lead', [], 'send', 'no_enabled_recipients'], // default @foreman from the foreman itself
    ['lead', [], 'request_reply', 'no_enabled_recipients'],
    ['peer1', ['peer1'], 'send', 'no_enabled_recipients'],
    ['peer1', ['peer3'], 'send', 'no_enabled_recipients'], // an agent cannot wake a disabled actor
    ['user', ['user'], 'send', 'no_enabled_recipients'],
    ['user', ['ghost'], 'send', 'invalid_recipient'],
    ['user', ['#g_123'], 'mail', 'invalid_recipient'],
    ['user', ['peer1'], 'urgent', 'invalid_message_mode'],
  ] as const)('%s → %j (%s) fails with %s', (by, to, mode, code) => {
    expect(codeOf(() => resolveRecipients({ by, to: [...to], mode: mode as 'send', actors }))).toBe(code);
  });

  it('request_reply without an enabled foreman fails', () => {
    const noForeman = [{ ...actors[0]!, enabled: false }, ...actors.slice(1)];
    expect(codeOf(() => resolveRecipients({ by: 'user', to: [], mode: 'request_reply', actors: noForeman }))).toBe('no_enabled_recipients');
    expect(codeOf(() => resolveRecipients({ by: 'user', to: ['@foreman'], mode: 'request_reply', actors: [] }))).toBe('no_enabled_recipients');
  });
});
