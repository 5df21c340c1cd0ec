import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TempHomes } from '../test-support/homes.js';
import { prescanOnWorker } from './active-prescan.js';
import { MAINTENANCE_KEEP_ALIVE_MS, MaintenanceThread } from './maintenance-thread.js';
import { gzipOnWorker, gzipSegmentFile } from './segment-gzip.js';

const homes = new TempHomes();
afterEach(async () => {
  MaintenanceThread.keepAliveMs = MAINTENANCE_KEEP_ALIVE_MS;
  await MaintenanceThread.stop();
  homes.cleanup();
});

const event = (n: number) => JSON.stringify({ v: 1, id: `e${n}`, ts: '2026-12-07T10:00:00.000000Z', kind: 'chat.message', group_id: 'g_1', scope_key: '', by: 'user', data: { text: `hello ${n}` } });

function segment(lines: number): string {
  const path = join(homes.make(), 'ledger.jsonl');
  writeFileSync(path, Array.from({ length: lines }, (_, i) => `${event(i)}\n`).join(''));
  return path;
}

// Issue 20, point 6: each rotation started two worker threads (its pre-read, then its gzip), and
// each start costs tens of milliseconds of CPU at normal priority inside the rotation.
describe('the maintenance thread', () => {
  it('serves the pre-reads and gzips of consecutive rotations from one thread', async () => {
    await MaintenanceThread.stop();
    const before = MaintenanceThread.started;
    for (let rotation = 0; rotation < 3; rotation++) {
      const path = segment(200 + rotation);
      expect(await prescanOnWorker(path)).toMatchObject({ lines: 200 + rotation });
      await gzipOnWorker(path, `${path}.gz`);
      expect(gunzipSync(readFileSync(`${path}.gz`)).equals(readFileSync(path))).toBe(true);
    }
    expect(MaintenanceThread.started - before).toBe(1);
    expect(MaintenanceThread.current()?.online).toBe(true);
  });

  it.runIf(process.platform === 'linux')('starts at the lowest priority: its start-up does not run at normal priority', async () => {
    await MaintenanceThread.stop();
    // The nice value of each thread of this process (field 19 of its stat line).
    const niceOf = () => new Map(readdirSync('/proc/self/task').map((tid) => [tid, Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16])]));
    const before = niceOf();
    MaintenanceThread.shared();
    // Synchronously after the constructor: the worker's script (which also lowers itself) has not run yet.
    const fresh = [...niceOf()].filter(([tid]) => !before.has(tid));
    expect(fresh.map(([, nice]) => nice)).toEqual([19]);
    expect(niceOf().get(String(process.pid))).toBe(before.get(String(process.pid))); // the serving thread keeps its own
  });

  it('exits after its keep-alive without work, and the next job starts another', async () => {
    MaintenanceThread.keepAliveMs = 50;
    const path = segment(10);
    await prescanOnWorker(path);
    const first = MaintenanceThread.current();
    expect(first).toBeDefined();
    for (let i = 0; i < 100 && MaintenanceThread.current(); i++) await sleep(20);
    expect(MaintenanceThread.current()).toBeUndefined();
    const before = MaintenanceThread.started;
    expect(await prescanOnWorker(path)).toMatchObject({ lines: 10 });
    expect(MaintenanceThread.started - before).toBe(1);
    expect(MaintenanceThread.current()).not.toBe(first);
  });

  it('a job that comes just as the keep-alive ends runs on a new thread, not the one winding down', async () => {
    MaintenanceThread.keepAliveMs = 30;
    const path = segment(50);
    await prescanOnWorker(path);
    // A timer of the same length set after the thread's idle timer fires right after it: the
    // thread has been told to terminate and has not exited yet.
    const late = await new Promise<Promise<void>>((resolve) => setTimeout(() => resolve(gzipSegmentFile(path, `${path}.gz`)), 30));
    await late;
    expect(gunzipSync(readFileSync(`${path}.gz`)).equals(readFileSync(path))).toBe(true);
  });

  it('a job in flight when the thread stops rejects; the next job runs on a new thread', async () => {
    const path = segment(20_000);
    await prescanOnWorker(path); // the thread is up: a failure now is the thread's, not its start's
    const inFlight = gzipSegmentFile(path, `${path}.gz`);
    await sleep(0);
    await MaintenanceThread.stop();
    await expect(inFlight).rejects.toThrow(/gzip of .*ledger\.jsonl failed: maintenance thread exited/);
    expect(MaintenanceThread.current()).toBeUndefined();
    await gzipSegmentFile(path, `${path}.gz`);
    expect(gunzipSync(readFileSync(`${path}.gz`)).equals(readFileSync(path))).toBe(true);
  });

  it('where no thread can start, the gzip streams through zlib here instead', async () => {
    const path = segment(300);
    const inFlight = gzipSegmentFile(path, `${path}.gz`);
    await MaintenanceThread.stop(); // before it came online: the job is not the thread's failure
    await inFlight;
    expect(gunzipSync(readFileSync(`${path}.gz`)).equals(readFileSync(path))).toBe(true);
  });

  it('answers a failed job with its error and keeps serving', async () => {
    const dir = homes.make();
    await expect(gzipOnWorker(join(dir, 'absent.jsonl'), join(dir, 'absent.jsonl.gz'))).rejects.toThrow(/absent\.jsonl/);
    const thread = MaintenanceThread.current();
    expect(thread?.online).toBe(true);
    expect(await prescanOnWorker(join(dir, 'absent.jsonl'))).toBeUndefined();
    expect(MaintenanceThread.current()).toBe(thread);
  });
});
