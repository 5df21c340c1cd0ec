import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImAuthError, type ImAdapterContext, type ImInboundMessage } from '../../adapter.js';
import { GATEWAY_INTENTS } from './gateway-protocol.js';
import { createDiscordAdapter } from './index.js';
import { FAKE_BOT_ID, FakeDiscord } from './testing/fake-discord.js';

const TOKEN = 'discord-bot-token-secret';
const FAST = {
  reconnectBaseMs: 20,
  reconnectMaxMs: 200,
  reofferBaseMs: 20,
  reofferMaxMs: 200,
  invalidSessionMinMs: 20,
  invalidSessionMaxMs: 40,
};
const CHANNEL = '300000000000000003';

interface Harness {
  readonly ctx: ImAdapterContext;
  readonly received: ImInboundMessage[];
  readonly logs: string[];
  readonly controller: AbortController;
}

function harness(onMessage?: (message: ImInboundMessage) => Promise<void>): Harness {
  const received: ImInboundMessage[] = [];
  const logs: string[] = [];
  const controller = new AbortController();
  const ctx: ImAdapterContext = {
    signal: controller.signal,
    onMessage: async (message) => {
      received.push(message);
      await onMessage?.(message);
    },
    log: (level, message, fields) => logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`),
  };
  return { ctx, received, logs, controller };
}

const activeTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('Discord adapter against a fake Discord', () => {
  let discord: FakeDiscord;
  beforeEach(async () => {
    discord = await FakeDiscord.start();
  });
  afterEach(async () => {
    await discord.close();
  });

  const adapter = () => createDiscordAdapter({ bot_token: TOKEN, api_base_url: discord.apiBaseUrl }, FAST);
  /** Starts the adapter and waits for READY; the run promise is wrapped so awaiting this does not await it. */
  const startReady = async (h: Harness): Promise<{ running: Promise<void> }> => {
    const running = adapter().run(h.ctx);
    running.catch(() => undefined);
    await discord.waitFor(() => h.logs.some((line) => line.includes('gateway ready')));
    return { running };
  };

  it('identifies with the message intents and hands MESSAGE_CREATE to the bridge', async () => {
    const h = harness();
    const { running } = await startReady(h);
    const identify = discord.ops(2)[0]!.d as { token: string; intents: number };
    expect(identify.token).toBe(TOKEN);
    expect(identify.intents).toBe(GATEWAY_INTENTS);
    expect(GATEWAY_INTENTS).toBe(512 | 4096 | 32768);

    discord.dispatchMessage({ id: '1200000000000000777', content: 'hello agents' });
    discord.dispatchMessage({ content: 'from a bot', author: { id: '5', username: 'b', bot: true } });
    discord.dispatchMessage({ content: 'my own echo', author: { id: FAKE_BOT_ID, username: 'cccc' } });
    discord.dispatchMessage({ content: 'joined', type: 7 });
    discord.dispatchMessage({ content: '' });
    discord.dispatchMessage({ content: 'second' });
    await discord.waitFor(() => h.received.length === 2);
    expect(h.received[0]).toEqual({
      platform: 'discord',
      chat_id: CHANNEL,
      thread_id: 0,
      update_id: '1200000000000000777',
      from: { id: '400000000000000004', name: 'Alice' },
      text: 'hello agents',
      ts_ms: Date.parse('2026-12-06T10:00:00.000Z'),
    });
    expect(h.received[1]!.text).toBe('second');
    h.controller.abort();
    await running;
  });

  it('heartbeats with the last sequence, and reconnects + resumes a zombie connection', async () => {
    discord.heartbeatIntervalMs = 100;
    const h = harness();
    const { running } = await startReady(h);
    const seq = discord.dispatchMessage({ content: 'x' });
    await discord.waitFor(() => discord.ops(1).some((frame) => frame.d === seq));
    discord.ackHeartbeats = false;
    await discord.waitFor(() => discord.ops(6).length === 1, 3_000);
    expect(discord.ops(6)[0]!.d).toMatchObject({ token: TOKEN, session_id: 'session-1', seq });
    expect(h.logs.some((line) => line.includes('not acknowledged'))).toBe(true);
    h.controller.abort();
    await running;
  });

  it('after a dropped connection RESUMEs with the last sequence and loses nothing sent meanwhile', async () => {
    const h = harness();
    const { running } = await startReady(h);
    discord.dispatchMessage({ content: 'before' });
    await discord.waitFor(() => h.received.length === 1);
    discord.dropConnections();
    const lastSeen = 2;
    discord.dispatchMessage({ content: 'while away 1' });
    discord.dispatchMessage({ content: 'while away 2' });
    await discord.waitFor(() => h.received.length === 3);
    expect(discord.ops(6)[0]!.d).toMatchObject({ session_id: 'session-1', seq: lastSeen });
    expect(discord.ops(2)).toHaveLength(1);
    expect(h.received.map((m) => m.text)).toEqual(['before', 'while away 1', 'while away 2']);
    h.controller.abort();
    await running;
  });

  it('follows RECONNECT (op 7) with a RESUME, and INVALID_SESSION false with a new IDENTIFY', async () => {
    const h = harness();
    const { running } = await startReady(h);
    discord.sendReconnect();
    await discord.waitFor(() => discord.ops(6).length === 1 && h.logs.some((l) => l.includes('resumed')));
    discord.invalidateSession(false);
    await discord.waitFor(() => discord.ops(2).length === 2);
    discord.dispatchMessage({ content: 'in the new session' });
    await discord.waitFor(() => h.received.length === 1);
    h.controller.abort();
    await running;
  });

  it('passes a replayed message on with the same update_id, and re-offers one the bridge rejected', async () => {
    let calls = 0;
    const h = harness(async () => {
      if (++calls === 1) throw new Error('ledger busy');
    });
    const { running } = await startReady(h);
    discord.dispatchMessage({ id: '1200000000000000999', content: 'twice' });
    discord.dispatchMessage({ id: '1200000000000000999', content: 'twice' });
    await discord.waitFor(() => h.received.length === 3);
    expect(new Set(h.received.map((m) => m.update_id))).toEqual(new Set(['1200000000000000999']));
    expect(h.logs.some((line) => line.includes('offering it again'))).toBe(true);
    h.controller.abort();
    await running;
  });

  it('rejects with ImAuthError on close 4004, on a 401 from /gateway/bot and from send, never with the token', async () => {
    const h = harness();
    const { running } = await startReady(h);
    discord.rejectedTokens.add(TOKEN);
    discord.dropConnections();
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImAuthError);
    expect(String((error as Error).message)).toContain('4004');

    await expect(adapter().run(harness().ctx)).rejects.toBeInstanceOf(ImAuthError);
    const sendError = await adapter()
      .send({ chat_id: CHANNEL, thread_id: 0, text: 'x' })
      .catch((e: unknown) => e);
    expect(sendError).toBeInstanceOf(ImAuthError);
    for (const text of [String((error as Error).message), String((sendError as Error).message), ...h.logs]) {
      expect(text).not.toContain(TOKEN);
    }
  });

  it('stops re-offering queued messages once run has failed', async () => {
    const h = harness(async () => {
      throw new Error('bridge keeps refusing');
    });
    const { running } = await startReady(h);
    discord.dispatchMessage({ content: 'refused' });
    await discord.waitFor(() => h.received.length >= 2);
    discord.rejectedTokens.add(TOKEN);
    discord.dropConnections();
    await expect(running).rejects.toBeInstanceOf(ImAuthError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const offersAfterFailure = h.received.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(h.received.length).toBe(offersAfterFailure);
  });

  it('sends to the channel, or into the thread channel, without pinging anyone', async () => {
    const a = adapter();
    const top = await a.send({ chat_id: CHANNEL, thread_id: 0, text: 'top' });
    await a.send({ chat_id: CHANNEL, thread_id: '310000000000000031', text: 'in thread' });
    expect(discord.posted.map((p) => p.channelId)).toEqual([CHANNEL, '310000000000000031']);
    expect(discord.posted[0]!.body).toEqual({ content: 'top', allowed_mentions: { parse: [] } });
    expect(top.message_id).toMatch(/^\d+$/);
    await expect(a.send({ chat_id: CHANNEL, thread_id: 31, text: 'x' })).rejects.toMatchObject({
      code: 'invalid_thread_id',
    });
    await expect(a.send({ chat_id: '../users/@me', thread_id: 0, text: 'x' })).rejects.toMatchObject({
      code: 'invalid_chat_id',
    });
    await expect(a.send({ chat_id: CHANNEL, thread_id: 0, text: '' })).rejects.toMatchObject({
      name: 'DiscordApiError',
      code: 'http_400_50006',
    });
    expect(discord.posted).toHaveLength(2);
  });

  it('waits out a 429 retry_after and an exhausted X-RateLimit bucket', async () => {
    const a = adapter();
    discord.rateLimitNext(0.6);
    let started = Date.now();
    await a.send({ chat_id: CHANNEL, thread_id: 0, text: 'after 429' });
    let waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(550);
    expect(waited).toBeLessThan(10_000);
    expect(discord.posted).toHaveLength(1);

    discord.exhaustBucket(0.6);
    await a.send({ chat_id: CHANNEL, thread_id: 0, text: 'empties the bucket' });
    const callsBefore = discord.restCalls.length;
    started = Date.now();
    await a.send({ chat_id: CHANNEL, thread_id: 0, text: 'waits for the reset' });
    waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(450);
    expect(discord.restCalls.length).toBe(callsBefore + 1);
    expect(discord.posted).toHaveLength(3);
  });

  it('resolves run on abort with the socket closed and no timers left', async () => {
    const timersBefore = activeTimers();
    const h = harness();
    const { running } = await startReady(h);
    h.controller.abort();
    await running;
    await discord.waitFor(() => discord.openSockets === 0);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);

    // Aborting while a reconnect backoff waits resolves too.
    const h2 = harness();
    const running2 = createDiscordAdapter(
      { bot_token: TOKEN, api_base_url: discord.apiBaseUrl },
      { ...FAST, invalidSessionMinMs: 60_000, invalidSessionMaxMs: 60_000 },
    ).run(h2.ctx);
    await discord.waitFor(() => h2.logs.some((line) => line.includes('gateway ready')));
    discord.invalidateSession(false);
    await discord.waitFor(() => h2.logs.some((line) => line.includes('invalidated')));
    h2.controller.abort();
    await running2;
    await discord.waitFor(() => discord.openSockets === 0);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });

  it('validates its config', () => {
    expect(() => createDiscordAdapter({ bot_token: '' })).toThrow(/bot_token/);
    expect(() => createDiscordAdapter({ bot_token: TOKEN, api_base_url: 'not a url' })).toThrow(/api_base_url/);
  });
});
