import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ImAuthority } from '@cccc/im';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;
const TOKEN = '123456:AAE-very-secret-bot-token';

const stateDir = () => join(fx.home, 'groups', gid, 'state');
/** The three authority files, the group doc and the ledger: what a refused request must not change. */
function imSnapshot() {
  const files = ['im_pending_keys.json', 'im_authorized_chats.json', 'im_subscribers.json'].map((n) =>
    existsSync(join(stateDir(), n)) ? readFileSync(join(stateDir(), n), 'utf8') : null,
  );
  return { files, ...fx.snapshot(gid) };
}
async function refused(op: string, args: Record<string, unknown>): Promise<string> {
  const before = imSnapshot();
  const code = await fx.codeOf(op, args);
  expect(imSnapshot()).toEqual(before);
  return code;
}
/** What the bridge does for an unknown chat: a key minted under the same lock the ops use. */
const askForKey = (chat_id: string, thread_id: number | string = 0, platform = 'telegram') =>
  new ImAuthority(stateDir()).requestKey({ chat_id, thread_id, platform });

beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = await groupWithTeam(fx);
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

describe('im_* over the socket', () => {
  it('lists a pending key, binds it (authorized + subscribed), and the spent key is invalid_key', async () => {
    const key = await askForKey('-1001', 7);
    const { pending } = await fx.call('im_list_pending', { group_id: gid });
    expect(pending).toEqual([expect.objectContaining({ key, chat_id: '-1001', thread_id: 7, platform: 'telegram', expires_in_seconds: expect.any(Number) })]);
    expect(pending[0]!.expires_at - pending[0]!.created_at).toBe(600);

    expect(await fx.call('im_bind_chat', { group_id: gid, key })).toEqual({ chat_id: '-1001', thread_id: 7, platform: 'telegram' });
    const { authorized } = await fx.call('im_list_authorized', { group_id: gid });
    expect(authorized).toEqual([expect.objectContaining({ chat_id: '-1001', thread_id: 7, platform: 'telegram', key_used: key })]);
    expect(JSON.parse(readFileSync(join(stateDir(), 'im_subscribers.json'), 'utf8'))['-1001:7']).toMatchObject({ subscribed: true });
    expect((await fx.call('im_list_pending', { group_id: gid })).pending).toEqual([]);
    expect(await refused('im_bind_chat', { group_id: gid, key })).toBe('invalid_key');
  });

  it('keeps a Slack thread ts byte for byte through bind, list and revoke', async () => {
    const ts = '1710000000.100';
    const key = await askForKey('C9', ts, 'slack');
    expect(await fx.call('im_bind_chat', { group_id: gid, key })).toEqual({ chat_id: 'C9', thread_id: ts, platform: 'slack' });
    expect(readFileSync(join(stateDir(), 'im_authorized_chats.json'), 'utf8')).toContain(`"thread_id": "${ts}"`);
    expect(await fx.call('im_revoke_chat', { group_id: gid, chat_id: 'C9', thread_id: ts })).toEqual({ revoked: true, unsubscribed: true });
    expect(await fx.call('im_revoke_chat', { group_id: gid, chat_id: 'C9', thread_id: ts })).toEqual({ revoked: false, unsubscribed: false });
  });

  it('rejects pending keys idempotently', async () => {
    const key = await askForKey('555');
    expect(await fx.call('im_reject_pending', { group_id: gid, key })).toEqual({ rejected: true });
    expect(await fx.call('im_reject_pending', { group_id: gid, key })).toEqual({ rejected: false });
    expect(await refused('im_bind_chat', { group_id: gid, key })).toBe('invalid_key');
  });

  it('revoke removes authorization and subscription; an unsupported thread_id type means no thread', async () => {
    const key = await askForKey('777');
    await fx.call('im_bind_chat', { group_id: gid, key });
    expect(await fx.call('im_revoke_chat', { group_id: gid, chat_id: '777', thread_id: { odd: true } })).toEqual({ revoked: true, unsubscribed: true });
    const { authorized } = await fx.call('im_list_authorized', { group_id: gid });
    expect(authorized.map((a) => a['chat_id'])).toEqual(['-1001']);
    expect(JSON.parse(readFileSync(join(stateDir(), 'im_subscribers.json'), 'utf8'))).not.toHaveProperty('777');
  });

  it('refuses with the spec codes and changes nothing', async () => {
    const live = await askForKey('888');
    expect(await refused('im_bind_chat', { group_id: gid, key: '' })).toBe('missing_key');
    expect(await refused('im_bind_chat', { group_id: gid })).toBe('missing_key');
    expect(await refused('im_bind_chat', { group_id: '', key: live })).toBe('missing_group_id');
    expect(await refused('im_bind_chat', { group_id: 'g_nope', key: live })).toBe('group_not_found');
    expect(await refused('im_bind_chat', { group_id: gid, key: 'no-such-key' })).toBe('invalid_key');
    expect(await refused('im_bind_chat', { group_id: gid, key: live, by: 'p1' })).toBe('permission_denied');
    expect(await refused('im_reject_pending', { group_id: gid, key: ' ' })).toBe('missing_key');
    expect(await refused('im_reject_pending', { group_id: 'g_nope', key: live })).toBe('group_not_found');
    expect(await refused('im_revoke_chat', { group_id: gid, chat_id: '' })).toBe('missing_chat_id');
    expect(await refused('im_revoke_chat', { group_id: gid, chat_id: '-1001', thread_id: 7, by: 'p1' })).toBe('permission_denied');
    expect(await refused('im_list_pending', { group_id: '' })).toBe('missing_group_id');
    expect(await refused('im_list_authorized', { group_id: 'g_nope' })).toBe('group_not_found');
    expect((await fx.call('im_list_pending', { group_id: gid })).pending.map((p) => p.key)).toContain(live);
  });
});

describe('im_config_* (extension)', () => {
  it('is advertised in ping', async () => {
    const ping = await fx.call('ping', {});
    expect(ping.capabilities).toMatchObject({ im_config_get: true, im_config_set: true });
  });

  it('stores the token as a 0600 secret, never in group.yaml, the ledger, the log or a read', async () => {
    expect(await fx.call('im_config_get', { group_id: gid })).toEqual({ group_id: gid, im: null });
    expect(await refused('im_config_set', { group_id: gid, enabled: true })).toBe('invalid_request');
    expect(await refused('im_config_set', { group_id: gid, platform: 'telegram', bot_token: 'has space' })).toBe('invalid_request');
    expect(await refused('im_config_set', { group_id: gid, platform: 'telegram', bot_token: TOKEN, by: 'p1' })).toBe('permission_denied');
    const set = await fx.call('im_config_set', { group_id: gid, platform: 'telegram', bot_token: TOKEN });
    expect(set.im).toEqual({ platform: 'telegram', enabled: false, forward_public_notify: false, bot_token_present: true, app_token_present: false });
    expect((await fx.call('im_config_set', { group_id: gid, enabled: true })).im).toMatchObject({ enabled: true, bot_token_present: true });
    expect(fx.groupYaml(gid)).toMatch(/im:\n\s+platform: telegram\n\s+enabled: true/);
    const secret = join(fx.home, 'state', 'secrets', 'im', `${gid}.json`);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(secret, 'utf8'))).toEqual({ bot_token: TOKEN });
    expect(fx.publicText()).not.toContain('AAE-very-secret');
    expect(JSON.stringify(await fx.call('im_config_get', { group_id: gid }))).not.toContain('AAE-very-secret');
  });

  it('an explicit unset clears the configuration, the token and the authority files', async () => {
    expect((await fx.call('im_list_authorized', { group_id: gid })).authorized).not.toEqual([]);
    // A former Rust im_bridge block: its durable fields are consumed, runtime diagnostics stay.
    const yamlPath = join(fx.home, 'groups', gid, 'group.yaml');
    writeFileSync(yamlPath, `${fx.groupYaml(gid)}im_bridge:\n  enabled: true\n  authorized:\n    - chat_id: "1"\n  last_error: timeout\n`);
    expect(await fx.call('im_config_set', { group_id: gid, unset: true })).toEqual({ group_id: gid, im: null });
    expect(fx.groupYaml(gid)).toMatch(/^im_bridge:\n {2}last_error: timeout\n(?! )/m);
    expect(fx.groupYaml(gid)).not.toContain('chat_id: "1"');
    expect(fx.groupYaml(gid)).not.toMatch(/^im:/m);
    expect(existsSync(join(fx.home, 'state', 'secrets', 'im', `${gid}.json`))).toBe(false);
    expect((await fx.call('im_list_authorized', { group_id: gid })).authorized).toEqual([]);
    expect((await fx.call('im_list_pending', { group_id: gid })).pending).toEqual([]);
    expect(readdirSync(stateDir())).toContain('im_state.lock');
  });
});
