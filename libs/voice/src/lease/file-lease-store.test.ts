import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLock } from '@cccc/durable-fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../test-support/dist.js';
import { FileLeaseStore } from './file-lease-store.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});
function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'voice-lease-'));
  homes.push(h);
  return h;
}
const req = { group_id: 'g_lease0000001', voice_enabled: true } as const;

function runChild(root: string, args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'test-fixtures', 'lease-race.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.split('\n').filter(Boolean)) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

describe('FileLeaseStore', () => {
  let root = '';
  beforeAll(() => {
    root = ensureDist();
  }, 120_000);

  it('keeps the lease in state/voice_secretary_recording_lease.json, owner-only, with the lease_id on disk only', async () => {
    const h = home();
    const store = new FileLeaseStore(h);
    const a = await store.update({ ...req, action: 'acquire', owner_id: 'tab-1' });
    const path = join(h, 'state', 'voice_secretary_recording_lease.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    expect(doc).toMatchObject({ schema: 1, kind: 'voice_secretary_recording_lease', lease: { lease_id: a.lease_id, owner_id: 'tab-1' } });
    await store.update({ ...req, action: 'release', owner_id: 'tab-1', lease_id: a.lease_id });
    expect(JSON.parse(readFileSync(path, 'utf8')).lease).toEqual({});
  });

  it('waits for the .lock file another holder keeps, then goes on', async () => {
    const h = home();
    const store = new FileLeaseStore(h);
    const held = FileLock.tryAcquire(join(h, 'state', 'voice_secretary_recording_lease.json.lock'))!;
    let done = false;
    const pending = store.update({ ...req, action: 'acquire', owner_id: 'tab-1' }).then((r) => ((done = true), r));
    await new Promise((r) => setTimeout(r, 150));
    expect(done).toBe(false);
    held.release();
    expect((await pending).acquired).toBe(true);
  });

  it('answers io_error when the lock cannot be had, and writes nothing', async () => {
    const h = home();
    const store = new FileLeaseStore(h, { lockTimeoutMs: 50 });
    const held = FileLock.tryAcquire(join(h, 'state', 'voice_secretary_recording_lease.json.lock'))!;
    await expect(store.update({ ...req, action: 'acquire', owner_id: 'tab-1' })).rejects.toMatchObject({ code: 'io_error' });
    held.release();
    expect(await store.current()).toBeUndefined();
  });

  it('two processes racing for the lease: exactly one wins a round, and no holder ever loses its lease to the other', async () => {
    const h = home();
    const startAt = String(Date.now() + 400);
    const [a, b] = await Promise.all([runChild(root, [h, 'tab-a', startAt, '1']), runChild(root, [h, 'tab-b', startAt, '1'])]);
    const first = [...a!, ...b!].map((l) => JSON.parse(l));
    // One acquires and releases; the other is busy, or (if it came after the release) acquires too.
    expect(first.filter((r) => r.code && r.code !== 'assistant_voice_recording_busy')).toEqual([]);
    expect(first.filter((r) => r.acquired).length).toBeGreaterThanOrEqual(1);

    const rounds = '40';
    const again = String(Date.now() + 400);
    const results = (await Promise.all([runChild(root, [h, 'tab-a', again, rounds]), runChild(root, [h, 'tab-b', again, rounds])])).flat().map((l) => JSON.parse(l));
    expect(results).toHaveLength(80);
    // Under a working lock an acquired lease is still ours at release; a lost update would show released=false.
    expect(results.filter((r) => r.acquired && !r.released)).toEqual([]);
    expect(results.filter((r) => r.code && r.code !== 'assistant_voice_recording_busy')).toEqual([]);
    expect(results.filter((r) => r.acquired).length).toBeGreaterThan(0);
    expect(await new FileLeaseStore(h).current()).toBeUndefined();
  }, 60_000);
});
