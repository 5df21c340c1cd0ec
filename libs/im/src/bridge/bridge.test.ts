import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { DaemonCallError } from '@cccc/ipc-protocol/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImAdapter, ImInboundMessage, ImOutboundMessage } from '../adapter.js';
import { ImAuthority } from '../authority/authority.js';
import { ImBridge, type BridgeDaemon } from './bridge.js';

let dir: string;
let sent: ImOutboundMessage[];
let sends: Array<{ text: string; client_id: string }>;
let refuse: string | undefined;

const adapter: ImAdapter = {
  platform: 'telegram',
  run: (ctx) => new Promise((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve()))),
  send: async (m) => {
    sent.push(m);
    return { message_id: String(sent.length) };
  },
};

function daemon(events: CCCSEventV1[] = [], opened: Array<string | undefined> = []): BridgeDaemon {
  return {
    async send(args) {
      if (refuse) throw new DaemonCallError('send', { code: refuse, message: 'no', details: {} });
      sends.push({ text: args.text, client_id: args.client_id });
    },
    async *events(_g, since, signal) {
      opened.push(since);
      if (since === 'gone') throw new DaemonCallError('events_stream', { code: 'event_not_found', message: 'gone', details: {} });
      yield* events;
      // A live stream stays open until the bridge stops.
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  };
}

const bridge = (d = daemon()) =>
  new ImBridge({ groupId: 'g_1', stateDir: dir, adapter, daemon: d, log: () => undefined, forwardPublicNotify: false, retryDelayMs: 1 });
const msg = (over: Partial<ImInboundMessage> = {}): ImInboundMessage => ({
  platform: 'telegram',
  chat_id: '42',
  thread_id: 0,
  update_id: '1',
  from: { id: '42', name: 'ada' },
  text: 'hello',
  ts_ms: 0,
  ...over,
});
const event = (id: string, by: string, to: string[], text: string) =>
  ({ v: 1, id, ts: '2026-12-06T10:00:00Z', kind: 'chat.message', group_id: 'g_1', scope_key: '', by, data: { text, to } }) as CCCSEventV1;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'im-bridge-'));
  sent = [];
  sends = [];
  refuse = undefined;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ImBridge.inbound', () => {
  it('answers an unknown chat with its key once per update, and sends nothing to the group', async () => {
    const b = bridge();
    await b.run(AbortSignal.abort()); // an already stopped bridge returns at once
    await b.inbound(msg());
    await b.inbound(msg());
    expect(sent).toHaveLength(1);
    const key = /cccc im bind (\S+)/.exec(sent[0]!.text)![1]!;
    expect((await new ImAuthority(dir).listPending()).map((p) => p.key)).toEqual([key]);
    expect(sends).toEqual([]);
  });

  it('sends an authorized chat\'s message as the user with an update-derived client_id, and tells the chat about a refusal', async () => {
    const auth = new ImAuthority(dir);
    await auth.bind(await auth.requestKey({ chat_id: '42', thread_id: 0, platform: 'telegram' }));
    const b = bridge();
    await b.inbound(msg({ update_id: '9', text: 'go' }));
    expect(sends).toEqual([{ text: 'go', client_id: 'im:telegram:42:9' }]);
    refuse = 'no_enabled_recipients';
    await b.inbound(msg({ update_id: '10', text: 'again' }));
    expect(sent.at(-1)?.text).toBe('Not delivered to the group (no_enabled_recipients).');
  });
});

describe('ImBridge outbound', () => {
  it('posts to subscribed chats once per event, and follows from now when its cursor is gone', async () => {
    const auth = new ImAuthority(dir);
    await auth.bind(await auth.requestKey({ chat_id: '42', thread_id: 5, platform: 'telegram' }));
    const opened: Array<string | undefined> = [];
    const events = [event('e1', 'lead', ['user'], 'done'), event('e2', 'lead', ['p1'], 'internal'), event('e1', 'lead', ['user'], 'done')];
    const stop = new AbortController();
    const b = bridge(daemon(events, opened));
    // Seed a cursor the ledger no longer has.
    await (b as unknown as { state: { load(): Promise<unknown>; advance(id: string): Promise<void> } }).state.load();
    await (b as unknown as { state: { advance(id: string): Promise<void> } }).state.advance('gone');
    const running = b.run(stop.signal);
    await new Promise((r) => setTimeout(r, 200));
    stop.abort();
    await running;
    expect(opened).toEqual(['gone', undefined]);
    expect(sent).toEqual([{ chat_id: '42', thread_id: 5, text: '[lead] done' }]);
    expect(JSON.parse(readFileSync(join(dir, 'im_bridge_state.json'), 'utf8'))).toMatchObject({ cursor_event_id: 'e1', posted: ['e1|telegram:42:5'] });
  });
});
