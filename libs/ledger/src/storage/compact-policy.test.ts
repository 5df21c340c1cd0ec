import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import type { FileLedgerStore } from '../file-store.js';
import { TempHomes } from '../test-support/homes.js';
import { compactDecision, lastRotationMs, MIN_COMPACT_INTERVAL_MS, parseManifestStamp } from './compact-policy.js';
import { emptyManifest } from './manifest.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_autocompact1';
const T0 = Date.parse('2026-11-30T10:00:00Z');

const segments = (home: string) => {
  const dir = join(home, 'groups', G, 'state/ledger/segments');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};
const manifestReasons = (home: string) =>
  (JSON.parse(readFileSync(join(home, 'groups', G, 'state/ledger/manifest.json'), 'utf8')).segments as Array<{ reason: string }>).map((s) => s.reason);

async function append(store: FileLedgerStore, text: string) {
  return (await store.append({ kind: 'chat.message', by: 'user', data: { text, message_mode: 'send', to: ['peer1'] } })).event;
}

/** Wait for the automatic compaction started by the last acknowledged append to finish. */
async function settle(store: FileLedgerStore): Promise<void> {
  for (let i = 0; i < 200 && (store as unknown as { autoCompaction?: Promise<void> }).autoCompaction === undefined; i++) await new Promise((r) => setImmediate(r));
  await (store as unknown as { autoCompaction?: Promise<void> }).autoCompaction;
}

describe('compaction policy (pure)', () => {
  const base = { force: false, activeBytes: 6_000_000, threshold: 5_000_000, nowMs: T0, lastRotationMs: undefined, minIntervalMs: MIN_COMPACT_INTERVAL_MS };

  it('rotates at the threshold, at most once per 300 s, unless forced', () => {
    expect(MIN_COMPACT_INTERVAL_MS).toBe(300_000);
    expect(compactDecision(base)).toEqual({ rotate: true });
    expect(compactDecision({ ...base, activeBytes: 4_999_999 })).toMatchObject({ rotate: false, reason: expect.stringContaining('< 5000000') });
    expect(compactDecision({ ...base, lastRotationMs: T0 - 299_000 })).toMatchObject({ rotate: false, reason: expect.stringContaining('rate limited') });
    expect(compactDecision({ ...base, lastRotationMs: T0 - 300_000 })).toEqual({ rotate: true });
    expect(compactDecision({ ...base, force: true, activeBytes: 10, lastRotationMs: T0 - 1000 })).toEqual({ rotate: true });
    expect(compactDecision({ ...base, force: true, activeBytes: 0 })).toMatchObject({ rotate: false, reason: 'active ledger is empty' });
  });

  it('reads the last rotation from the newest segment of the manifest (reference stamps)', () => {
    expect(parseManifestStamp('20261130T100000Z')).toBe(T0);
    expect(parseManifestStamp('2026-11-30T10:00:00.000000Z')).toBe(T0);
    expect(parseManifestStamp('garbage')).toBeUndefined();
    const m = emptyManifest();
    expect(lastRotationMs(m)).toBeUndefined();
    const seg = { id: '', path: '', compressed: false, created_at: '', reason: 'manual', size_bytes: 1, line_count: 1 };
    m.segments = [
      { ...seg, seq: 2, sealed_at: '20261130T100000Z' },
      { ...seg, seq: 1, sealed_at: '20261130T110000Z' },
    ];
    expect(lastRotationMs(m)).toBe(T0);
  });
});

describe('automatic size trigger and rate limit', () => {
  it('rotates once the active file reaches max_active_bytes, then not again within 300 s', async () => {
    const home = homes.make();
    let now = T0;
    await using store = await openGroupLedger({ home, groupId: G, clock: () => new Date(now), autoCompact: true, maxActiveBytes: () => 2_000 });
    const ids: string[] = [];
    while (segments(home).length === 0 && ids.length < 50) {
      ids.push((await append(store, 'x'.repeat(200))).id);
      await settle(store);
    }
    expect(segments(home)).toHaveLength(1);
    expect(manifestReasons(home)).toEqual(['auto']);
    expect(store.lastAutoCompaction?.report).toMatchObject({ rotated: true, reason: 'auto' });
    // Far past the threshold again, 299 s later: no second rotation.
    now += 299_000;
    for (let i = 0; i < 20; i++) {
      ids.push((await append(store, 'y'.repeat(200))).id);
      await settle(store);
    }
    expect(segments(home)).toHaveLength(1);
    // A manual, non-forced compaction is rate limited the same way; a forced one is not.
    expect(await store.compact()).toMatchObject({ rotated: false, reason: expect.stringContaining('rate limited') });
    // Once 300 s have passed, the next append triggers the rotation.
    now += 1_000;
    ids.push((await append(store, 'z')).id);
    await settle(store);
    expect(segments(home)).toHaveLength(2);
    expect(manifestReasons(home)).toEqual(['auto', 'auto']);
    // Nothing acknowledged was lost or repeated across the rotations.
    expect([...store.readForward()].map((e) => e.id)).toEqual(ids);
    expect(store.findById(ids[0]!)?.id).toBe(ids[0]);
  });

  it('a forced compaction ignores the rate limit; the limit then applies to the trigger', async () => {
    const home = homes.make();
    let now = T0;
    await using store = await openGroupLedger({ home, groupId: G, clock: () => new Date(now), autoCompact: true, maxActiveBytes: () => 1_000 });
    await append(store, 'a');
    expect(await store.compact({ force: true })).toMatchObject({ rotated: true });
    expect(await store.compact({ force: true })).toMatchObject({ rotated: false, reason: 'active ledger is empty' });
    await append(store, 'b');
    expect(await store.compact({ force: true })).toMatchObject({ rotated: true });
    now += 10_000;
    for (let i = 0; i < 10; i++) {
      await append(store, 'c'.repeat(200));
      await settle(store);
    }
    expect(segments(home)).toHaveLength(2);
  });

  it('stays off unless enabled, and a failed automatic compaction leaves appends working', async () => {
    const home = homes.make();
    {
      await using off = await openGroupLedger({ home, groupId: G, maxActiveBytes: () => 500 });
      for (let i = 0; i < 5; i++) await append(off, 'q'.repeat(200));
      await new Promise((r) => setTimeout(r, 20));
      expect(segments(home)).toEqual([]);
    }
    // A malformed record refuses the rotation; the error is kept and appends go on.
    writeFileSync(join(home, 'groups', G, 'ledger.jsonl'), '{"broken": true}\n', { flag: 'a' });
    await using store = await openGroupLedger({ home, groupId: G, autoCompact: true, maxActiveBytes: () => 500 });
    await append(store, 'after damage');
    await settle(store);
    expect(store.lastAutoCompaction?.error).toMatchObject({ code: 'ledger_malformed' });
    expect(segments(home)).toEqual([]);
    expect((await append(store, 'still works')).id).toMatch(/^[0-9a-f]{32}$/);
  });
});
