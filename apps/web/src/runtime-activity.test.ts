import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { createAccessToken } from './auth/tokens.js';
import { startWebServer, type WebServer } from './server.js';
import { startDaemonHome, until, type DaemonHome } from './testing/harness.js';
import { SseReader } from './testing/sse-reader.js';

// The seed's HTTP contract over a real daemon: a fake agent installed as `claude` gets the real
// injected hooks, runs the built `cccc hook claude-state`, and its tool activity reaches the
// snapshot route and the named `runtime-activity` SSE events.

let daemon: DaemonHome;
let web: WebServer;
let gid: string;

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(web.url + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}
async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const r = await api(method, path, body);
  if (!r.json.ok) throw new Error(`${method} ${path}: ${JSON.stringify(r.json)}`);
  return r.json.result;
}

const statePath = () => join(daemon.home, 'daemon', 'claude-hook-state', `${createHash('sha256').update(`${gid}\0peer1`).digest('hex')}.json`);
const storePath = () => join(daemon.home, 'groups', gid, 'state', 'runtime-activity', 'events.json');
const activity = (r: SseReader) => r.events.filter((e) => e.event === 'runtime-activity').map((e) => JSON.parse(e.data));
const send = (text: string) => ok('POST', `/api/v1/groups/${gid}/send`, { text, to: ['peer1'], message_mode: 'send' });

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0, sse: { heartbeatMs: 100 } });
  const bin = join(daemon.home, 'bin');
  mkdirSync(bin, { recursive: true });
  const [node, script] = fakeAgentArgv();
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec '${node}' '${script}' "$@"\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  gid = (await ok('POST', '/api/v1/groups', { title: 'activity' })).group_id;
  const scope = join(daemon.home, 'scopes', gid);
  mkdirSync(scope, { recursive: true });
  await ok('POST', `/api/v1/groups/${gid}/attach`, { path: scope });
  await ok('POST', `/api/v1/groups/${gid}/actors`, { actor_id: 'peer1', runtime: 'custom', command: [join(bin, 'claude')] });
  await ok('POST', `/api/v1/groups/${gid}/start`);
  await until(() => existsSync(statePath()) && JSON.parse(readFileSync(statePath(), 'utf8')).session_id, 'SessionStart through the hook', 60_000);
}, 240_000);

afterAll(async () => {
  await web?.close();
  await daemon?.stop();
}, 60_000);

describe('runtime activity over HTTP', () => {
  it('replay=false streams named runtime-activity events of new tool activity; the snapshot and replay=true restore the view', async () => {
    const live = (await SseReader.open(`${web.url}/api/v1/groups/${gid}/runtime-activity/stream?replay=false`)).reader!;
    await until(() => live.comments.includes('connected'), 'connected');
    await send('use a tool');
    await until(() => activity(live).some((e) => e.kind === 'tool' && e.status === 'completed'), 'tool completion over SSE', 60_000);
    const tool = activity(live).filter((e) => e.kind === 'tool');
    expect(tool.map((e) => e.status)).toEqual(['started', 'completed']);
    expect(tool[1]).toMatchObject({ v: 1, group_id: gid, actor_id: 'peer1', runtime: 'claude', tool_name: 'Bash', event_type: 'PostToolUse' });
    await until(() => live.comments.includes('heartbeat'), 'heartbeat');

    const snapshot = await api('GET', `/api/v1/groups/${gid}/runtime-activity/snapshot`);
    expect(snapshot.status).toBe(200);
    expect(snapshot.json.ok).toBe(true);
    const ids = (snapshot.json.result.events as Array<{ id: string }>).map((e) => e.id);
    expect(ids).toContain(tool[1].id);
    const replayed = (await SseReader.open(`${web.url}/api/v1/groups/${gid}/runtime-activity/stream?replay=true`)).reader!;
    await until(() => activity(replayed).length >= ids.length, 'replay');
    expect(activity(replayed).map((e) => e.id)).toEqual(ids);

    // Both streams then carry the same new revisions.
    const before = activity(live).length;
    await send('another tool');
    await until(() => activity(live).filter((e) => e.kind === 'tool' && e.status === 'completed').length >= 2, 'second completion', 60_000);
    const fresh = activity(live).slice(before).map((e) => e.id);
    await until(() => activity(replayed).length >= ids.length + fresh.length, 'fan-out to the replayed stream');
    expect(activity(replayed).slice(ids.length).map((e) => e.id)).toEqual(fresh);
    live.close();
    replayed.close();
  });

  it('a corrupt store: the snapshot is 503 runtime_activity_unavailable, the stream stays open', async () => {
    const stream = (await SseReader.open(`${web.url}/api/v1/groups/${gid}/runtime-activity/stream`)).reader!;
    await until(() => stream.comments.includes('connected'), 'connected');
    const saved = readFileSync(storePath(), 'utf8');
    writeFileSync(storePath(), '[{"half":');
    const r = await api('GET', `/api/v1/groups/${gid}/runtime-activity/snapshot`);
    expect(r).toMatchObject({ status: 503, json: { ok: false, error: { code: 'runtime_activity_unavailable' } } });
    const beats = stream.comments.filter((c) => c === 'heartbeat').length;
    await until(() => stream.comments.filter((c) => c === 'heartbeat').length >= beats + 2, 'heartbeats while corrupt');
    expect(stream.ended).toBe(false);
    writeFileSync(storePath(), saved);
    stream.close();
  });

  it('bad arguments and unknown groups answer JSON before any stream starts', async () => {
    const bad = await SseReader.open(`${web.url}/api/v1/groups/${gid}/runtime-activity/stream?replay=maybe`);
    expect(bad).toMatchObject({ status: 400, json: { ok: false, error: { code: 'invalid_request' } } });
    const missing = await SseReader.open(`${web.url}/api/v1/groups/g_000000000000/runtime-activity/stream`);
    expect(missing).toMatchObject({ status: 404, json: { error: { code: 'group_not_found' } } });
    expect((await api('GET', '/api/v1/groups/g_000000000000/runtime-activity/snapshot')).status).toBe(404);
  });

  it('uses the normal Web authentication: 401 without a token, 403 for another group, 200 with one', async () => {
    const other = (await ok('POST', '/api/v1/groups', { title: 'other' })).group_id;
    const admin = createAccessToken(daemon.home, { admin: true });
    const scoped = createAccessToken(daemon.home, { groups: [other] });
    const path = `/api/v1/groups/${gid}/runtime-activity`;
    expect(await api('GET', `${path}/snapshot`)).toMatchObject({ status: 401, json: { error: { code: 'unauthorized' } } });
    expect((await SseReader.open(`${web.url}${path}/stream`)).status).toBe(401);
    expect((await api('GET', `${path}/snapshot`, undefined, { authorization: `Bearer ${scoped.token}` })).status).toBe(403);
    expect((await SseReader.open(`${web.url}${path}/stream`, { authorization: `Bearer ${scoped.token}` })).status).toBe(403);
    expect((await api('GET', `${path}/snapshot`, undefined, { authorization: `Bearer ${admin.token}` })).status).toBe(200);
    const s = await SseReader.open(`${web.url}${path}/stream?token=${admin.token}`);
    expect(s.status).toBe(200);
    s.reader!.close();
  });
});
