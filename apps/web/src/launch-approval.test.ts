import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from './auth/tokens.js';
import { startWebServer, type WebServer } from './server.js';
import { startDaemonHome, type DaemonHome } from './testing/harness.js';

let daemon: DaemonHome;
let web: WebServer;
let client: DaemonClient;
let gid: string;
let admin: Record<string, string>;
let group: Record<string, string>;

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0 });
  client = new DaemonClient({ home: daemon.home });
  gid = (await client.call('group_create', { title: 'launch' })).group_id;
  const scope = join(daemon.home, 'scope');
  mkdirSync(scope, { recursive: true });
  await client.call('attach', { path: scope, group_id: gid });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
  await client.call('actor_add', { group_id: gid, actor_id: 'p1', runtime: 'custom', command: ['cat'] });
  admin = { authorization: `Bearer ${createAccessToken(daemon.home, { admin: true }).token}`, 'content-type': 'application/json' };
  group = { authorization: `Bearer ${createAccessToken(daemon.home, { groups: [gid] }).token}`, 'content-type': 'application/json' };
}, 180_000);

afterAll(async () => {
  await web?.close();
  await daemon?.stop();
}, 60_000);

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${web.url}/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, json: (await res.json()) as { ok: boolean; error?: { code: string; details?: Record<string, unknown> } } };
}

const ledgerSize = async () => (await client.call('ledger_tail', { group_id: gid, limit: 1000 })).events.length;

describe('a group-scoped Web token is not shell access (issue 20)', () => {
  it('cannot add an actor, change a launch field, link a profile or set private env; nothing is written', async () => {
    const before = await ledgerSize();
    const refusals = [
      await call('POST', `/groups/${gid}/actors`, group, { actor_id: 'evil', runtime: 'custom', command: ['sh', '-c', 'id > /tmp/pwned'] }),
      await call('POST', `/groups/${gid}/actors/p1`, group, { patch: { command: ['sh', '-c', 'id'] } }),
      await call('PUT', `/groups/${gid}/actors/p1`, group, { runtime: 'codex' }),
      await call('POST', `/groups/${gid}/actors/p1`, group, { patch: { env: { PATH: '/tmp/evil' } } }),
      await call('POST', `/groups/${gid}/actors/p1`, group, { patch: {}, profile_id: 'ap_x' }),
      await call('POST', `/groups/${gid}/actors/p1/env_private`, group, { set: { TOKEN: 'x' } }),
    ];
    for (const r of refusals) expect(r).toMatchObject({ status: 403, json: { ok: false, error: { code: 'permission_denied', details: { reason: 'launch_change_requires_admin' } } } });
    expect(await ledgerSize()).toBe(before);
  });

  it('keeps what a group token is for: other actor fields, starting and stopping actors the user set up', async () => {
    expect((await call('POST', `/groups/${gid}/actors/p1`, group, { patch: { title: 'Peer one' } })).status).toBe(200);
    expect((await call('POST', `/groups/${gid}/actors/p1/start`, group)).status).toBe(200);
    expect((await call('POST', `/groups/${gid}/actors/p1/stop`, group)).status).toBe(200);
    expect((await call('POST', `/groups/${gid}/start`, group)).status).toBe(200);
    expect((await call('POST', `/groups/${gid}/stop`, group)).status).toBe(200);
  });

  it('an admin token may change a launch, and the group token may then start it', async () => {
    expect((await call('POST', `/groups/${gid}/actors/p1`, admin, { patch: { command: ['cat', '-n'] } })).status).toBe(200);
    expect((await call('POST', `/groups/${gid}/actors/p1/start`, group)).status).toBe(200);
    await call('POST', `/groups/${gid}/actors/p1/stop`, admin);
  });

  it('an actor whose launch an agent wrote (a foreman clone) waits for an admin to start it', async () => {
    // The foreman may only add strict clones of itself (same launch), but the add is the agent's.
    await client.call('actor_add', { group_id: gid, actor_id: 'clone', runtime: 'custom', command: ['cat'], by: 'lead' });
    const refused = await call('POST', `/groups/${gid}/actors/clone/start`, group);
    expect(refused).toMatchObject({ status: 403, json: { error: { code: 'permission_denied', details: { reason: 'launch_not_approved' } } } });
    expect((await call('POST', `/groups/${gid}/start`, group)).status).toBe(403);
    expect((await call('POST', `/groups/${gid}/actors/clone/start`, admin)).status).toBe(200);
    await call('POST', `/groups/${gid}/stop`, admin);
  });
});
