import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImAuthError, type ImAdapterContext, type ImInboundMessage } from '../../adapter.js';
import { createSlackAdapter } from './index.js';
import { FAKE_BOT_USER_ID, FakeSlack } from './testing/fake-slack.js';

const BOT_TOKEN = 'xoxb-test-bot-secret';
const APP_TOKEN = 'xapp-test-app-secret';
const FAST = { reconnectBaseMs: 20, reconnectMaxMs: 200, reofferBaseMs: 20, reofferMaxMs: 200, pingIntervalMs: 1_000 };

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

function userMessage(text: string, ts: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'message', channel: 'C0001', user: 'U0042', text, ts, channel_type: 'channel', ...extra };
}

const activeTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('Slack adapter against a fake Slack', () => {
  let slack: FakeSlack;
  beforeEach(async () => {
    slack = await FakeSlack.start();
  });
  afterEach(async () => {
    await slack.close();
  });

  const adapter = () =>
    createSlackAdapter({ bot_token: BOT_TOKEN, app_token: APP_TOKEN, api_base_url: slack.apiBaseUrl }, FAST);

  it('hands a user message to the bridge and acknowledges its envelope once, after onMessage', async () => {
    let release!: () => void;
    const h = harness(() => new Promise<void>((resolve) => (release = resolve)));
    const running = adapter().run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    const envelopeId = slack.deliver(userMessage('hello team', '1710000000.000200', { thread_ts: '1710000000.100000' }));
    await slack.waitFor(() => h.received.length === 1);
    // Not acknowledged while the bridge has not stored it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slack.acks).toEqual([]);
    release();
    await slack.waitFor(() => slack.acks.length === 1);
    expect(slack.acks).toEqual([envelopeId]);
    expect(h.received[0]).toEqual({
      platform: 'slack',
      chat_id: 'C0001',
      thread_id: '1710000000.100000',
      update_id: 'C0001:1710000000.000200',
      from: { id: 'U0042', name: 'U0042' },
      text: 'hello team',
      ts_ms: 1710000000000,
    });
    h.controller.abort();
    await running;
  });

  it('ignores its own messages, bot messages and edits, but acknowledges them', async () => {
    const h = harness();
    const running = adapter().run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    slack.deliver(userMessage('mine', '1.000001', { user: FAKE_BOT_USER_ID }));
    slack.deliver(userMessage('bot', '1.000002', { bot_id: 'B9' }));
    slack.deliver({ type: 'message', subtype: 'message_changed', channel: 'C0001', ts: '1.000003', message: {} });
    slack.deliver(userMessage('real', '1.000004'));
    await slack.waitFor(() => slack.acks.length === 4);
    expect(h.received.map((m) => m.text)).toEqual(['real']);
    h.controller.abort();
    await running;
  });

  it('passes a redelivered envelope on with the same update_id (the bridge dedupes), nothing lost', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = harness(() => gate);
    const running = adapter().run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    const envelopeId = slack.deliver(userMessage('once', '1710000001.000001'));
    await slack.waitFor(() => h.received.length === 1);
    slack.redeliver(envelopeId);
    release();
    await slack.waitFor(() => h.received.length === 2 && slack.acks.length === 2);
    expect(h.received[1]!.update_id).toBe(h.received[0]!.update_id);
    expect(slack.acks).toEqual([envelopeId, envelopeId]);
    h.controller.abort();
    await running;
  });

  it('keeps an envelope unacknowledged when onMessage rejects and offers it again', async () => {
    let calls = 0;
    const h = harness(async () => {
      if (++calls === 1) throw new Error('ledger busy');
    });
    const running = adapter().run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    const envelopeId = slack.deliver(userMessage('retry me', '1710000002.000001'));
    await slack.waitFor(() => h.received.length === 2 && slack.acks.length === 1);
    expect(h.received[0]).toEqual(h.received[1]);
    expect(slack.acks).toEqual([envelopeId]);
    expect(h.logs.some((line) => line.includes('offering it again'))).toBe(true);
    h.controller.abort();
    await running;
  });

  it('sends with the thread ts byte for byte and returns the posted ts', async () => {
    const a = adapter();
    const top = await a.send({ chat_id: 'C0001', thread_id: 0, text: 'top level' });
    const reply = await a.send({ chat_id: 'C0001', thread_id: '1710000000.100', text: 'in thread' });
    expect(slack.posted[0]!.rawThreadTs).toBeUndefined();
    expect(slack.posted[1]!.rawThreadTs).toBe('"1710000000.100"');
    expect(reply.message_id).toBe(slack.posted[1]!.ts);
    expect(top.message_id).toBe(slack.posted[0]!.ts);
    await expect(a.send({ chat_id: 'C0001', thread_id: 1710000000.1, text: 'x' })).rejects.toMatchObject({
      name: 'SlackApiError',
      code: 'invalid_thread_id',
    });
    expect(slack.posted).toHaveLength(2);
  });

  it('waits out a 429 Retry-After on send and a body "ratelimited" on connect', async () => {
    slack.rateLimit('chat.postMessage', 1, 1, 'http');
    const started = Date.now();
    await adapter().send({ chat_id: 'C0001', thread_id: 0, text: 'after the wait' });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(10_000);
    expect(slack.posted).toHaveLength(1);

    slack.rateLimit('apps.connections.open', 1, 1, 'body');
    const h = harness();
    const connectStarted = Date.now();
    const running = adapter().run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    expect(Date.now() - connectStarted).toBeGreaterThanOrEqual(900);
    expect(h.logs.some((line) => line.includes('rate limit'))).toBe(true);
    h.controller.abort();
    await running;
  });

  it('rejects run and send with ImAuthError on a revoked or invalid token, without the token', async () => {
    slack.rejectedTokens.set(APP_TOKEN, 'token_revoked');
    const h = harness();
    const error = await adapter().run(h.ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImAuthError);
    expect(String((error as Error).message)).not.toContain(APP_TOKEN);

    slack.rejectedTokens.set(BOT_TOKEN, 'invalid_auth');
    const sendError = await adapter()
      .send({ chat_id: 'C0001', thread_id: 0, text: 'x' })
      .catch((e: unknown) => e);
    expect(sendError).toBeInstanceOf(ImAuthError);
    expect((sendError as ImAuthError).platform).toBe('slack');
    expect(String((sendError as Error).message)).not.toContain(BOT_TOKEN);

    slack.rejectedTokens.set(BOT_TOKEN, 'account_inactive');
    await expect(adapter().run(harness().ctx)).rejects.toBeInstanceOf(ImAuthError);
    expect(h.logs.join('\n')).not.toContain('secret');
  });

  it('reconnects on "disconnect" and after a dropped socket, and loses nothing sent meanwhile', async () => {
    const h = harness();
    const running = adapter().run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    slack.sendDisconnect();
    await slack.waitFor(() => slack.connectionsOpened === 2 && slack.openSockets === 1);
    slack.deliver(userMessage('after refresh', '1710000003.000001'));
    // Acknowledged before the drop; otherwise Slack rightly redelivers it after the reconnect.
    await slack.waitFor(() => h.received.length === 1 && slack.acks.length === 1);

    slack.dropConnections();
    // Slack keeps it for the next connection; the fake redelivers it on connect.
    slack.deliver(userMessage('while away', '1710000003.000002'));
    await slack.waitFor(() => slack.connectionsOpened === 3 && h.received.length === 2 && slack.acks.length === 2);
    expect(h.received.map((m) => m.text)).toEqual(['after refresh', 'while away']);
    h.controller.abort();
    await running;
  });

  it('waits before reconnecting after link_disabled instead of spinning', async () => {
    const h = harness();
    const running = createSlackAdapter(
      { bot_token: BOT_TOKEN, app_token: APP_TOKEN, api_base_url: slack.apiBaseUrl },
      { ...FAST, reconnectBaseMs: 400, reconnectMaxMs: 400 },
    ).run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    const disconnectedAt = Date.now();
    slack.sendDisconnect('link_disabled');
    await slack.waitFor(() => slack.connectionsOpened === 2);
    expect(Date.now() - disconnectedAt).toBeGreaterThanOrEqual(350);
    h.controller.abort();
    await running;
  });

  it('replaces a half-open connection whose pings go unanswered', async () => {
    const h = harness();
    const running = createSlackAdapter(
      { bot_token: BOT_TOKEN, app_token: APP_TOKEN, api_base_url: slack.apiBaseUrl },
      { ...FAST, pingIntervalMs: 100 },
    ).run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    slack.answerPings = false;
    await slack.waitFor(() => slack.connectionsOpened === 2);
    slack.answerPings = true;
    expect(h.logs.some((line) => line.includes('slack socket stale'))).toBe(true);
    slack.deliver(userMessage('on the fresh socket', '1710000004.000001'));
    await slack.waitFor(() => h.received.length === 1 && slack.acks.length === 1);
    h.controller.abort();
    await running;
  });

  it('resolves run on abort with the socket closed and no timers left', async () => {
    const timersBefore = activeTimers();
    const h = harness();
    const running = adapter().run(h.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    h.controller.abort();
    await running;
    await slack.waitFor(() => slack.openSockets === 0);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);

    // Aborting during a reconnect backoff resolves as well.
    const h2 = harness();
    const running2 = createSlackAdapter(
      { bot_token: BOT_TOKEN, app_token: APP_TOKEN, api_base_url: slack.apiBaseUrl },
      { ...FAST, reconnectBaseMs: 60_000 },
    ).run(h2.ctx);
    await slack.waitFor(() => slack.openSockets === 1);
    slack.dropConnections();
    await slack.waitFor(() => h2.logs.some((line) => line.includes('reconnecting')));
    h2.controller.abort();
    await running2;
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });

  it('validates its config and never echoes a token in the error', () => {
    const bad = () => createSlackAdapter({ bot_token: 'xapp-wrong-kind-secret', app_token: APP_TOKEN });
    expect(bad).toThrow(/bot_token/);
    try {
      bad();
    } catch (error) {
      expect(String(error)).not.toContain('wrong-kind-secret');
    }
  });
});
