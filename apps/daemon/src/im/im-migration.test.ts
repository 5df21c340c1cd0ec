import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemonFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.16 one-way migration through a real daemon start: a home the reference wrote (tokens in
// group.yaml:im, the former Rust im_bridge durable fields) becomes canonical before any bridge
// reads it. The pure rules are in libs/im/src/migration/legacy.test.ts.

const fixtures: DaemonFixture[] = [];
afterEach(async () => {
  delete process.env.LEGACY_APP_TOKEN_VAR;
  for (const f of fixtures.splice(0).reverse()) await f[Symbol.asyncDispose]();
});

async function homeWithGroup(): Promise<{ home: string; gid: string; first: DaemonFixture }> {
  const first = await startDaemonFixture();
  fixtures.push(first);
  const { group_id } = await first.call('group_create', { title: 'legacy' });
  await first.daemon.stop();
  return { home: first.home, gid: group_id, first };
}

const groupYaml = (home: string, gid: string) => join(home, 'groups', gid, 'group.yaml');
const stateFile = (home: string, gid: string, name: string) => join(home, 'groups', gid, 'state', name);
/** Sets top-level keys, leaving the rest of the document as the daemon wrote it. */
function editGroup(home: string, gid: string, edit: (doc: Record<string, unknown>) => void): void {
  const doc = parseDocument(readFileSync(groupYaml(home, gid), 'utf8'));
  const keys: Record<string, unknown> = {};
  edit(keys);
  for (const [key, value] of Object.entries(keys)) doc.set(key, value);
  writeFileSync(groupYaml(home, gid), doc.toString());
}

describe('IM legacy migration at daemon start', () => {
  it('moves group.yaml tokens to secrets, imports the im_bridge durable fields, then retires them', async () => {
    const { home, gid } = await homeWithGroup();
    editGroup(home, gid, (doc) => {
      doc['im'] = { platform: 'slack', enabled: false, bot_token: 'xoxb-legacy-secret', app_token_env: 'LEGACY_APP_TOKEN_VAR' };
      doc['im_bridge'] = {
        config: { platform: 'telegram' },
        enabled: true,
        authorized: { 'C1:1710000000.100': { chat_id: 'C1', thread_id: '1710000000.100', platform: 'slack', authorized_at: 1760000000.5, key_used: 'k' } },
        subscribers: { 'C1:1710000000.100': { subscribed: true, thread_id: '1710000000.100', platform: 'slack' } },
        pending: {},
        last_error: 'diagnostic kept',
      };
    });
    // The daemon resolves a *_env name from its own environment (the bridge child inherits it too).
    process.env.LEGACY_APP_TOKEN_VAR = 'xapp-legacy-secret';
    const fx = await startDaemonFixture({ home });
    fixtures.push(fx);
    await waitFor(() => fx.daemonLog().includes('legacy group.yaml fields migrated'), 10_000, 'migration logged');

    expect(await fx.call('im_config_get', { group_id: gid })).toMatchObject({
      im: { platform: 'slack', enabled: false, bot_token_present: true, app_token_present: true },
    });
    const { authorized } = await fx.call('im_list_authorized', { group_id: gid });
    expect(authorized).toEqual([expect.objectContaining({ chat_id: 'C1', thread_id: '1710000000.100', platform: 'slack' })]);
    expect(readFileSync(stateFile(home, gid, 'im_subscribers.json'), 'utf8')).toContain('"thread_id": "1710000000.100"');

    const doc = parse(readFileSync(groupYaml(home, gid), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(doc['im']).toEqual({ platform: 'slack', enabled: false }); // canonical im won over im_bridge.config
    expect(doc['im_bridge']).toEqual({ last_error: 'diagnostic kept' });
    for (const text of [fx.publicText(), fx.daemonLog()]) expect(text).not.toMatch(/legacy-secret/);
  }, 60_000);

  it('canonical files win; an env-named token whose variable is unset stays in group.yaml with a warning', async () => {
    const { home, gid } = await homeWithGroup();
    const canonical = { C9: { chat_id: 'C9', thread_id: 0, platform: 'discord', authorized_at: 1, key_used: 'k9', authorization_source: 'binding_key' } };
    writeFileSync(stateFile(home, gid, 'im_authorized_chats.json'), JSON.stringify(canonical));
    editGroup(home, gid, (doc) => {
      doc['im'] = { platform: 'discord', enabled: false, token_env: 'UNSET_DISCORD_TOKEN_VAR' };
      doc['im_bridge'] = { authorized: { C1: { chat_id: 'C1', thread_id: 0, platform: 'discord' } }, subscribers: { C1: { subscribed: true } } };
    });
    const fx = await startDaemonFixture({ home });
    fixtures.push(fx);
    await waitFor(() => fx.daemonLog().includes('legacy group.yaml fields migrated'), 10_000, 'migration logged');
    const { authorized } = await fx.call('im_list_authorized', { group_id: gid });
    expect(authorized.map((a) => a.chat_id)).toEqual(['C9']);
    expect(existsSync(stateFile(home, gid, 'im_subscribers.json'))).toBe(true); // absent before: imported
    const doc = parse(readFileSync(groupYaml(home, gid), 'utf8')) as Record<string, unknown>;
    expect(doc['im']).toEqual({ platform: 'discord', enabled: false, token_env: 'UNSET_DISCORD_TOKEN_VAR' });
    expect(doc['im_bridge']).toBeUndefined();
    expect(fx.daemonLog()).toContain('token_env=UNSET_DISCORD_TOKEN_VAR is not set');
  }, 60_000);
});
