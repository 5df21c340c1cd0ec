import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotebookLmControlPlane } from './control-plane.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const home = () => {
  const d = mkdtempSync(join(tmpdir(), 'nblm-'));
  dirs.push(d);
  return d;
};
const AUTH = JSON.stringify({ cookies: [{ name: 'SID', value: 'super-secret-cookie-value', domain: '.google.com' }], origins: [] });

async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof p === 'function' ? p() : p);
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('NotebookLM control plane', () => {
  it('without a credential: disabled, health not configured, auth status idle; start is capability_unavailable', async () => {
    const cp = new NotebookLmControlPlane(home(), {});
    expect(cp.state()).toMatchObject({ provider: 'notebooklm', enabled: false, mode: 'disabled', write_ready: false, readiness_reason: 'auth_not_configured' });
    expect(cp.credentials.view()).toEqual({ provider: 'notebooklm', key: 'CCCC_NOTEBOOKLM_AUTH_JSON', configured: false, source: 'none', env_configured: false, store_configured: false, updated_at: null, masked_value: null });
    const h = await cp.healthCheck({});
    expect(h).toMatchObject({ healthy: false, error: { code: 'space_provider_not_configured' } });
    expect(cp.auth({}).auth.state).toBe('idle');
    expect(await codeOf(() => cp.auth({ action: 'start' }))).toBe('capability_unavailable');
    expect(await codeOf(() => cp.auth({ by: 'peer1' }))).toBe('permission_denied');
  });

  it('update validates auth_json, stores it 0600 under state/secrets/space_providers, never returns it; the mode becomes degraded', async () => {
    const h = home();
    const cp = new NotebookLmControlPlane(h, {});
    for (const bad of ['', 'not json', '[]', '{"cookies":[]}', '{"cookies":[{"name":"a","value":"b","domain":"example.com"}]}', '{"cookies":[1]}']) {
      expect(await codeOf(cp.updateCredential({ auth_json: bad })), bad).toMatch(/^(invalid_request|space_provider_auth_invalid)$/);
    }
    expect(await codeOf(cp.updateCredential({ auth_json: AUTH, by: 'peer1' }))).toBe('permission_denied');
    expect(cp.credentials.view().configured).toBe(false);
    const r = await cp.updateCredential({ auth_json: AUTH });
    expect(JSON.stringify(r)).not.toContain('super-secret');
    expect(r.credential).toMatchObject({ configured: true, source: 'store', store_configured: true, masked_value: '******' });
    const file = join(h, 'state', 'secrets', 'space_providers', 'notebooklm.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(h, 'state', 'secrets', 'space_providers')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toContain('super-secret');
    expect(cp.state()).toMatchObject({ enabled: true, mode: 'degraded', auth_configured: true, write_ready: false, readiness_reason: 'wire_client_unavailable' });
    const health = await cp.healthCheck({});
    expect(health).toMatchObject({ healthy: false, error: { code: 'capability_unavailable' }, health: { auth_json_valid: true, wire_client: false } });
    expect(JSON.stringify(health)).not.toContain('super-secret');
    expect(cp.state().last_health_at).not.toBeNull();
    await cp.updateCredential({ clear: true });
    expect(cp.credentials.view().configured).toBe(false);
    expect(cp.state().mode).toBe('disabled');
  });

  it('a candidate auth_json in a health check is validated, never stored; the env credential wins over the store', async () => {
    const h = home();
    const cp = new NotebookLmControlPlane(h, {});
    const r = await cp.healthCheck({ auth_json: AUTH });
    expect(r.health).toMatchObject({ candidate: true, auth_json_valid: true });
    expect(cp.credentials.view().configured).toBe(false);
    expect((await cp.healthCheck({ auth_json: '{"cookies":[]}' })).error?.code).toBe('space_provider_auth_invalid');
    const env = new NotebookLmControlPlane(h, { CCCC_NOTEBOOKLM_AUTH_JSON: AUTH });
    expect(env.credentials.view()).toMatchObject({ configured: true, source: 'env', env_configured: true, store_configured: false });
  });
});
