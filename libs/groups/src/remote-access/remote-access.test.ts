import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome } from '../testing.js';
import { applyConfigure, readStored } from './config.js';
import { RemoteAccessService } from './service.js';
import { parseTailscaleStatus, runBounded, tailscaleStartArgs, tailscaleStatusArgs, tailscaleStopArgs } from './tailscale.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function binDir(script?: string): string {
  const d = mkdtempSync(join(tmpdir(), 'cccc-ts-bin-'));
  dirs.push(d);
  if (script !== undefined) {
    writeFileSync(join(d, 'tailscale'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(d, 'tailscale'), 0o755);
  }
  return d;
}
const adminToken = (home: string) => writeFileSync(join(home, 'access_tokens.yaml'), 'tokens:\n  acc_0123456789abcdef0123456789abcdef:\n    user_id: u\n    allowed_groups: []\n    is_admin: true\n');
const groupToken = (home: string) => writeFileSync(join(home, 'access_tokens.yaml'), 'tokens:\n  acc_0123456789abcdef0123456789abcdef:\n    allowed_groups: [g_1]\n    is_admin: false\n');
const settingsText = (home: string) => (existsSync(join(home, 'settings.yaml')) ? readFileSync(join(home, 'settings.yaml'), 'utf8') : '');

describe('remote access: manual provider', () => {
  it('is off by default, and localhost-only manual access starts without a token', async () => {
    using home = makeTempHome();
    const svc = new RemoteAccessService(home.layout, { env: { PATH: binDir() } });
    const s0 = (await svc.state()).remote_access;
    expect(s0).toMatchObject({ provider: 'off', enabled: false, status: 'stopped', require_access_token: true });
    await expect(svc.start()).rejects.toMatchObject({ code: 'remote_access_not_configured' });
    await svc.configure({ provider: 'manual', web_port: 9001 });
    const s1 = (await svc.start()).remote_access;
    expect(s1).toMatchObject({ provider: 'manual', mode: 'manual', enabled: true, status: 'running', endpoint: 'http://127.0.0.1:9001/' });
    expect(s1.diagnostics).toMatchObject({ web_host: '127.0.0.1', web_host_source: 'default', web_port: 9001, web_port_source: 'settings', web_bind_loopback: true, remote_listener_auth_required: false });
    expect((await svc.stop()).remote_access).toMatchObject({ enabled: false, status: 'stopped' });
  });

  it('requires an administrator token for a non-local bind or a public URL; a group token does not count', async () => {
    using home = makeTempHome();
    const svc = new RemoteAccessService(home.layout, { env: {} });
    await svc.configure({ provider: 'manual', web_host: '0.0.0.0', web_public_url: 'https://cccc.example.com/team' });
    const before = settingsText(home.home);
    await expect(svc.start()).rejects.toMatchObject({ code: 'remote_access_admin_token_required' });
    groupToken(home.home);
    await expect(svc.start()).rejects.toMatchObject({ code: 'remote_access_admin_token_required' });
    expect(settingsText(home.home)).toBe(before);
    expect((await svc.state()).remote_access).toMatchObject({ enabled: false, diagnostics: { admin_access_token_count: 0, access_token_count: 1, remote_listener_auth_requirement_satisfied: false } });
    adminToken(home.home);
    const s = (await svc.start()).remote_access;
    expect(s).toMatchObject({ enabled: true, status: 'running', endpoint: 'https://cccc.example.com/team', diagnostics: { admin_access_token_count: 1, web_bind_reachable: true, remote_listener_auth_requirement_satisfied: true } });
    // The state never carries a token value.
    expect(JSON.stringify(s)).not.toContain('acc_0123456789abcdef');
  });

  it('refuses to reconfigure an enabled loopback setup into remote exposure without an admin token, writing nothing', async () => {
    using home = makeTempHome();
    const svc = new RemoteAccessService(home.layout, { env: {} });
    await svc.configure({ provider: 'manual' });
    await svc.start();
    const before = settingsText(home.home);
    await expect(svc.configure({ web_host: '192.168.1.20' })).rejects.toMatchObject({ code: 'remote_access_admin_token_required' });
    expect(settingsText(home.home)).toBe(before);
  });

  it('the explicit unsafe override satisfies the rule and is reported', async () => {
    using home = makeTempHome();
    const svc = new RemoteAccessService(home.layout, { env: { CCCC_WEB_ALLOW_UNAUTHENTICATED: '1' } });
    await svc.configure({ provider: 'manual', web_host: '0.0.0.0' });
    expect((await svc.start()).remote_access).toMatchObject({ enabled: true, diagnostics: { allow_unauthenticated_listener_override: true } });
  });

  it('validates configuration and refuses invalid values with nothing written', async () => {
    using home = makeTempHome();
    const svc = new RemoteAccessService(home.layout, { env: {} });
    await expect(svc.configure({ web_public_url: 'ftp://x' })).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'web_public_url' } });
    await expect(svc.configure({ web_public_url: 'https://user:pw@x.example/' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(svc.configure({ web_host: 'http://x/' })).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'web_host' } });
    await expect(svc.configure({ web_port: 70000 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(svc.configure({ provider: 'manual', mode: 'funnel' })).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'mode' } });
    expect(settingsText(home.home)).toBe('');
    expect(() => applyConfigure(readStored({ provider: 'reach', enabled: true }), { provider: 'manual' }, 'now')).toThrow(/membership_reach_off/);
  });
});

describe('remote access: tailscale provider', () => {
  it('builds the serve/funnel command lines', () => {
    expect(tailscaleStartArgs('serve', 8848)).toEqual(['serve', '--bg', '--yes', '--https=443', 'http://127.0.0.1:8848']);
    expect(tailscaleStartArgs('funnel', 9000)).toEqual(['funnel', '--bg', '--yes', '--https=443', 'http://127.0.0.1:9000']);
    expect(tailscaleStopArgs('serve')).toEqual(['serve', '--https=443', 'off']);
    expect(tailscaleStatusArgs()).toEqual(['status', '--json']);
    expect(parseTailscaleStatus('{"BackendState":"Running","Self":{"DNSName":"box.tail1.ts.net."}}')).toEqual({ backend_state: 'Running', dns_name: 'box.tail1.ts.net' });
    expect(parseTailscaleStatus('garbage')).toEqual({ backend_state: null, dns_name: null });
  });

  it('not installed here: status not_installed, start/stop remote_access_not_installed, desired state unchanged', async () => {
    using home = makeTempHome();
    adminToken(home.home);
    const svc = new RemoteAccessService(home.layout, { env: { PATH: binDir() } });
    await svc.configure({ provider: 'tailscale' });
    expect((await svc.state()).remote_access).toMatchObject({ provider: 'tailscale', mode: 'serve', status: 'not_installed', enabled: false, diagnostics: { tailscale_installed: false } });
    await expect(svc.start()).rejects.toMatchObject({ code: 'remote_access_not_installed' });
    await expect(svc.stop()).rejects.toMatchObject({ code: 'remote_access_not_installed' });
    expect((await svc.state()).remote_access).toMatchObject({ enabled: false });
  });

  it('needs an admin token before it runs anything', async () => {
    using home = makeTempHome();
    const log = join(binDir(), 'calls');
    const svc = new RemoteAccessService(home.layout, { env: { PATH: binDir(`echo "$@" >> ${log}`) } });
    await svc.configure({ provider: 'tailscale' });
    await expect(svc.start()).rejects.toMatchObject({ code: 'remote_access_admin_token_required' });
    // Only `status --json` (the state read) ran; never serve/funnel.
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['status --json']);
  });

  it('a failing or hanging CLI answers start_failed / stop_failed and leaves the desired state as it was', async () => {
    using home = makeTempHome();
    adminToken(home.home);
    const failing = new RemoteAccessService(home.layout, { env: { PATH: binDir('echo "serve config denied" >&2; exit 3') } });
    await failing.configure({ provider: 'tailscale', mode: 'funnel', web_port: 9100 });
    await expect(failing.start()).rejects.toMatchObject({ code: 'remote_access_start_failed', details: { exit_code: 3, timed_out: false, stderr: expect.stringContaining('serve config denied') } });
    expect(readStored((await import('yaml')).parse(settingsText(home.home)).remote_access).enabled).toBe(false);
    const hanging = new RemoteAccessService(home.layout, { env: { PATH: binDir('sleep 20') }, commandTimeoutMs: 300 });
    const t0 = Date.now();
    await expect(hanging.start()).rejects.toMatchObject({ code: 'remote_access_start_failed', details: { timed_out: true } });
    expect(Date.now() - t0).toBeLessThan(5000);
    const calls = join(binDir(), 'calls');
    const working = new RemoteAccessService(home.layout, {
      env: { PATH: binDir(`echo "$@" >> ${calls}; [ "$1" = status ] && echo '{"BackendState":"Running","Self":{"DNSName":"box.tail1.ts.net."}}'; exit 0`) },
    });
    expect((await working.start()).remote_access).toMatchObject({ enabled: true, status: 'running', endpoint: 'https://box.tail1.ts.net/' });
    expect(readFileSync(calls, 'utf8')).toContain('funnel --bg --yes --https=443 http://127.0.0.1:9100');
    const before = settingsText(home.home);
    await expect(failing.stop()).rejects.toMatchObject({ code: 'remote_access_stop_failed' });
    await expect(hanging.stop()).rejects.toMatchObject({ code: 'remote_access_stop_failed', details: { timed_out: true } });
    expect(settingsText(home.home)).toBe(before);
    expect((await working.stop()).remote_access).toMatchObject({ enabled: false });
  });

  it('captures bounded output', async () => {
    const out = await runBounded('sh', ['-c', 'head -c 200000 /dev/zero | tr "\\0" a'], 5000);
    expect(out.ok).toBe(true);
    expect(out.stdout.length).toBe(16 * 1024);
  });
});
