import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeDiscord } from '@cccc/im/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, isAlive, startDaemonFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// Discord end to end: a real daemon, the real bridge child process, the fake Discord (gateway
// WebSocket + REST). A Discord thread is a channel, so "the same thread" is the same channel id.

const BOT = 'MTAe2e.secret-discord.bot-token';
const THREAD_CHANNEL = '300000000000000777';
let discord: FakeDiscord;
let fx: DaemonFixture;
let gid: string;

const bridgePid = () => fx.services.imBridges.pid(gid);
const userMessages = (text: string) =>
  fx.ledgerEvents(gid).filter((e) => e.kind === 'chat.message' && e.by === 'user' && e.data['text'] === text);
const posted = (fragment: string) => discord.posted.filter((p) => (p.body.content ?? '').includes(fragment));
const bridgeLog = () => {
  const p = join(fx.home, 'groups', gid, 'state', 'im_bridge.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};
const say = (content: string, id?: string) => discord.dispatchMessage({ content, channel_id: THREAD_CHANNEL, ...(id ? { id } : {}) });

beforeAll(async () => {
  discord = await FakeDiscord.start();
  process.env.CCCC_IM_DISCORD_API_BASE = discord.apiBaseUrl;
  fx = await startDaemonFixture();
  gid = await groupWithTeam(fx);
  await fx.call('group_start', { group_id: gid });
}, 60_000);
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
  await discord?.close();
  delete process.env.CCCC_IM_DISCORD_API_BASE;
});

describe('IM bridge end to end (real daemon, bridge child process, fake Discord)', () => {
  it('an unknown channel gets a key there; binding it authorizes that channel', async () => {
    await fx.call('im_config_set', { group_id: gid, platform: 'discord', bot_token: BOT, enabled: true });
    await waitFor(() => bridgePid(), 10_000, 'bridge pid');
    await waitFor(() => discord.ops(2).length > 0 && discord.openSockets > 0, 15_000, 'gateway identified');
    await waitFor(() => {
      try {
        say('hi');
        return true;
      } catch {
        return false; // READY not yet sent
      }
    }, 10_000, 'session ready');
    const reply = await waitFor(() => posted('cccc im bind')[0], 15_000, 'key reply');
    expect(reply.channelId).toBe(THREAD_CHANNEL);
    expect(reply.body.allowed_mentions).toEqual({ parse: [] });
    const key = /cccc im bind (\S+)/.exec(reply.body.content!)![1]!;
    expect(await fx.call('im_bind_chat', { group_id: gid, key })).toEqual({ chat_id: THREAD_CHANNEL, thread_id: 0, platform: 'discord' });
  });

  it('an authorized message becomes one user chat.message, even when dispatched twice', async () => {
    const id = '1200000000000009001';
    say('status please', id);
    await waitFor(() => userMessages('status please').length > 0, 15_000, 'user message');
    say('status please', id);
    say('marker');
    await waitFor(() => userMessages('marker').length > 0, 15_000, 'marker');
    expect(userMessages('status please')).toHaveLength(1);
  });

  it('a reply to the user goes to the same channel; agent-to-agent stays inside', async () => {
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'all green', message_mode: 'send' });
    await fx.call('send', { group_id: gid, by: 'lead', to: ['p1'], text: 'internal only', message_mode: 'send' });
    const post = await waitFor(() => posted('all green')[0], 15_000, 'outbound post');
    expect(post).toMatchObject({ channelId: THREAD_CHANNEL, body: { content: '[lead] all green' } });
    expect(posted('internal only')).toEqual([]);
  });

  it('waits out a 429 and posts once', async () => {
    discord.rateLimitNext(1);
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'rate limited', message_mode: 'send' });
    await waitFor(() => posted('rate limited')[0], 15_000, 'post after 429');
    await new Promise((r) => setTimeout(r, 500));
    expect(posted('rate limited')).toHaveLength(1);
  });

  it('a dropped connection loses nothing: a message dispatched while it is down arrives after RESUME', async () => {
    discord.dropConnections();
    say('while down');
    await waitFor(() => userMessages('while down').length > 0, 20_000, 'message after resume');
    expect(discord.ops(6).length).toBeGreaterThan(0);
    expect(userMessages('while down')).toHaveLength(1);
  });

  it('a revoked channel is heard no more and gets a new key instead', async () => {
    expect(await fx.call('im_revoke_chat', { group_id: gid, chat_id: THREAD_CHANNEL })).toEqual({ revoked: true, unsubscribed: true });
    say('still there?');
    await waitFor(() => posted('cccc im bind').length >= 2, 15_000, 'a new key offered instead');
    expect(userMessages('still there?')).toEqual([]);
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'after revoke', message_mode: 'send' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(posted('after revoke')).toEqual([]);
  });

  it('a rejected token makes the bridge exit and the supervisor back off; no token leaks', async () => {
    const before = bridgePid()!;
    discord.rejectedTokens.add(BOT);
    discord.closeWith(4004);
    await waitFor(() => bridgeLog().includes('the platform rejected the bot token'), 15_000, 'auth failure logged');
    await waitFor(() => !isAlive(before), 10_000, 'bridge exited');
    expect(fx.daemonLog()).toMatch(/im bridge exited; restarting after backoff.*"code":3.*"delay_ms":60000/);
    for (const text of [fx.publicText(), bridgeLog(), JSON.stringify(fx.ledgerEvents(gid))]) expect(text).not.toContain('secret-discord');
  });
});
