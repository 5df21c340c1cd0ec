import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { parse } from 'yaml';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import { afterEach, describe, expect, it } from 'vitest';
import { addActor } from '../actor-store.js';
import { updateGroupSettings } from '../group-settings.js';
import { loadGroup, updateGroup } from '../group-store.js';
import { createGroup } from '../groups.js';
import { updateActorPrivateEnv } from '../private-env.js';
import { updateProfileSecrets, upsertProfile } from '../profiles.js';
import { readRegistry } from '../registry-store.js';
import { attachScope } from '../scope-ops.js';
import { makeTempHome, type TempHome } from '../testing.js';
import { buildGroupPackage, exportGroupCopy, exportGroupCopyFile } from './package-writer.js';
import { importGroupCopy, previewGroupCopy } from './import.js';
import { rawZip, type RawEntry } from './raw-zip.test-support.js';

const SECRETS = {
  actorEnv: 'sk-actor-env-5c1f0a9e7d',
  privateEnv: 'priv-env-secret-8b2d44c1',
  profile: 'profile-secret-3e9a7f20',
  imToken: 'im-bot-token-77aa01bc',
  weixin: 'weixin-ctx-token-19cd5e',
  accessToken: 'acc_0123456789abcdef0123456789abcdef',
};

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tmpDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cccc-copy-ws-'));
  dirs.push(d);
  return d;
}

/** A group with actors, settings, a ledger, IM config and secrets planted everywhere. */
const LEDGER_INDEX_FILES = ['ts-index.sqlite3', 'ts-index.sqlite3-wal', 'ts-index.sqlite3-shm', 'ts-index.sqlite3.open-4242-0a1b2c3d', 'ts-index.sqlite3.clean', 'status.sqlite3-journal'];

async function seededGroup(home: TempHome): Promise<{ gid: string; ws: string }> {
  const ws = tmpDir();
  const g = await createGroup(home.layout, { title: 'Copy Me', topic: 'round trip' });
  await attachScope(home.layout, { path: ws, groupId: g.group_id });
  await addActor(home.layout, 'user', g.group_id, { actor_id: 'lead', runtime: 'custom', command: ['bash'], env: { OPENAI_API_KEY: SECRETS.actorEnv, LOG_LEVEL: 'debug' } });
  await addActor(home.layout, 'user', g.group_id, { actor_id: 'peer1', runtime: 'custom', command: ['bash'] });
  await updateActorPrivateEnv(home.layout, 'user', g.group_id, 'lead', { set: { SECRET_TOKEN: SECRETS.privateEnv } });
  await upsertProfile(home.layout, 'user', { id: 'p1', name: 'P1', runtime: 'custom', runner: 'pty', command: ['bash'] } as never);
  await updateProfileSecrets(home.layout, 'user', 'p1', { set: { API: SECRETS.profile } });
  await updateGroupSettings(home.layout, g.group_id, { default_send_to: 'broadcast' });
  await updateGroup(home.layout, g.group_id, (doc) => {
    (doc as Record<string, unknown>).im = { platform: 'telegram', bot_token: SECRETS.imToken, chat_id: '42' };
    doc.running = true;
    doc.state = 'active';
  });
  const dir = home.layout.groupDir(g.group_id);
  const ledger = [1, 2, 3].map((i) => JSON.stringify({ v: 1, id: `e${i}`, kind: 'chat.message', group_id: g.group_id, by: 'user', data: { text: `hello ${i}` } })).join('\n') + '\n';
  writeFileSync(join(dir, 'ledger.jsonl'), ledger);
  mkdirSync(join(dir, 'state', 'runners', 'pty'), { recursive: true });
  writeFileSync(join(dir, 'state', 'runners', 'pty', 'lead.json'), JSON.stringify({ pid: 1234 }));
  writeFileSync(join(dir, 'state', 'im_weixin_context_tokens.json'), JSON.stringify({ t: SECRETS.weixin }));
  writeFileSync(join(dir, 'state', 'read_cursors.json'), JSON.stringify({ schema: 1, cursors: {} }));
  // The ledger's derived index as a running daemon leaves it (SQLite rewrites these in place).
  mkdirSync(join(dir, 'state', 'ledger'), { recursive: true });
  for (const name of LEDGER_INDEX_FILES) writeFileSync(join(dir, 'state', 'ledger', name), 'index');
  writeFileSync(join(home.home, 'access_tokens.yaml'), `tokens:\n  ${SECRETS.accessToken}:\n    is_admin: true\n`);
  return { gid: g.group_id, ws };
}

async function unzipAll(buf: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const zip = await new Promise<yauzl.ZipFile>((res, rej) => yauzl.fromBuffer(buf, { lazyEntries: true }, (e, z) => (e || !z ? rej(e) : res(z))));
  await new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, s) => {
        if (err || !s) return reject(err);
        const chunks: Buffer[] = [];
        s.on('data', (c: Buffer) => chunks.push(c));
        s.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return out;
}

/** Every path and file content under a home, to prove a refused import wrote nothing. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(join(root, r)).isDirectory()) {
        out[`${r}/`] = '';
        walk(r);
      } else out[r] = readFileSync(join(root, r), 'base64');
    }
  };
  walk('');
  return out;
}

describe('group copy export', () => {
  it('packages group state only, with every planted secret scrubbed', async () => {
    using home = makeTempHome();
    const { gid } = await seededGroup(home);
    const res = await exportGroupCopy(home.layout, gid, { ccccVersion: '0.1.0' });
    expect(res.manifest).toMatchObject({ kind: 'cccc.group_copy', version: 1, source_group_id: gid, source_title: 'Copy Me', export_mode: 'group_state_only', workspace_included: false, contains_secrets: false, cccc_version: '0.1.0' });
    expect(res.filename).toMatch(new RegExp(`^cccc-group-copy-copy-me-${gid}-\\d{8}T\\d{6}Z\\.zip$`));
    const zipBytes = Buffer.from(res.package_b64, 'base64');
    const entries = await unzipAll(zipBytes);
    const names = [...entries.keys()].sort();
    expect(names).toContain('manifest.json');
    expect(names).toContain('group/group.yaml');
    expect(names).toContain('group/ledger.jsonl');
    expect(names).toContain('group/state/read_cursors.json');
    expect(names.filter((n) => /runners|im_weixin|\.lock$|sqlite3/.test(n))).toEqual([]);
    const everything = Buffer.concat([zipBytes, ...entries.values()]).toString('latin1');
    for (const [what, secret] of Object.entries(SECRETS)) expect(everything.includes(secret), `${what} leaked`).toBe(false);
    const group = parse(entries.get('group/group.yaml')!.toString()) as Record<string, any>;
    expect(group).toMatchObject({ running: false, state: 'idle' });
    expect(group.actors[0].env).toEqual({ LOG_LEVEL: 'debug' });
    expect(group.im).toEqual({ platform: 'telegram', chat_id: '42' });
  });

  it('export_file writes an owner-only package that preview and import accept by path', async () => {
    using home = makeTempHome();
    const { gid } = await seededGroup(home);
    const file = await exportGroupCopyFile(home.layout, gid);
    expect(statSync(file.package_path).size).toBe(file.package_size_bytes);
    expect(statSync(file.package_path).mode & 0o777).toBe(0o600);
    const { preview } = await previewGroupCopy(home.layout, { package_path: file.package_path });
    expect(preview).toMatchObject({ source_group_id: gid, actor_count: 2, group_id_conflict: true, workspace_included: false, contains_secrets: false });
    expect(preview.warnings.join('\n')).toMatch(/new group id/);
    const imported = await importGroupCopy(home.layout, { package_path: file.package_path, title: 'Second' });
    expect(imported.group_id).not.toBe(gid);
    expect(imported.group_id_conflict).toBe(true);
    expect(loadGroup(home.layout, imported.group_id).title).toBe('Second');
  });

  it('packs the version of each file it hashed, though the daemon replaces a state file meanwhile', async () => {
    using home = makeTempHome();
    const { gid } = await seededGroup(home);
    const state = join(home.layout.groupDir(gid), 'state');
    const built = await buildGroupPackage(home.layout, gid);
    // What a running daemon does to its state files while an export streams: write aside, rename over.
    writeFileSync(join(state, 'read_cursors.json.tmp'), JSON.stringify({ schema: 1, cursors: { lead: { event_id: 'e3' } } }));
    renameSync(join(state, 'read_cursors.json.tmp'), join(state, 'read_cursors.json'));
    const chunks: Buffer[] = [];
    for await (const chunk of built.zip.outputStream) chunks.push(chunk as Buffer);
    const package_b64 = Buffer.concat(chunks).toString('base64');
    const { preview } = await previewGroupCopy(home.layout, { package_b64 });
    expect(preview.source_group_id).toBe(gid);
    expect(JSON.parse(String((await unzipAll(Buffer.from(package_b64, 'base64'))).get('group/state/read_cursors.json')))).toEqual({ schema: 1, cursors: {} });
  });
});

describe('group copy export limits', () => {
  it('a package too big for base64 answers group_copy_too_large; export_file prunes day-old exports', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: 'big' });
    writeFileSync(join(home.layout.groupDir(g.group_id), 'ledger.jsonl'), (await import('node:crypto')).randomBytes(3 * 1024 * 1024));
    await expect(exportGroupCopy(home.layout, g.group_id)).rejects.toMatchObject({ code: 'group_copy_too_large' });
    const first = await exportGroupCopyFile(home.layout, g.group_id);
    expect(first.package_size_bytes).toBeGreaterThan(3 * 1024 * 1024);
    const old = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    (await import('node:fs')).utimesSync(first.package_path, old, old);
    const second = await exportGroupCopyFile(home.layout, g.group_id, { now: '2030-01-01T00:00:00.000000Z' });
    expect(existsSync(first.package_path)).toBe(false);
    expect(existsSync(second.package_path)).toBe(true);
    await expect(exportGroupCopy(home.layout, 'g_000000000000')).rejects.toMatchObject({ code: 'group_not_found' });
  });
});

describe('group copy import', () => {
  it('round-trips ledger, actors and settings into another home, minus secrets, stopped', async () => {
    using src = makeTempHome();
    using dst = makeTempHome();
    const { gid, ws } = await seededGroup(src);
    const { package_b64 } = await exportGroupCopy(src.layout, gid);
    const before = snapshot(dst.home);
    const { preview } = await previewGroupCopy(dst.layout, { package_b64 });
    expect(snapshot(dst.home)).toEqual(before);
    expect(preview).toMatchObject({ source_group_id: gid, source_title: 'Copy Me', actor_count: 2, source_workspace_root: ws, workspace_root_exists: true, group_id_conflict: false, requires_reconnect: { im: true } });
    expect(preview.actors.map((a) => a.id)).toEqual(['lead', 'peer1']);
    const newWs = tmpDir();
    const res = await importGroupCopy(dst.layout, { package_b64, workspace_root: newWs });
    expect(res).toMatchObject({ group_id: gid, source_group_id: gid, group_id_conflict: false });
    expect(res.workspace_root).toBe(statSync(newWs) && (await import('node:fs')).realpathSync(newWs));
    const a = loadGroup(src.layout, gid);
    const b = loadGroup(dst.layout, gid);
    expect(b).toMatchObject({ running: false, state: 'idle', title: 'Copy Me', topic: 'round trip', active_scope_key: res.active_scope_key });
    expect(b.actors.map((x) => ({ ...x, env: undefined }))).toEqual(a.actors.map((x) => ({ ...x, env: undefined })));
    expect(b.actors[0]!.env).toEqual({ LOG_LEVEL: 'debug' });
    expect((b as Record<string, unknown>).messaging).toEqual((a as Record<string, unknown>).messaging);
    expect(readFileSync(join(dst.layout.groupDir(gid), 'ledger.jsonl'), 'utf8')).toBe(readFileSync(join(src.layout.groupDir(gid), 'ledger.jsonl'), 'utf8'));
    expect(readRegistry(dst.layout).groups[gid]).toMatchObject({ group_id: gid, title: 'Copy Me' });
    expect(readRegistry(dst.layout).defaults[res.active_scope_key]).toBe(gid);
    // No private env, no profile secrets, no runtime files in the target home.
    const all = JSON.stringify(snapshot(dst.home));
    for (const secret of Object.values(SECRETS)) expect(all.includes(Buffer.from(secret).toString('base64'))).toBe(false);
    expect(readdirSync(dst.layout.groupDir(gid))).not.toContain('group.yaml.lock');
    expect(() => statSync(join(dst.layout.groupDir(gid), 'state', 'runners'))).toThrow();
  });
});

async function yazlZip(entries: Array<{ name: string; data: Buffer | string; compress?: boolean }>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data), e.name, { compress: e.compress ?? true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const GID = 'g_0123456789ab';
const manifest = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ kind: 'cccc.group_copy', version: 1, source_group_id: GID, exported_at: '2026-01-01T00:00:00Z', export_mode: 'group_state_only', workspace_included: false, contains_secrets: false, ...over });
const groupYaml = `v: 1\ngroup_id: ${GID}\ntitle: t\ntopic: ''\ncreated_at: x\nupdated_at: x\nrunning: false\nstate: idle\nactive_scope_key: ''\nscopes: []\nactors: []\n`;
const base = (extra: RawEntry[] = [], m = manifest()): RawEntry[] => [{ name: 'manifest.json', data: m }, { name: 'group/group.yaml', data: groupYaml }, ...extra];

describe('hostile packages are refused with nothing written', () => {
  const cases: Array<[string, () => Promise<Buffer> | Buffer, string]> = [
    ['zip slip', () => rawZip(base([{ name: 'group/../../evil.txt', data: 'x' }])), 'path_traversal'],
    ['absolute path', () => rawZip(base([{ name: '/tmp/evil.txt', data: 'x' }])), 'absolute_path'],
    ['backslash path', () => rawZip(base([{ name: 'group\\..\\evil.txt', data: 'x' }])), 'backslash'],
    ['symlink entry', () => rawZip(base([{ name: 'group/link', data: '/etc/passwd', mode: 0o120777 }])), 'symlink_entry'],
    ['duplicate entry', () => rawZip(base([{ name: 'group/group.yaml', data: groupYaml }])), 'duplicate_entry'],
    ['stray top-level entry', () => rawZip(base([{ name: 'workspace/src.ts', data: 'x' }])), 'unexpected_entry'],
    ['entry declared too large', () => rawZip(base([{ name: 'group/big.bin', data: 'x', deflate: true, declaredSize: 0xfffffff0 }])), 'entry_too_large'],
    ['entry inflating beyond its header', () => rawZip(base([{ name: 'group/lie.bin', data: Buffer.alloc(4096, 7), deflate: true, declaredSize: 10 }])), 'entry_size_mismatch'],
    ['zip bomb ratio', () => yazlZip([{ name: 'manifest.json', data: manifest() }, { name: 'group/group.yaml', data: groupYaml }, { name: 'group/zeros.bin', data: Buffer.alloc(8 * 1024 * 1024) }]), 'zip_bomb'],
    ['wrong manifest kind', () => rawZip(base([], manifest({ kind: 'something.else' }))), 'wrong_kind'],
    ['unsupported version', () => rawZip(base([], manifest({ version: 2 }))), 'unsupported_version'],
    ['workspace included', () => rawZip(base([], manifest({ workspace_included: true }))), 'workspace_included'],
    ['declared secrets', () => rawZip(base([], manifest({ contains_secrets: true }))), 'contains_secrets'],
    ['missing manifest', () => rawZip([{ name: 'group/group.yaml', data: groupYaml }]), 'missing_manifest'],
    ['digest mismatch', () => rawZip(base([], manifest({ content_digest: `sha256:${'0'.repeat(64)}` }))), 'digest_mismatch'],
    ['not a zip', () => Buffer.from('definitely not a zip file'), 'not_a_zip'],
    ['group id mismatch', () => rawZip([{ name: 'manifest.json', data: manifest({ source_group_id: 'g_ffffffffffff' }) }, { name: 'group/group.yaml', data: groupYaml }]), 'group_id_mismatch'],
  ];
  for (const [label, make, reason] of cases) {
    it(label, async () => {
      using home = makeTempHome();
      await createGroup(home.layout, { title: 'existing' });
      const before = snapshot(home.home);
      const package_b64 = (await make()).toString('base64');
      await expect(previewGroupCopy(home.layout, { package_b64 })).rejects.toMatchObject({ code: 'invalid_group_copy', details: { reason } });
      await expect(importGroupCopy(home.layout, { package_b64 })).rejects.toMatchObject({ code: 'invalid_group_copy', details: { reason } });
      expect(snapshot(home.home)).toEqual(before);
    });
  }

  it('a bomb hidden past the small limit is refused on the path route too, and a valid minimal package imports', async () => {
    using home = makeTempHome();
    const ok = rawZip(base([{ name: 'group/ledger.jsonl', data: '{"v":1}\n', deflate: true }]));
    const res = await importGroupCopy(home.layout, { package_b64: ok.toString('base64') });
    expect(res.group_id).toBe(GID);
    const p = join(tmpDir(), 'bomb.zip');
    writeFileSync(p, rawZip(base([{ name: 'group/z.bin', data: deflateRawSync(Buffer.alloc(1)), declaredSize: 600 * 1024 * 1024 }])));
    await expect(previewGroupCopy(home.layout, { package_path: p })).rejects.toMatchObject({ code: 'invalid_group_copy' });
  });

  it('needs exactly one of package_b64 / package_path', async () => {
    using home = makeTempHome();
    await expect(previewGroupCopy(home.layout, {})).rejects.toMatchObject({ code: 'invalid_group_copy', details: { reason: 'bad_arguments' } });
    await expect(previewGroupCopy(home.layout, { package_b64: 'AAAA', package_path: '/x' })).rejects.toMatchObject({ code: 'invalid_group_copy' });
    await expect(previewGroupCopy(home.layout, { package_path: '/nonexistent/x.zip' })).rejects.toMatchObject({ details: { reason: 'package_not_found' } });
  });
});
