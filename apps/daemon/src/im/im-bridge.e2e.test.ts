import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeTelegramServer } from '@cccc/im/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, isAlive, startDaemonFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

const TOKEN = '777001:AAE-e2e-secret-bot-token';
let tg: FakeTelegramServer;
let fx: DaemonFixture;
let gid: string;
const CHAT = -100555;
const TOPIC = 7;

const bridgePid = () => fx.services.imBridges.pid(gid);
const userMessages = (text: string) =>
  fx.ledgerEvents(gid).filter((e) => e.kind === 'chat.message' && e.by === 'user' && e.data['text'] === text);
const sentTexts = (fragment: string) => tg.sent.filter((s) => s.text.includes(fragment));
const bridgeLog = (g = gid) => {
  const p = join(fx.home, 'groups', g, 'state', 'im_bridge.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};

beforeAll(async () => {
  tg = await new FakeTelegramServer(200).start();
  tg.addBot(TOKEN);
  // The bridge child inherits the daemon's environment: point it at the fake Bot API.
  process.env.CCCC_IM_TELEGRAM_API_BASE = tg.url;
  process.env.CCCC_IM_TELEGRAM_POLL_TIMEOUT_S = '1';
  fx = await startDaemonFixture();
  gid = await groupWithTeam(fx);
  await fx.call('group_start', { group_id: gid });
}, 60_000);
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
  await tg?.close();
});

describe('IM bridge end to end (real daemon, bridge child process, fake Telegram)', () => {
  it('starts a bridge when IM is configured and enabled', async () => {
    await fx.call('im_config_set', { group_id: gid, platform: 'telegram', bot_token: TOKEN, enabled: true });
    const pid = await waitFor(() => bridgePid(), 10_000, 'bridge pid');
    expect(isAlive(pid)).toBe(true);
  });

  it('answers an unknown chat with a one-time key in that chat and thread; binding it authorizes the chat', async () => {
    tg.pushMessage(TOKEN, { chat_id: CHAT, thread_id: TOPIC, text: 'hi' });
    const reply = await waitFor(() => sentTexts('cccc im bind')[0], 15_000, 'key reply');
    expect(reply).toMatchObject({ chat_id: String(CHAT), message_thread_id: TOPIC });
    const key = /cccc im bind (\S+)/.exec(reply.text)![1]!;
    const { pending } = await fx.call('im_list_pending', { group_id: gid });
    expect(pending).toEqual([expect.objectContaining({ key, chat_id: String(CHAT), thread_id: TOPIC, platform: 'telegram' })]);
    expect(userMessages('hi')).toEqual([]);
    expect(await fx.call('im_bind_chat', { group_id: gid, key })).toEqual({ chat_id: String(CHAT), thread_id: TOPIC, platform: 'telegram' });
  });

  it('posts an authorized message as the user once, even when Telegram delivers the update twice', async () => {
    const update = tg.pushMessage(TOKEN, { chat_id: CHAT, thread_id: TOPIC, text: 'status please' });
    await waitFor(() => userMessages('status please').length > 0, 15_000, 'user message in the ledger');
    tg.pushMessage(TOKEN, { chat_id: CHAT, thread_id: TOPIC, text: 'status please', update_id: update });
    await waitFor(() => tg.pending(TOKEN) === 0, 10_000, 'duplicate consumed');
    tg.pushMessage(TOKEN, { chat_id: CHAT, thread_id: TOPIC, text: 'marker' });
    await waitFor(() => userMessages('marker').length > 0, 15_000, 'marker');
    expect(userMessages('status please')).toHaveLength(1);
  });

  it('posts a reply addressed to the user back into the same chat and topic', async () => {
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'all green', message_mode: 'send' });
    await fx.call('send', { group_id: gid, by: 'lead', to: ['p1'], text: 'internal only', message_mode: 'send' });
    const post = await waitFor(() => sentTexts('all green')[0], 15_000, 'outbound post');
    expect(post).toMatchObject({ chat_id: String(CHAT), message_thread_id: TOPIC, text: '[lead] all green' });
    expect(sentTexts('internal only')).toEqual([]);
  });

  it('restarts a killed bridge with backoff and never posts an event twice', async () => {
    const old = bridgePid()!;
    process.kill(old, 'SIGKILL');
    const pid = await waitFor(() => (bridgePid() !== undefined && bridgePid() !== old ? bridgePid() : undefined), 20_000, 'restarted bridge');
    expect(isAlive(pid)).toBe(true);
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'after restart', message_mode: 'send' });
    await waitFor(() => sentTexts('after restart')[0], 15_000, 'post after restart');
    expect(sentTexts('all green')).toHaveLength(1);
    expect(fx.daemonLog()).toContain('im bridge exited; restarting after backoff');
  });

  it('waits out a 429 on sendMessage and still delivers', async () => {
    tg.failNext('sendMessage', { kind: '429', retryAfterS: 1 });
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'rate limited', message_mode: 'send' });
    await waitFor(() => sentTexts('rate limited')[0], 15_000, 'post after 429');
    expect(sentTexts('rate limited')).toHaveLength(1);
  });

  it('never lets two bridges poll one bot token at once, and stops a deleted group\'s bridge', async () => {
    const other = await groupWithTeam(fx, 'second');
    await fx.call('group_start', { group_id: other });
    await fx.call('im_config_set', { group_id: other, platform: 'telegram', bot_token: TOKEN, enabled: true });
    await waitFor(() => bridgeLog(other).includes('another bridge polls this bot token'), 15_000, 'second bridge waiting');
    await new Promise((r) => setTimeout(r, 1500));
    expect(tg.conflicts).toBe(0);
    const waiting = fx.services.imBridges.pid(other)!;
    // Deleting the group stops its bridge.
    await fx.call('group_stop', { group_id: other });
    await fx.call('group_delete', { group_id: other });
    await waitFor(() => fx.services.imBridges.pid(other) === undefined && !isAlive(waiting), 10_000, 'second bridge stopped');
  });

  it('a revoked chat is heard no more', async () => {
    expect(await fx.call('im_revoke_chat', { group_id: gid, chat_id: String(CHAT), thread_id: TOPIC })).toEqual({ revoked: true, unsubscribed: true });
    tg.pushMessage(TOKEN, { chat_id: CHAT, thread_id: TOPIC, text: 'still there?' });
    await waitFor(() => sentTexts('cccc im bind').length >= 2, 15_000, 'a new key offered instead');
    expect(userMessages('still there?')).toEqual([]);
    await fx.call('send', { group_id: gid, by: 'lead', to: ['user'], text: 'after revoke', message_mode: 'send' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(sentTexts('after revoke')).toEqual([]);
  });

  it('stops retrying hot when the token is rejected (401), and never writes the token outside secrets', async () => {
    const before = bridgePid()!;
    tg.revokeBot(TOKEN);
    await waitFor(() => bridgeLog().includes('the platform rejected the bot token'), 15_000, 'auth failure logged');
    await waitFor(() => !isAlive(before), 5_000, 'bridge exited');
    expect(fx.daemonLog()).toMatch(/im bridge exited; restarting after backoff.*"code":3.*"delay_ms":60000/);
    for (const text of [fx.publicText(), bridgeLog(), JSON.stringify(fx.ledgerEvents(gid))]) expect(text).not.toContain('AAE-e2e-secret');
  });

  it('stops its bridge with the group and with the daemon (no orphans)', async () => {
    tg.addBot(TOKEN);
    await fx.call('im_config_set', { group_id: gid, enabled: true });
    const first = await waitFor(() => bridgePid(), 10_000, 'bridge after reconfigure');
    // Stopped with the group, started again with it.
    await fx.call('group_stop', { group_id: gid });
    await waitFor(() => bridgePid() === undefined && !isAlive(first), 10_000, 'bridge stopped with the group');
    await fx.call('group_start', { group_id: gid });
    const pid = await waitFor(() => bridgePid(), 10_000, 'bridge started with the group');
    await fx.daemon.stop();
    expect(isAlive(pid)).toBe(false);
  });
});
