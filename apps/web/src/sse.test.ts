import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from './server.js';
import { SseClient } from './sse/sse.js';
import { startDaemonHome, until, type DaemonHome } from './testing/harness.js';
import { SseReader } from './testing/sse-reader.js';

let daemon: DaemonHome;
let web: WebServer;

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0, sse: { heartbeatMs: 100 } });
}, 180_000);

afterAll(async () => {
  await web?.close();
  await daemon?.stop();
}, 60_000);

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(web.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as any;
  if (!json.ok) throw new Error(JSON.stringify(json));
  return json.result;
}

const chat = (r: SseReader) => r.events.filter((e) => e.event === 'ledger' && JSON.parse(e.data).kind === 'chat.message');

describe('ledger SSE', () => {
  it('delivers ledger events with id = event id, heartbeats, and resumes from Last-Event-ID', async () => {
    const gid = (await post('/api/v1/groups', { title: 'sse' })).group_id;
    await post(`/api/v1/groups/${gid}/actors`, { actor_id: 'peer', runtime: 'custom', command: ['true'] });
    const mail = (text: string) => ({ text, to: ['peer'], message_mode: 'mail' });
    const opened = await SseReader.open(`${web.url}/api/v1/groups/${gid}/ledger/stream`);
    expect(opened.status).toBe(200);
    const live = opened.reader!;
    await until(() => live.comments.includes('connected'), 'connected comment');

    const first = (await post(`/api/v1/groups/${gid}/send`, mail('one'))).event.id;
    await until(() => chat(live).length === 1, 'first event');
    expect(chat(live)[0]!.id).toBe(first);
    expect(JSON.parse(chat(live)[0]!.data)).toMatchObject({ id: first, group_id: gid, data: { text: 'one' } });
    await until(() => live.comments.includes('heartbeat'), 'heartbeat comment');
    live.close();

    const second = (await post(`/api/v1/groups/${gid}/send`, mail('two'))).event.id;
    const third = (await post(`/api/v1/groups/${gid}/send`, mail('three'))).event.id;
    const resumed = (await SseReader.open(`${web.url}/api/v1/groups/${gid}/ledger/stream`, { 'Last-Event-ID': first })).reader!;
    await until(() => chat(resumed).length >= 2, 'replayed events');
    expect(chat(resumed).map((e) => e.id)).toEqual([second, third]);
    resumed.close();
  });

  it('an unknown group is a JSON 404 before any stream starts', async () => {
    const opened = await SseReader.open(`${web.url}/api/v1/groups/g_000000000000/ledger/stream`);
    expect(opened.status).toBe(404);
    expect(opened.json).toMatchObject({ ok: false, error: { code: 'group_not_found' } });
  });
});

describe('global event SSE', () => {
  it('streams group changes as `event: event`', async () => {
    const reader = (await SseReader.open(`${web.url}/api/v1/events/stream`)).reader!;
    await until(() => reader.comments.includes('connected'), 'connected comment');
    const gid = (await post('/api/v1/groups', { title: 'global' })).group_id;
    await until(() => reader.events.some((e) => e.event === 'event' && JSON.parse(e.data).group_id === gid), 'group event');
    reader.close();
  });
});

describe('SseClient queue bound', () => {
  class FakeResponse extends EventEmitter {
    writableLength = 0;
    headersSent = false;
    destroyed = false;
    frames: string[] = [];
    writeHead() {
      this.headersSent = true;
      return this;
    }
    write(frame: string) {
      this.frames.push(frame);
      this.writableLength += Buffer.byteLength(frame);
      return true;
    }
    end() {}
    destroy() {
      this.destroyed = true;
    }
  }

  it('disconnects a client that falls behind instead of skipping events', () => {
    const res = new FakeResponse();
    const client = new SseClient(res as unknown as ServerResponse, { maxQueuedBytes: 200, heartbeatMs: 60_000 });
    const closed: string[] = [];
    client.onClose((reason) => closed.push(reason));
    client.send('ledger', { n: 1 }, 'e1');
    expect(client.isClosed).toBe(false);
    for (let i = 2; i < 20 && !client.isClosed; i++) client.send('ledger', { n: i, pad: 'x'.repeat(20) }, `e${i}`);
    expect(client.isClosed).toBe(true);
    expect(closed).toEqual(['overflow']);
    expect(res.destroyed).toBe(true);
    const sent = res.frames.length;
    client.send('ledger', { n: 99 }, 'e99');
    expect(res.frames.length).toBe(sent);
  });

  it('frames id, event and data lines', () => {
    const res = new FakeResponse();
    const client = new SseClient(res as unknown as ServerResponse, { heartbeatMs: 60_000 });
    client.send('ledger', { a: 1 }, 'abc');
    expect(res.frames).toEqual([': connected\n\n', 'event: ledger\nid: abc\ndata: {"a":1}\n\n']);
    client.close();
  });
});
