import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let src: DaemonFixture;
let dst: DaemonFixture;
let gid: string;
const ws = mkdtempSync(join(tmpdir(), 'cccc-copy-ws-'));
const SECRET_ENV = 'sk-live-7f3a9e2b5c1d';
const SECRET_PRIVATE = 'private-env-0a1b2c3d4e';

function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (r.startsWith('daemon')) continue; // the daemon's own socket/log files
      const st = statSync(join(root, r));
      out.push(`${r}:${st.isDirectory() ? 'd' : readFileSync(join(root, r)).toString('base64')}`);
      if (st.isDirectory()) walk(r);
    }
  };
  walk('');
  return out.sort();
}

beforeAll(async () => {
  src = await startDaemonFixture();
  dst = await startDaemonFixture();
  gid = (await src.call('group_create', { title: 'Copy Team', topic: 'export me' })).group_id;
  await src.call('attach', { path: ws, group_id: gid });
  await src.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['cat'], env: { ANTHROPIC_API_KEY: SECRET_ENV, MODE: 'ci' } });
  await src.call('actor_add', { group_id: gid, actor_id: 'p1', runtime: 'custom', command: ['cat', '-n'] });
  await src.call('actor_env_private_update', { group_id: gid, actor_id: 'lead', set: { GH_TOKEN: SECRET_PRIVATE } } as never);
  await src.call('group_settings_update', { group_id: gid, patch: { default_send_to: 'broadcast' } } as never);
  await src.call('send', { group_id: gid, text: 'hello team', to: ['p1'], message_mode: 'send' } as never);
});
afterAll(async () => {
  await src?.[Symbol.asyncDispose]();
  await dst?.[Symbol.asyncDispose]();
  rmSync(ws, { recursive: true, force: true });
});

describe('group_copy_* over the socket', () => {
  it('export → preview → import reproduces ledger, actors and settings in another home, minus secrets', async () => {
    const ledgerAtExport = src.ledgerLines(gid).length;
    const exp = await src.call('group_copy_export', { group_id: gid });
    expect(exp.manifest).toMatchObject({ kind: 'cccc.group_copy', source_group_id: gid, contains_secrets: false, workspace_included: false });
    const bytes = Buffer.from(exp.package_b64, 'base64');
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const before = tree(dst.home);
    const { preview } = await dst.call('group_copy_preview_import', { package_b64: exp.package_b64 });
    expect(tree(dst.home)).toEqual(before);
    expect(preview).toMatchObject({ source_group_id: gid, source_title: 'Copy Team', actor_count: 2, group_id_conflict: false, workspace_root_exists: true });
    const imported = await dst.call('group_copy_import', { package_b64: exp.package_b64 });
    expect(imported).toMatchObject({ group_id: gid, source_group_id: gid, group_id_conflict: false });
    // The copy is the ledger as of the export (the sent message woke p1, whose runtime events
    // may still be arriving in the source afterwards).
    const copied = dst.ledgerLines(gid);
    expect(copied.length).toBeGreaterThanOrEqual(ledgerAtExport);
    expect(copied).toEqual(src.ledgerLines(gid).slice(0, copied.length));
    expect(copied.some((l) => l.includes('hello team'))).toBe(true);
    const shown = (await dst.call('group_show', { group_id: gid })).group as Record<string, any>;
    expect(shown).toMatchObject({ title: 'Copy Team', topic: 'export me', running: false, state: 'idle', messaging: { default_send_to: 'broadcast' } });
    expect(shown.actors.map((a: any) => a.id)).toEqual(['lead', 'p1']);
    expect(shown.actors[0].env).toEqual({ MODE: 'ci' });
    const keys = await dst.call('actor_env_private_keys', { group_id: gid, actor_id: 'lead' } as never);
    expect((keys as { keys: string[] }).keys).toEqual([]);
    expect((await dst.call('groups', {})).groups.map((g) => g.group_id)).toContain(gid);
  });

  it('export_file + import by path into the same home allocates a new id', async () => {
    const file = await src.call('group_copy_export_file', { group_id: gid });
    expect(existsSync(file.package_path)).toBe(true);
    const raw = readFileSync(file.package_path).toString('latin1');
    expect(raw.includes(SECRET_ENV) || raw.includes(SECRET_PRIVATE)).toBe(false);
    const imported = await src.call('group_copy_import', { package_path: file.package_path, title: 'Copy Team 2' });
    expect(imported.group_id).not.toBe(gid);
    expect(imported.group_id_conflict).toBe(true);
    expect((await src.call('group_show', { group_id: imported.group_id })).group).toMatchObject({ title: 'Copy Team 2', running: false });
    // The copied history reads back under the new id, and the new group takes messages.
    const tail = await src.call('ledger_tail', { group_id: imported.group_id, limit: 50 });
    const copiedIds = src.ledgerLines(imported.group_id).map((l) => JSON.parse(l).id as string);
    expect(tail.events.length).toBeGreaterThan(0);
    expect(tail.events.map((e) => e.id)).toEqual(copiedIds.slice(-tail.events.length));
    expect(src.ledgerLines(gid).slice(0, copiedIds.length).map((l) => JSON.parse(l).id)).toEqual(copiedIds);
    await src.call('send', { group_id: imported.group_id, text: 'hello copy', to: ['p1'], message_mode: 'send' } as never);
    expect(src.ledgerLines(imported.group_id).some((l) => l.includes('hello copy') && l.includes(imported.group_id))).toBe(true);
    await src.call('group_stop', { group_id: imported.group_id });
  });

  it('refuses a hostile or wrong package with invalid_group_copy and writes nothing', async () => {
    const before = tree(dst.home);
    const notZip = Buffer.from('hello').toString('base64');
    expect((await dst.errorOf('group_copy_import', { package_b64: notZip })).code).toBe('invalid_group_copy');
    expect((await dst.errorOf('group_copy_preview_import', {})).code).toBe('invalid_group_copy');
    const p = join(tmpdir(), `cccc-copy-${process.pid}.zip`);
    writeFileSync(p, 'PK\x05\x06' + '\0'.repeat(18));
    expect((await dst.errorOf('group_copy_import', { package_path: p })).details).toMatchObject({ reason: 'missing_manifest' });
    rmSync(p);
    expect((await dst.errorOf('group_copy_export', { group_id: 'g_000000000000' })).code).toBe('group_not_found');
    expect((await dst.errorOf('group_copy_import', { package_b64: notZip, by: 'lead' })).code).toBe('permission_denied');
    expect(tree(dst.home)).toEqual(before);
  });
});

describe('remote_access_* over the socket', () => {
  it('is advertised, the manual provider needs an admin token for remote exposure, tailscale is not installed here', async () => {
    expect((await dst.call('ping', {})).capabilities).toMatchObject({ remote_access: true });
    expect((await dst.call('remote_access_state', {})).remote_access).toMatchObject({ provider: 'off', enabled: false, status: 'stopped' });
    await dst.call('remote_access_configure', { provider: 'manual', web_host: '0.0.0.0', web_port: 18848 });
    const err = await dst.errorOf('remote_access_start', {});
    expect(err.code).toBe('remote_access_admin_token_required');
    expect((await dst.call('remote_access_state', {})).remote_access).toMatchObject({ enabled: false });
    writeFileSync(join(dst.home, 'access_tokens.yaml'), 'tokens:\n  acc_00000000000000000000000000000001:\n    is_admin: true\n');
    expect((await dst.call('remote_access_start', {})).remote_access).toMatchObject({ provider: 'manual', enabled: true, status: 'running', endpoint: 'http://0.0.0.0:18848/' });
    expect((await dst.call('remote_access_stop', {})).remote_access).toMatchObject({ enabled: false });
    await dst.call('remote_access_configure', { provider: 'tailscale' });
    expect((await dst.call('remote_access_state', {})).remote_access).toMatchObject({ provider: 'tailscale', status: 'not_installed' });
    expect((await dst.errorOf('remote_access_start', {})).code).toBe('remote_access_not_installed');
    expect((await dst.errorOf('remote_access_configure', { provider: 'reach' })).code).toBe('invalid_request');
    expect((await dst.errorOf('remote_access_start', { by: 'lead' })).code).toBe('permission_denied');
  });
});
