import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAccessToken, revokeAccessToken } from './auth/tokens.js';
import { startWebServer, type WebServer } from './server.js';
import { startDaemonHome, until, type DaemonHome } from './testing/harness.js';
import { OP } from './ws/term-bridge.js';

let daemon: DaemonHome;
let web: WebServer;
let gid = '';
let scope = '';

/** A WebSocket whose frames are collected from the first one, split by opcode. */
class TermClient {
  readonly frames: Array<{ op: string; body: Buffer }> = [];
  closed = false;
  closeCode = 0;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.frames.push({ op: String.fromCharCode(data[0]!), body: data.subarray(1) }));
    ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
    });
  }
  static open(url: string): Promise<TermClient> {
    const ws = new WebSocket(url);
    const client = new TermClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }
  json(op: string): any[] {
    return this.frames.filter((f) => f.op === op).map((f) => JSON.parse(f.body.toString('utf8')));
  }
  text(op: string): string {
    return Buffer.concat(this.frames.filter((f) => f.op === op).map((f) => f.body)).toString('utf8');
  }
  send(op: number, payload: string | object): void {
    this.ws.send(Buffer.concat([Buffer.from([op]), Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload))]));
  }
  close(): void {
    this.ws.close();
  }
}

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0, term: { writablePollMs: 100 } });
  const client = new DaemonClient({ home: daemon.home });
  gid = (await client.call('group_create', { title: 'term' })).group_id;
  scope = mkdtempSync(join(tmpdir(), 'cccc-web-term-scope-'));
  await client.call('attach', { path: scope, group_id: gid });
  await client.call('actor_add', { group_id: gid, actor_id: 'a1', runtime: 'custom', command: fakeAgentArgv(['--no-alt-screen']) });
  await client.call('actor_start', { group_id: gid, actor_id: 'a1' });
  await until(
    async () => (await client.call('terminal_tail', { group_id: gid, actor_id: 'a1' }).catch(() => ({ text: '' }))).text.includes('fake-agent>'),
    'the fake agent prompt',
    60_000,
  );
}, 180_000);

afterAll(async () => {
  await web?.close();
  await daemon?.stop();
  if (scope) rmSync(scope, { recursive: true, force: true });
}, 60_000);

const termUrl = (actor: string, query: string) => `${web.url.replace('http', 'ws')}/api/v1/groups/${gid}/actors/${actor}/term?${query}`;

describe('terminal WebSocket', () => {
  it('handshake, snapshot_v1, input echo, resize errors, viewer input refused, takeover flips writable', async () => {
    const control = await TermClient.open(termUrl('a1', 'mode=control&takeover=true&bootstrap=snapshot_v1&cols=80&rows=24&output_flow=ack_v1'));
    await until(() => control.json('3').length === 1 && control.frames.some((f) => f.op === '7'), 'handshake and snapshot');
    const hs = control.json('3')[0];
    expect(hs).toMatchObject({ group_id: gid, actor_id: 'a1', terminal_mode: 'control', terminal_writable: true, initial_output: { kind: 'snapshot' } });
    expect(hs.output_flow_control).toMatchObject({ protocol: 'ack_v1' });
    expect(control.frames[0]!.op).toBe('3');
    expect(control.frames[1]!.op).toBe('7');
    expect(control.text('7')).toContain('fake-agent');

    control.send(OP.input, 'hello-web');
    await until(() => control.text('1').includes('hello-web'), 'echoed input');
    control.send(OP.ack, { cursor: hs.initial_output.cursor + control.text('1').length });

    control.send(OP.resize, { cols: 100, rows: 30 });
    control.send(OP.resize, { cols: 1, rows: 1 });
    await until(() => control.json('4').length > 0, 'resize error');
    expect(control.json('4')).toEqual([expect.objectContaining({ op: 'resize', code: 'invalid_size' })]);

    const viewer = await TermClient.open(termUrl('a1', 'mode=viewer'));
    await until(() => viewer.json('3').length === 1, 'viewer handshake');
    expect(viewer.json('3')[0]).toMatchObject({ terminal_mode: 'viewer', terminal_writable: false });
    viewer.send(OP.input, 'nope');
    await until(() => viewer.json('4').length > 0, 'viewer input error');
    expect(viewer.json('4')[0]).toMatchObject({ code: 'terminal_not_writer' });
    viewer.close();

    const taker = await TermClient.open(termUrl('a1', 'mode=control&takeover=true'));
    await until(() => taker.json('3').length === 1, 'takeover handshake');
    expect(taker.json('3')[0]).toMatchObject({ terminal_writable: true });
    await until(() => control.json('6').length > 0, 'writable change on the replaced writer');
    expect(control.json('6').at(-1)).toEqual({ terminal_writable: false });
    control.close();
    taker.close();
  });

  it('ends a terminal session once the Web stops being open (a token now exists)', async () => {
    const viewer = await TermClient.open(termUrl('a1', 'mode=viewer'));
    await until(() => viewer.json('3').length === 1, 'viewer handshake');
    const token = createAccessToken(daemon.home, { admin: true });
    try {
      await until(() => viewer.closed, 'the session to close');
      expect(viewer.closeCode).toBe(4401);
      const again = await TermClient.open(termUrl('a1', `mode=viewer&token=${token.token}`));
      await until(() => again.json('3').length === 1, 'handshake with ?token=');
      again.close();
    } finally {
      revokeAccessToken(daemon.home, token.token);
    }
  });

  it('refuses a cross-origin WebSocket (CORS does not cover upgrades)', async () => {
    const ws = new WebSocket(termUrl('a1', 'mode=viewer'), { headers: { origin: 'https://evil.example' } });
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('should not open')));
      ws.once('error', () => undefined);
    });
    expect(status).toBe(403);
    ws.terminate();
  });

  it('refuses the upgrade with the JSON envelope for an actor without a terminal', async () => {
    const ws = new WebSocket(termUrl('ghost', 'mode=viewer'));
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('should not open')));
      ws.once('error', () => undefined);
    });
    expect(status).toBe(404);
    ws.terminate();
  });
});
