import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokensPath, createAccessToken, readAccessTokens, revokeAccessToken } from './auth/tokens.js';
import { startWebServer, type WebServer } from './server.js';
import { startDaemonHome, until, type DaemonHome } from './testing/harness.js';
import { SseReader } from './testing/sse-reader.js';

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

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(web.url + path, { headers });
  return { status: res.status, json: (await res.json()) as any, cookie: res.headers.get('set-cookie') };
}

describe('access tokens on a running server', () => {
  it('open while none exist; then 401 without a token, 200 with Bearer, cookie or ?token=; scoped tokens see only their groups', async () => {
    // Open: no access_tokens.yaml yet.
    const a = ((await (await fetch(web.url + '/api/v1/groups', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"A"}' })).json()) as any).result.group_id;
    const b = ((await (await fetch(web.url + '/api/v1/groups', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"B"}' })).json()) as any).result.group_id;
    expect((await get('/api/v1/groups')).status).toBe(200);

    // A token created while the server runs applies at once.
    const admin = createAccessToken(daemon.home, { admin: true });
    expect(admin.token).toMatch(/^acc_[0-9a-f]{32}$/);
    expect(await get('/api/v1/groups')).toMatchObject({ status: 401, json: { ok: false, error: { code: 'unauthorized' } } });
    expect((await get('/api/v1/ping', { authorization: 'Bearer acc_00000000000000000000000000000000' })).status).toBe(401);

    const bearer = await get('/api/v1/groups', { authorization: `Bearer ${admin.token}` });
    expect(bearer.status).toBe(200);
    expect(bearer.cookie).toContain(`cccc_access_token=${admin.token}`);
    expect(bearer.cookie).toContain('HttpOnly');
    expect((await get('/api/v1/groups', { cookie: `other=1; cccc_access_token=${admin.token}` })).status).toBe(200);
    const viaQuery = await get(`/api/v1/groups?token=${admin.token}`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.json.result.groups.map((g: any) => g.group_id)).toEqual(expect.arrayContaining([a, b]));

    // Group-scoped token: its group only.
    const scoped = createAccessToken(daemon.home, { groups: [a] });
    const auth = { authorization: `Bearer ${scoped.token}` };
    expect((await get(`/api/v1/groups/${a}`, auth)).status).toBe(200);
    expect(await get(`/api/v1/groups/${b}`, auth)).toMatchObject({ status: 403, json: { error: { code: 'permission_denied' } } });
    expect((await get(`/api/v1/groups/${b}/ledger/tail`, auth)).status).toBe(403);
    expect((await get('/api/v1/groups', auth)).json.result.groups.map((g: any) => g.group_id)).toEqual([a]);
    const create = await fetch(web.url + '/api/v1/groups', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(create.status).toBe(403);
    const stream = await fetch(`${web.url}/api/v1/groups/${b}/ledger/stream`, { headers: auth });
    expect(stream.status).toBe(403);

    // Revocation applies at once too.
    revokeAccessToken(daemon.home, scoped.token.slice(0, 12));
    expect((await get(`/api/v1/groups/${a}`, auth)).status).toBe(401);
    expect((await get(`/api/v1/groups/${a}`, { authorization: `Bearer ${admin.token}` })).status).toBe(200);

    // Removing every token opens the Web again (local trust).
    revokeAccessToken(daemon.home, admin.token);
    expect(readAccessTokens(daemon.home)).toEqual([]);
    expect((await get('/api/v1/groups')).status).toBe(200);
  });

  it('a hand-edited token file is picked up on the next request', async () => {
    const token = `acc_${'ab'.repeat(16)}`;
    writeFileSync(
      accessTokensPath(daemon.home),
      `tokens:\n  ${token}:\n    user_id: user\n    allowed_groups: []\n    is_admin: true\n    created_at: ""\n    updated_at: ""\n`,
    );
    try {
      expect((await get('/api/v1/ping')).status).toBe(401);
      expect((await get('/api/v1/ping', { authorization: `Bearer ${token}` })).status).toBe(200);
    } finally {
      rmSync(accessTokensPath(daemon.home));
    }
    expect((await get('/api/v1/ping')).status).toBe(200);
  });
});

describe('access-token routes', () => {
  it('create (token shown once), list by prefix, revoke; admin only', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(web.url + '/api/v1/access-tokens', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = (await (await post({ is_admin: true })).json()) as any;
    const admin = created.result.token as string;
    expect(admin).toMatch(/^acc_[0-9a-f]{32}$/);
    const auth = { authorization: `Bearer ${admin}` };
    expect((await post({ allowed_groups: [] }, auth)).status).toBe(400);
    const scoped = ((await (await post({ allowed_groups: ['g_x'] }, auth)).json()) as any).result;
    const list = await get('/api/v1/access-tokens', auth);
    expect(list.json.result.tokens.map((t: any) => t.id)).toEqual([admin.slice(0, 12), scoped.id]);
    expect(JSON.stringify(list.json)).not.toContain(admin);
    expect((await get('/api/v1/access-tokens', { authorization: `Bearer ${scoped.token}` })).status).toBe(403);
    const del = (id: string) => fetch(`${web.url}/api/v1/access-tokens/${id}`, { method: 'DELETE', headers: auth });
    expect((await del(scoped.id)).status).toBe(200);
    expect((await del('acc_ffffffff')).status).toBe(404);
    expect((await del(admin)).status).toBe(200);
    expect((await get('/api/v1/access-tokens')).json.result.tokens).toEqual([]);
  });
});

describe('long-lived streams after a revocation', () => {
  it('an SSE stream ends when its token is revoked, and an open stream ends once a token exists', async () => {
    const fast = await startWebServer({ home: daemon.home, port: 0, sse: { heartbeatMs: 100 } });
    try {
      const gid = ((await (await fetch(fast.url + '/api/v1/groups', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as any)
        .result.group_id;
      const open = (await SseReader.open(`${fast.url}/api/v1/groups/${gid}/ledger/stream`)).reader!;
      await until(() => open.comments.includes('connected'), 'open stream');
      const scoped = createAccessToken(daemon.home, { groups: [gid] });
      await until(() => open.ended, 'the open stream to end once a token exists');

      const guarded = await SseReader.open(`${fast.url}/api/v1/groups/${gid}/ledger/stream`, { authorization: `Bearer ${scoped.token}` });
      expect(guarded.status).toBe(200);
      await until(() => guarded.reader!.comments.includes('heartbeat'), 'a heartbeat on the token stream');
      expect(guarded.reader!.ended).toBe(false);
      revokeAccessToken(daemon.home, scoped.token);
      await until(() => guarded.reader!.ended, 'the token stream to end after revocation');
    } finally {
      for (const t of readAccessTokens(daemon.home)) revokeAccessToken(daemon.home, t.token);
      await fast.close();
    }
  });
});

describe('token file helpers', () => {
  it('create refuses a non-admin token without groups; revoke needs a unique prefix', () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-web-tokens-'));
    try {
      expect(() => createAccessToken(home, {})).toThrow(/--group/);
      const t = createAccessToken(home, { groups: ['g_1', 'g_1', 'g_2'] });
      expect(readAccessTokens(home)).toEqual([expect.objectContaining({ token: t.token, allowed_groups: ['g_1', 'g_2'], is_admin: false })]);
      expect(() => revokeAccessToken(home, 'acc_')).toThrow(/no access token/);
      expect(revokeAccessToken(home, t.token).token).toBe(t.token);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('non-loopback binding', () => {
  it('is refused while remote access is off or without an admin token, and allowed with both', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-web-bind-'));
    try {
      await expect(startWebServer({ home, host: '0.0.0.0', port: 0 })).rejects.toThrow(/non-loopback host 0\.0\.0\.0 while remote access is off/);
      writeFileSync(join(home, 'settings.yaml'), 'remote_access:\n  provider: manual\n  enabled: false\n');
      await expect(startWebServer({ home, host: '0.0.0.0', port: 0 })).rejects.toThrow(/while remote access is off/);
      writeFileSync(join(home, 'settings.yaml'), 'remote_access:\n  provider: manual\n  enabled: true\n');
      await expect(startWebServer({ home, host: '0.0.0.0', port: 0 })).rejects.toThrow(/non-loopback host 0\.0\.0\.0 without an admin access token/);
      createAccessToken(home, { groups: ['g_x'] });
      await expect(startWebServer({ home, host: '0.0.0.0', port: 0 })).rejects.toThrow(/admin access token/);
      createAccessToken(home, { admin: true });
      const server = await startWebServer({ home, host: '0.0.0.0', port: 0 });
      try {
        const port = server.port;
        expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(401);
        // Revoking every token later does not open a non-loopback server.
        for (const t of readAccessTokens(home)) revokeAccessToken(home, t.token);
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
        expect(res.status).toBe(401);
        expect(((await res.json()) as any).error.code).toBe('unauthorized');
      } finally {
        await server.close();
      }
      const local = await startWebServer({ home, host: 'localhost', port: 0 });
      await local.close();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
