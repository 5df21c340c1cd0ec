import { DaemonClient, type DaemonCallError } from '@cccc/ipc-protocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from './auth/tokens.js';
import { startWebServer } from './server.js';
import { startDaemonHome, type DaemonHome } from './testing/harness.js';

// §8.17 manual provider end to end: the daemon's remote_access_* ops decide, the Web obeys.
// A non-loopback bind is refused while remote access is off, starting remote exposure needs an
// admin access token, and once both hold the Web listens beyond loopback behind its tokens.
let daemon: DaemonHome;
beforeAll(async () => {
  daemon = await startDaemonHome();
}, 120_000);
afterAll(async () => {
  await daemon?.stop();
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as DaemonCallError).code;
  }
  throw new Error('expected a refusal');
}

describe('remote access (manual) with the Web', () => {
  it('off → refused bind; no admin token → start refused; token + start → bind; stop → refused again', async () => {
    const client = new DaemonClient({ home: daemon.home });
    const bind = () => startWebServer({ home: daemon.home, host: '0.0.0.0', port: 0 });
    await expect(bind()).rejects.toThrow(/while remote access is off/);

    await client.call('remote_access_configure', { provider: 'manual', web_host: '0.0.0.0' });
    expect(await codeOf(client.call('remote_access_start', {}))).toBe('remote_access_admin_token_required');
    await expect(bind()).rejects.toThrow(/while remote access is off/);

    const token = createAccessToken(daemon.home, { admin: true });
    const { remote_access } = await client.call('remote_access_start', {});
    expect(remote_access).toMatchObject({ provider: 'manual', enabled: true, status: 'running', diagnostics: { admin_access_token_count: 1, web_bind_reachable: true } });
    const web = await bind();
    try {
      expect((await fetch(`http://127.0.0.1:${web.port}/api/v1/groups`)).status).toBe(401);
      const ok = await fetch(`http://127.0.0.1:${web.port}/api/v1/remote-access`, { headers: { Authorization: `Bearer ${token.token}` } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { result: { remote_access: { enabled: boolean } } }).result.remote_access.enabled).toBe(true);
    } finally {
      await web.close();
    }

    await client.call('remote_access_stop', {});
    await expect(bind()).rejects.toThrow(/while remote access is off/);
  });
});
