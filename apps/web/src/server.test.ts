import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from './server.js';
import { startDaemonHome, type DaemonHome } from './testing/harness.js';

let daemon: DaemonHome;
let web: WebServer;

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0 });
}, 180_000);

afterAll(async () => {
  await web?.close();
  await daemon?.stop();
}, 60_000);

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(web.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function newGroup(title = 'web-test'): Promise<string> {
  const { status, json } = await api('POST', '/api/v1/groups', { title });
  expect(status).toBe(200);
  return json.result.group_id;
}

describe('envelope and errors', () => {
  it('GET /api/v1/ping answers {ok: true, result} from the daemon', async () => {
    const { status, json } = await api('GET', '/api/v1/ping');
    expect(status).toBe(200);
    expect(json.ok).toBe(true);
    expect(json.result).toMatchObject({ ipc_v: 1, compatibility: 'cccc-ipc-v1' });
    // The daemon (started by the CLI) names its CLI entry; the Web keeps that local path to itself.
    expect(json.result).not.toHaveProperty('executable');
  });

  it('health answers without the daemon; ready reports the daemon', async () => {
    expect(await api('GET', '/api/v1/health')).toMatchObject({ status: 200, json: { ok: true, result: { status: 'ok' } } });
    const ready = await api('GET', '/api/v1/ready');
    expect(ready.json.result).toMatchObject({ status: 'ready', daemon: { pid: expect.any(Number) } });
  });

  it('unknown routes are 404 unknown_route, wrong methods 405', async () => {
    expect(await api('GET', '/api/v1/nope')).toMatchObject({ status: 404, json: { ok: false, error: { code: 'unknown_route' } } });
    expect((await api('PATCH', '/api/v1/groups')).status).toBe(405);
  });

  it('bad JSON is 400 invalid_request; a schema miss names the field', async () => {
    const gid = await newGroup();
    const bad = await api('POST', `/api/v1/groups/${gid}/send`, '{not json');
    expect(bad).toMatchObject({ status: 400, json: { ok: false, error: { code: 'invalid_request' } } });
    const missing = await api('POST', `/api/v1/groups/${gid}/send`, { to: ['user'] });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details.field).toBe('text');
  });

  it('an oversized body is 413 payload_too_large', async () => {
    const gid = await newGroup();
    const big = await api('POST', `/api/v1/groups/${gid}/send`, { text: 'x'.repeat(3 * 1024 * 1024) });
    expect(big).toMatchObject({ status: 413, json: { error: { code: 'payload_too_large' } } });
  });

  it('daemon error codes pass through with their HTTP status', async () => {
    const notFound = await api('GET', '/api/v1/groups/g_nonexistent00');
    expect(notFound).toMatchObject({ status: 404, json: { ok: false, error: { code: 'group_not_found' } } });
    expect(typeof notFound.json.error.message).toBe('string');
    expect(notFound.json.error.details).toBeTypeOf('object');
    const gid = await newGroup();
    const noActor = await api('POST', `/api/v1/groups/${gid}/actors/ghost/start`);
    expect(noActor).toMatchObject({ status: 404, json: { error: { code: 'actor_not_found' } } });
    const badState = await api('POST', `/api/v1/groups/${gid}/state?state=sleepy`);
    expect(badState).toMatchObject({ status: 400, json: { error: { code: 'invalid_request' } } });
  });

  it('an unreachable daemon is 502 daemon_unavailable', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cccc-web-nodaemon-'));
    const lonely = await startWebServer({ home: empty, port: 0, daemonTimeoutMs: 2000 });
    try {
      const res = await fetch(lonely.url + '/api/v1/ping');
      expect(res.status).toBe(502);
      expect((await res.json()) as any).toMatchObject({ ok: false, error: { code: 'daemon_unavailable' } });
    } finally {
      await lonely.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('browser protections (the server may run open)', () => {
  function raw(path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(web.url + path, { method, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('refuses non-JSON bodies (415), cross-origin writes (403) and non-loopback Host names (403)', async () => {
    const gid = await newGroup();
    const plain = await fetch(`${web.url}/api/v1/groups/${gid}/send`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"text":"x"}' });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as any).error.code).toBe('unsupported_media_type');
    const json = { 'content-type': 'application/json' };
    expect(await raw(`/api/v1/groups/${gid}/stop`, { ...json, origin: 'https://evil.example' }, 'POST', '{}')).toBe(403);
    expect(await raw(`/api/v1/groups/${gid}/stop`, { ...json, origin: web.url }, 'POST', '{}')).toBe(200);
    expect(await raw('/api/v1/ping', { origin: 'https://evil.example' })).toBe(200);
    expect(await raw('/api/v1/ping', { host: `rebound.example:${web.port}` })).toBe(403);
    expect(await raw('/api/v1/ping', { host: `localhost:${web.port}` })).toBe(200);
  });
});

describe('groups, scopes, settings', () => {
  it('create, list, show, update, state, attach, detach, delete', async () => {
    const gid = await newGroup('first');
    const list = await api('GET', '/api/v1/groups');
    expect(list.json.result.groups.map((g: any) => g.group_id)).toContain(gid);
    expect((await api('GET', `/api/v1/groups/${gid}`)).json.result.group).toMatchObject({ group_id: gid, title: 'first' });
    const updated = await api('PUT', `/api/v1/groups/${gid}`, { title: 'renamed' });
    expect(updated.json.result.group.title).toBe('renamed');
    expect((await api('POST', `/api/v1/groups/${gid}/state?state=paused`)).json.result).toMatchObject({ state: 'paused' });
    expect((await api('POST', `/api/v1/groups/${gid}/state`, { state: 'active' })).json.result).toMatchObject({ state: 'active' });

    const dir = mkdtempSync(join(tmpdir(), 'cccc-web-scope-'));
    const attached = await api('POST', `/api/v1/groups/${gid}/attach`, { path: dir });
    expect(attached.status).toBe(200);
    expect(attached.json.result).toMatchObject({ group_id: gid });
    const sk = attached.json.result.scope_key;
    expect((await api('DELETE', `/api/v1/groups/${gid}/scopes/${sk}`)).status).toBe(200);
    rmSync(dir, { recursive: true, force: true });

    expect((await api('DELETE', `/api/v1/groups/${gid}`)).status).toBe(200);
    expect((await api('GET', `/api/v1/groups/${gid}`)).status).toBe(404);
  });

  it('settings read and write', async () => {
    const gid = await newGroup();
    const put = await api('PUT', `/api/v1/groups/${gid}/settings`, { delivery: { reply_notice_after_seconds: 120 } });
    expect(put.status).toBe(200);
    const got = await api('GET', `/api/v1/groups/${gid}/settings`);
    expect(got.json.result.settings.delivery).toMatchObject({ reply_notice_after_seconds: 120 });
  });
});

describe('actors', () => {
  it('add, list, update, private env keys, stop, remove', async () => {
    const gid = await newGroup();
    const added = await api('POST', `/api/v1/groups/${gid}/actors`, { actor_id: 'lead', runtime: 'custom', command: ['true'] });
    expect(added.status).toBe(200);
    expect(added.json.result.actor).toMatchObject({ id: 'lead' });
    const dup = await api('POST', `/api/v1/groups/${gid}/actors`, { actor_id: 'lead', runtime: 'custom', command: ['true'] });
    expect(dup.json.ok).toBe(false);
    expect(dup.status).toBeGreaterThanOrEqual(400);

    expect((await api('GET', `/api/v1/groups/${gid}/actors`)).json.result.actors.map((a: any) => a.id)).toEqual(['lead']);
    const upd = await api('POST', `/api/v1/groups/${gid}/actors/lead`, { title: 'The Lead' });
    expect(upd.json.result.actor.title).toBe('The Lead');
    const upd2 = await api('PUT', `/api/v1/groups/${gid}/actors/lead`, { patch: { title: 'Lead 2' } });
    expect(upd2.json.result.actor.title).toBe('Lead 2');

    const env = await api('POST', `/api/v1/groups/${gid}/actors/lead/env_private`, { set: { API_KEY: 'secret' } });
    expect(env.json.result.keys).toEqual(['API_KEY']);
    const keys = await api('GET', `/api/v1/groups/${gid}/actors/lead/env_private`);
    expect(keys.json.result).toEqual({ group_id: gid, actor_id: 'lead', keys: ['API_KEY'] });
    expect(JSON.stringify(keys.json)).not.toContain('secret');

    const stopped = await api('POST', `/api/v1/groups/${gid}/actors/lead/stop`);
    expect(stopped.status).toBe(200);
    expect((await api('DELETE', `/api/v1/groups/${gid}/actors/lead`)).status).toBe(200);
    expect((await api('GET', `/api/v1/groups/${gid}/actors`)).json.result.actors).toEqual([]);
  });

  it('terminal tail of an actor without a terminal is 409 actor_not_running; no actor_id is 400', async () => {
    const gid = await newGroup();
    await api('POST', `/api/v1/groups/${gid}/actors`, { actor_id: 'idle', runtime: 'custom', command: ['sh'] });
    const tail = await api('GET', `/api/v1/groups/${gid}/terminal/tail?actor_id=idle`);
    expect(tail).toMatchObject({ status: 409, json: { ok: false, error: { code: 'actor_not_running' } } });
    expect((await api('GET', `/api/v1/groups/${gid}/terminal/tail`)).json.error.code).toBe('missing_actor_id');
  });

  it('GET /api/v1/runtimes lists the catalog', async () => {
    const { json } = await api('GET', '/api/v1/runtimes');
    expect(json.result.runtimes.map((r: any) => r.runtime)).toContain('custom');
  });
});

describe('messaging and ledger reads', () => {
  it('send, reply, tail with statuses, search, statuses, inbox', async () => {
    const gid = await newGroup();
    await api('POST', `/api/v1/groups/${gid}/actors`, { actor_id: 'peer', runtime: 'custom', command: ['true'] });
    const sent = await api('POST', `/api/v1/groups/${gid}/send`, { text: 'hello from the web', to: ['peer'], message_mode: 'mail' });
    expect(sent.status).toBe(200);
    expect(sent.json.result).toMatchObject({ message_mode: 'mail', event: { kind: 'chat.message', by: 'user' } });
    const eid = sent.json.result.event.id;

    const replied = await api('POST', `/api/v1/groups/${gid}/reply`, { reply_to: eid, text: 'answering myself', to: ['peer'] });
    expect(replied.status).toBe(200);
    const badReply = await api('POST', `/api/v1/groups/${gid}/reply`, { reply_to: 'nope', text: 'x' });
    expect(badReply.json.ok).toBe(false);

    const tail = await api('GET', `/api/v1/groups/${gid}/ledger/tail?kind=chat&limit=10&with_read_status=true&with_obligation_status=true`);
    expect(tail.json.result.events.map((e: any) => e.id)).toContain(eid);
    expect(tail.json.result.read_status[eid]).toHaveProperty('peer');
    expect(tail.json.result.obligation_status).toBeDefined();

    const search = await api('GET', `/api/v1/groups/${gid}/ledger/search?q=hello`);
    expect(search.json.result.events.map((e: any) => e.id)).toEqual([eid]);
    expect((await api('GET', `/api/v1/groups/${gid}/ledger/search`)).status).toBe(400);

    const statuses = await api('POST', `/api/v1/groups/${gid}/ledger/statuses`, { event_ids: [eid, 'missing'] });
    expect(statuses.json.result.statuses[eid].peer).toMatchObject({ read: false });
    expect(statuses.json.result.unknown_event_ids).toEqual(['missing']);

    const inbox = await api('GET', `/api/v1/groups/${gid}/inbox/peer`);
    expect(inbox.json.result.messages.map((m: any) => m.id)).toContain(eid);
    const read = await api('POST', `/api/v1/groups/${gid}/inbox/peer/read`);
    expect(read.json.result.messages.length).toBeGreaterThan(0);
    expect((await api('GET', `/api/v1/groups/${gid}/inbox/peer`)).json.result.messages).toEqual([]);
  });

  it('cross-group send validation, tracked send, actor history', async () => {
    const src = await newGroup('src');
    const dst = await newGroup('dst');
    await api('POST', `/api/v1/groups/${dst}/actors`, { actor_id: 'peer', runtime: 'custom', command: ['true'] });
    // The positive path is not asserted: the daemon refuses by:"user" cross-group sends today
    // (no_enabled_recipients on the source record); the route is a plain mapping.
    expect((await api('POST', `/api/v1/groups/${src}/send_cross_group`, { text: 'x' })).json.error.details.field).toBe('dst_group_id');

    const tracked = await api('POST', `/api/v1/groups/${dst}/tracked_send`, { title: 'Do the thing', text: 'please', to: ['peer'] });
    expect(tracked.status).toBe(200);
    const history = await api('GET', `/api/v1/groups/${dst}/actors/peer/history?mode=all&limit=10`);
    expect(history.json.result.messages.map((m: any) => m.kind)).toEqual(['chat.message']);
    expect((await api('GET', `/api/v1/groups/${dst}/actors/peer/history?mode=weird`)).status).toBe(400);
  });

  it('reply-request cancel, explicit deliver errors, context', async () => {
    const gid = await newGroup();
    await api('POST', `/api/v1/groups/${gid}/actors`, { actor_id: 'peer', runtime: 'custom', command: ['true'] });
    const asked = await api('POST', `/api/v1/groups/${gid}/send`, { text: 'please answer', to: ['peer'], message_mode: 'request_reply' });
    expect(asked.status).toBe(200);
    const eid = asked.json.result.event.id;
    const cancelled = await api('POST', `/api/v1/groups/${gid}/messages/${eid}/reply-request/cancel`);
    expect(cancelled.json.result.event.kind).toBe('chat.reply_request.cancelled');
    const noActors = await api('POST', `/api/v1/groups/${gid}/messages/${eid}/deliver`, { actor_ids: [] });
    expect(noActors).toMatchObject({ status: 400, json: { error: { code: 'invalid_request' } } });
    const unknown = await api('POST', `/api/v1/groups/${gid}/messages/nope/deliver`, { actor_ids: ['peer'] });
    expect(unknown.json.ok).toBe(false);
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    const memory = await api('GET', `/api/v1/groups/${gid}/memory/search?query=nothing+yet&max_results=3`);
    expect(memory.json.result).toMatchObject({ hits: [], count: 0 });
    expect((await api('GET', `/api/v1/groups/${gid}/memory/search`)).json.error).toMatchObject({ code: 'invalid_request', details: { field: 'query' } });
    const context = await api('GET', `/api/v1/groups/${gid}/context?detail=summary`);
    expect(context.status).toBe(200);
    expect(context.json.result).toHaveProperty('version');
    expect((await api('GET', `/api/v1/groups/${gid}/context?detail=huge`)).status).toBe(400);
  });
});
