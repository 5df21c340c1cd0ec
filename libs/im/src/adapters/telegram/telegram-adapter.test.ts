import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImAuthError, type ImInboundMessage } from '../../adapter.js';
import { FakeTelegramServer } from './fake-telegram-server.js';
import { TelegramAdapter } from './telegram-adapter.js';
import { chunkText } from './telegram-api.js';

const TOKEN = '4242:fake-token';
let tg: FakeTelegramServer;
let stop: AbortController;
const logs: string[] = [];

const adapter = () => new TelegramAdapter({ token: TOKEN, baseUrl: tg.url, pollTimeoutS: 1, retryDelayMs: 20, maxRetryDelayMs: 100 });
const ctx = (onMessage: (m: ImInboundMessage) => Promise<void>) => ({
  onMessage,
  signal: stop.signal,
  log: (_level: string, message: string, fields?: Record<string, unknown>) => void logs.push(`${message} ${JSON.stringify(fields ?? {})}`),
});
async function until(probe: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeEach(async () => {
  tg = await new FakeTelegramServer(200).start();
  tg.addBot(TOKEN);
  stop = new AbortController();
  logs.length = 0;
});
afterEach(async () => {
  stop.abort();
  await tg.close();
});

describe('TelegramAdapter.run', () => {
  it('delivers text messages with topic threads and confirms each only after onMessage resolved', async () => {
    const got: ImInboundMessage[] = [];
    const a = tg.pushMessage(TOKEN, { chat_id: 42, text: 'hello' });
    tg.pushMessage(TOKEN, { chat_id: -100123, text: 'in a topic', thread_id: 7, from_id: 9, username: 'bob' });
    const running = adapter().run(ctx(async (m) => void got.push(m)));
    await until(() => got.length === 2 && tg.pending(TOKEN) === 0);
    expect(got[0]).toMatchObject({ platform: 'telegram', chat_id: '42', thread_id: 0, update_id: String(a), text: 'hello', from: { id: '42', name: 'ada' } });
    expect(got[1]).toMatchObject({ chat_id: '-100123', thread_id: 7, from: { id: '9', name: 'bob' } });
    stop.abort();
    await running;
  });

  it('offers an update again when onMessage rejects (nothing lost), then moves on', async () => {
    const seen: string[] = [];
    let failures = 1;
    tg.pushMessage(TOKEN, { chat_id: 1, text: 'first' });
    tg.pushMessage(TOKEN, { chat_id: 1, text: 'second' });
    const running = adapter().run(
      ctx(async (m) => {
        seen.push(m.text);
        if (m.text === 'first' && failures-- > 0) throw new Error('disk full');
      }),
    );
    await until(() => seen.filter((t) => t === 'second').length === 1 && tg.pending(TOKEN) === 0);
    expect(seen).toEqual(['first', 'first', 'second']);
    stop.abort();
    await running;
  });

  it('waits out a 429 retry_after, survives a dropped connection and a 500, and keeps polling', async () => {
    const got: string[] = [];
    tg.failNext('getUpdates', { kind: '429', retryAfterS: 1 });
    tg.failNext('getUpdates', { kind: 'drop' });
    tg.failNext('getUpdates', { kind: '500' });
    tg.pushMessage(TOKEN, { chat_id: 5, text: 'after the storm' });
    const started = Date.now();
    const running = adapter().run(ctx(async (m) => void got.push(m.text)));
    await until(() => got.length === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(got).toEqual(['after the storm']);
    expect(logs.join('\n')).not.toContain(TOKEN);
    stop.abort();
    await running;
  });

  it('rejects with ImAuthError when the token is revoked, and never logs the token', async () => {
    tg.revokeBot(TOKEN);
    await expect(adapter().run(ctx(async () => undefined))).rejects.toBeInstanceOf(ImAuthError);
    expect(logs.join('\n')).not.toContain(TOKEN);
  });

  it('resolves promptly when aborted during a long poll', async () => {
    const running = adapter().run(ctx(async () => undefined));
    await until(() => tg.getUpdatesCalls > 0);
    const t = Date.now();
    stop.abort();
    await running;
    expect(Date.now() - t).toBeLessThan(1000);
  });
});

describe('TelegramAdapter.send', () => {
  it('posts into the thread, splits long text, waits out a 429, maps 401 to ImAuthError', async () => {
    const a = adapter();
    await a.send({ chat_id: '-100123', thread_id: 7, text: 'reply' });
    await a.send({ chat_id: '42', thread_id: 0, text: 'x'.repeat(5000) });
    expect(tg.sent.map((s) => [s.chat_id, s.message_thread_id, s.text.length])).toEqual([
      ['-100123', 7, 5],
      ['42', undefined, 4096],
      ['42', undefined, 904],
    ]);
    tg.failNext('sendMessage', { kind: '429', retryAfterS: 1 });
    const t = Date.now();
    await a.send({ chat_id: '42', thread_id: 0, text: 'slow' });
    expect(Date.now() - t).toBeGreaterThanOrEqual(900);
    expect(tg.sent.at(-1)?.text).toBe('slow');
    tg.revokeBot(TOKEN);
    await expect(a.send({ chat_id: '42', thread_id: 0, text: 'nope' })).rejects.toBeInstanceOf(ImAuthError);
  });

  it('chunks at line breaks when it can', () => {
    expect(chunkText('aaaa\nbbbb\ncc', 9)).toEqual(['aaaa\nbbbb', 'cc']);
    expect(chunkText('aaaa\nbbbb\ncc', 8)).toEqual(['aaaa', 'bbbb\ncc']);
    expect(chunkText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });
});
