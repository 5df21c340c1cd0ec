import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeSlack } from '@cccc/im/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, isAlive, startDaemonFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// Slack end to end: a real daemon, the real bridge child process, the fake Slack (Web API +
// Socket Mode). thread_ts is a string Slack owns; it must come back byte for byte.

const BOT = 'xoxb-e2e-secret-slack-bot';
const APP = 'xapp-e2e-secret-slack-app';
const CHANNEL = 'C0E2E0001';
const THREAD = '1710000000.100'; // a trailing zero a float round trip would lose
let slack: FakeSlack;
let fx: DaemonFixture;
let gid: string;
let nextTs = 1;

const bridgePid = (g = gid) => fx.services.imBridges.pid(g);
const userMessages = (text: string) =>
  fx.ledgerEvents(gid).filter((e) => e.kind === 'chat.message' && e.by === 'user' && e.data['text'] === text);
const posted = (fragment: string) => slack.posted.filter((p) => p.text.includes(fragment));
const bridgeLog = (g = gid) => {
  const p = join(fx.home, 'groups', g, 'state', 'im_bridge.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};
const message = (text: string, ts = `1710001${String(nextTs++).padStart(3, '0')}.000200`) =>
  ({ type: 'message', channel: CHANNEL, user: 'U0ALICE', text, ts, thread_ts: THREAD, channel_type: 'channel' });

beforeAll(async () => {
  slack = await FakeSlack.start();
  // The bridge child inherits the daemon's environment: point it at the fake Web API.
  process.env.CCCC_IM_SLACK_API_BASE = slack.apiBaseUrl;
  fx = await startDaemonFixture();
  gid = await groupWithTeam(fx);
  await fx.call('group_start', { group_id: gid });
}, 60_000);
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
  await slack?.close();
  delete process.env.CCCC_IM_SLACK_API_BASE;
});

describe('IM bridge end to end (real daemon, bridge child process, fake Slack)', () => {
  it('a malformed token is a configuration error the supervisor waits out, not a crash loop', async () => {
    const other = await groupWithTeam(fx, 'badtoken');
    await fx.call('group_start', { group_id: other });
    await fx.call('im_config_set', { group_id: other, platform: 'slack', bot_token: 'not-a-slack-token', app_token: APP, enabled: true });
    await waitFor(() => bridgeLog(other).includes('no adapter or token for the configured platform'), 15_000, 'config error logged');
    await waitFor(() => /"code":78.*"delay_ms":60000/.test(fx.daemonLog()), 10_000, 'supervisor backs off');
    expect(bridgeLog(other)).not.toContain('not-a-slack-token');
    expect(bridgeLog(other)).not.toContain('ZodError');
    await fx.call('group_stop', { group_id: other });
    await fx.call('group_delete', { group_id: other });
  });

  it('an unknown channel gets a key in the same thread; binding it keeps thread_ts a string', async () => {
    await fx.call('im_config_set', { group_id: gid, platform: 'slack', bot_token: BOT, app_token: APP, enabled: true });
    await waitFor(() => bridgePid(), 10_000, 'bridge pid');
    await waitFor(() => slack.openSockets > 0, 15_000, 'socket mode connected');
    slack.deliver(message('hi'));
    const reply = await waitFor(() => posted('cccc im bind')[0], 15_000, 'key reply');
    expect(reply.channel).toBe(CHANNEL);
    expect(reply.rawThreadTs).toBe(`"${THREAD}"`);
    const key = /cccc im bind (\S+)/.exec(reply.text)![1]!;
    const { pending } = await fx.call('im_list_pending', { group_id: gid });
    expect(pending).toEqual([expect.objectContaining({ key, chat_id: CHANNEL, thread_id: THREAD, platform: 'slack' })]);
    expect(await fx.call('im_bind_chat', { group_id: gid, key })).toEqual({ chat_id: CHANNEL, thread_id: THREAD, platform: 'slack' });
    const subscribers = readFileSync(join(fx.home, 'groups', gid, 'state', 'im_subscribers.json'), 'utf8');
    expect(subscribers).toContain(`"${CHANNEL}:${THREAD}"`);
  });

  it('an authorized message becomes one user chat.message, even when Slack delivers it twice', async () => {
    const event = message('status please');
    slack.deliver(event);
    await waitFor(() => userMessages('status please').length > 0, 15_000, 'user message');
    slack.deliver(event); // a second envelope carrying the same message (same channel and ts)
    slack.deliver(message('marker'));
    await waitFor(() => userMessages('marker').length > 0, 15_000, 'marker');
    expect(userMessages('status please')).toHaveLength(1);
  });

  it('a reply to the user goes to the same channel and thread, thread_ts byte-exact; agent-to-agent stays inside', async () => {
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'all green', message_mode: 'send' });
    await fx.call('send', { group_id: gid, by: 'lead', to: ['p1'], text: 'internal only', message_mode: 'send' });
    const post = await waitFor(() => posted('all green')[0], 15_000, 'outbound post');
    expect(post).toMatchObject({ channel: CHANNEL, text: '[lead] all green', rawThreadTs: `"${THREAD}"` });
    expect(posted('internal only')).toEqual([]);
  });

  it('waits out a 429 on chat.postMessage and posts once', async () => {
    slack.rateLimit('chat.postMessage', 1);
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'rate limited', message_mode: 'send' });
    await waitFor(() => posted('rate limited')[0], 15_000, 'post after 429');
    await new Promise((r) => setTimeout(r, 500));
    expect(posted('rate limited')).toHaveLength(1);
  });

  it('a dropped connection loses nothing: a message sent while it is down arrives after the reconnect', async () => {
    const opened = slack.connectionsOpened;
    slack.dropConnections();
    slack.deliver(message('while down'));
    await waitFor(() => userMessages('while down').length > 0, 20_000, 'message after reconnect');
    expect(slack.connectionsOpened).toBeGreaterThan(opened);
    expect(userMessages('while down')).toHaveLength(1);
  });

  it('a revoked channel is heard no more and gets a new key instead', async () => {
    expect(await fx.call('im_revoke_chat', { group_id: gid, chat_id: CHANNEL, thread_id: THREAD })).toEqual({ revoked: true, unsubscribed: true });
    slack.deliver(message('still there?'));
    await waitFor(() => posted('cccc im bind').length >= 2, 15_000, 'a new key offered instead');
    expect(userMessages('still there?')).toEqual([]);
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'after revoke', message_mode: 'send' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(posted('after revoke')).toEqual([]);
  });

  it('an expired token makes the bridge exit and the supervisor back off; no token leaks', async () => {
    // Re-bind so there is a subscriber to post to: Socket Mode runs on the app token, so an
    // expired bot token shows when the bridge next uses it (chat.postMessage).
    slack.deliver(message('again'));
    const reply = await waitFor(() => posted('cccc im bind')[2], 15_000, 'third key');
    await fx.call('im_bind_chat', { group_id: gid, key: /cccc im bind (\S+)/.exec(reply.text)![1]! });
    const before = bridgePid()!;
    slack.rejectedTokens.set(BOT, 'token_expired');
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'expired', message_mode: 'send' });
    await waitFor(() => bridgeLog().includes('the platform rejected the bot token'), 15_000, 'auth failure logged');
    await waitFor(() => !isAlive(before), 10_000, 'bridge exited');
    expect(posted('expired')).toEqual([]);
    expect(fx.daemonLog()).toMatch(/im bridge exited; restarting after backoff.*"code":3.*"delay_ms":60000/);
    for (const text of [fx.publicText(), bridgeLog(), JSON.stringify(fx.ledgerEvents(gid))]) {
      expect(text).not.toContain('e2e-secret-slack');
    }
  });
});
