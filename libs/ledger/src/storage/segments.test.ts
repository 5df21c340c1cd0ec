import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import type { FileLedgerStore } from '../file-store.js';
import { TempHomes } from '../test-support/homes.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_segments0001';
const SEG_RE = /^ledger\.\d{8}T\d{6}Z\.\d{6}\.jsonl(\.gz)?$/;

async function appendN(store: FileLedgerStore, n: number, tag: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await store.append({ kind: 'chat.message', by: 'user', data: { text: `${tag}${i}`, message_mode: 'mail', to: ['peer1'] } })).event.id);
  return out;
}

function segDir(home: string): string {
  return join(home, 'groups', G, 'state/ledger/segments');
}

function manifest(home: string): Record<string, unknown> & { segments: Array<Record<string, unknown>>; next_segment_seq: number } {
  return JSON.parse(readFileSync(join(home, 'groups', G, 'state/ledger/manifest.json'), 'utf8'));
}

describe('segments and compaction', () => {
  it('rotates into sealed segments, gzips older ones, and readers see one continuous history', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const ids = await appendN(store, 5, 'a');
    const before = await store.snapshot();
    const r1 = await store.compact({ force: true, reason: 'test' });
    expect(r1.rotated).toBe(true);
    ids.push(...(await appendN(store, 4, 'b')));
    const r2 = await store.compact({ force: true });
    expect(r2.compressed).toEqual([1]);
    ids.push(...(await appendN(store, 3, 'c')));

    const names = readdirSync(segDir(home)).sort();
    expect(names).toHaveLength(2);
    expect(names.every((n) => SEG_RE.test(n))).toBe(true);
    expect(names.filter((n) => n.endsWith('.gz'))).toHaveLength(1);
    expect(names.find((n) => n.endsWith('.gz'))).toMatch(/\.000001\.jsonl\.gz$/);
    expect(names.find((n) => !n.endsWith('.gz'))).toMatch(/\.000002\.jsonl$/);

    const m = manifest(home);
    expect(Object.keys(m).sort()).toEqual(['active', 'next_segment_seq', 'schema', 'segments', 'updated_at']);
    expect(m['schema']).toBe(1);
    expect(m['active']).toEqual({ path: 'ledger.jsonl' });
    expect(m.next_segment_seq).toBe(3);
    expect(m.segments.map((s) => [s['id'], s['seq'], s['compressed'], s['line_count']])).toEqual([
      ['000001', 1, true, 5],
      ['000002', 2, false, 4],
    ]);
    expect(Object.keys(m.segments[0]!).sort()).toEqual(['compressed', 'created_at', 'id', 'line_count', 'path', 'reason', 'sealed_at', 'seq', 'size_bytes']);

    expect([...store.readForward()].map((e) => e.id)).toEqual(ids);
    expect([...store.readBackward()].map((e) => e.id)).toEqual([...ids].reverse());
    expect(store.findById(ids[0]!)?.data['text']).toBe('a0');
    expect(store.findById(ids[6]!)?.data['text']).toBe('b1');
    expect(store.inboxPeek({ actorId: 'peer1', limit: 100 }).messages.map((e) => e.id)).toEqual(ids);
    expect(store.messageHistory({ actorId: 'peer1', limit: 100 }).messages.map((e) => e.id)).toEqual([...ids].reverse());

    const after = await store.snapshot();
    expect(after.event_count).toBe(12);
    const written = JSON.parse(readFileSync(join(home, 'groups', G, 'state/ledger/ts-snapshot.latest.json'), 'utf8'));
    expect(written).toEqual(after);
    expect(before.event_count).toBe(5);
    await using reopened = await openGroupLedger({ home, groupId: G });
    expect(reopened.integrity().indexRebuilt).toBeNull();
    expect((await reopened.snapshot()).sha256).toBe(after.sha256);
  });

  it('snapshot hash is independent of where events are stored', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 6, 'x');
    const flat = await store.snapshot();
    await store.compact({ force: true });
    await store.compact({ force: true }); // empty active: no rotation
    expect((await store.snapshot()).sha256).toBe(flat.sha256);
  });

  it('does not rotate below the size threshold unless forced', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 2, 'x');
    const r = await store.compact();
    expect(r.rotated).toBe(false);
    expect(existsSync(segDir(home)) ? readdirSync(segDir(home)) : []).toEqual([]);
  });

  it('reconciles a sealed segment missing from the manifest and never reuses its sequence', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const ids = await appendN(store, 3, 'a');
    await store.compact({ force: true });
    // Simulate a crash after the rename but before the manifest was published.
    const mpath = join(home, 'groups', G, 'state/ledger/manifest.json');
    writeFileSync(mpath, JSON.stringify({ schema: 1, active: { path: 'ledger.jsonl' }, next_segment_seq: 1, segments: [], updated_at: '' }));
    ids.push(...(await appendN(store, 2, 'b')));
    const r = await store.compact({ force: true });
    expect(r.reconciled).toEqual([1]);
    expect(r.segment?.seq).toBe(2);
    const m = manifest(home);
    expect(m.segments.map((s) => [s['seq'], s['reason']])).toEqual([
      [1, 'recovered'],
      [2, 'manual'],
    ]);
    expect(m.next_segment_seq).toBe(3);
    expect([...store.readForward()].map((e) => e.id)).toEqual(ids);
  });

  it('drops a manifest entry ahead of the disk (written beside a rename a crash lost) and never reuses its sequence', async () => {
    const home = homes.make();
    const ids: string[] = [];
    {
      await using store = await openGroupLedger({ home, groupId: G });
      ids.push(...(await appendN(store, 3, 'a')));
      await store.compact({ force: true }); // seg 1
      ids.push(...(await appendN(store, 2, 'b')));
    }
    // The manifest of a rotation of seq 2 became durable, its rename did not: the bytes are still active.
    const mpath = join(home, 'groups', G, 'state/ledger/manifest.json');
    const m0 = manifest(home);
    const ghost = { ...m0.segments[0]!, id: '000002', seq: 2, path: 'state/ledger/segments/ledger.20261130T080000Z.000002.jsonl', reason: 'manual' };
    writeFileSync(mpath, JSON.stringify({ ...m0, next_segment_seq: 3, segments: [...m0.segments, ghost] }));
    await using store = await openGroupLedger({ home, groupId: G });
    expect([...store.readForward()].map((e) => e.id)).toEqual(ids);
    ids.push(...(await appendN(store, 1, 'c')));
    const r = await store.compact({ force: true });
    expect(r.segment?.seq).toBe(3);
    expect(manifest(home).segments.map((s) => s['seq'])).toEqual([1, 3]);
    expect([...store.readForward()].map((e) => e.id)).toEqual(ids);
  });

  it('refuses to compact when two different segment files claim one sequence', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 3, 'a');
    await store.compact({ force: true });
    const [name] = readdirSync(segDir(home));
    const clash = name!.replace(/^ledger\.\d{8}T\d{6}Z/, 'ledger.20200101T000000Z');
    copyFileSync(join(segDir(home), name!), join(segDir(home), clash));
    await appendN(store, 1, 'b');
    await expect(store.compact({ force: true })).rejects.toMatchObject({ code: 'ledger_segment_conflict' });
    expect(readFileSync(join(home, 'groups', G, 'ledger.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('refuses to seal malformed records', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 2, 'a');
    writeFileSync(join(home, 'groups', G, 'ledger.jsonl'), '{"broken": true}\n', { flag: 'a' });
    await expect(store.compact({ force: true })).rejects.toMatchObject({ code: 'ledger_malformed' });
    expect(existsSync(segDir(home)) ? readdirSync(segDir(home)) : []).toEqual([]);
  });
});

describe('reference manifest conventions', () => {
  it('stamps times like segment names and records on-disk sizes (gz size once compressed)', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 3, 'a');
    await store.compact({ force: true });
    await appendN(store, 3, 'b');
    await store.compact({ force: true });
    const m = manifest(home);
    expect(m['updated_at']).toMatch(/^\d{8}T\d{6}Z$/);
    for (const seg of m.segments) {
      expect(seg['created_at']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(seg['path']).toMatch(/^state\/ledger\/segments\/ledger\.\d{8}T\d{6}Z\.\d{6}\.jsonl(\.gz)?$/);
      expect(seg['size_bytes']).toBe((await import('node:fs')).statSync(join(home, 'groups', G, String(seg['path']))).size);
    }
  });

  it('trusts a manifest whose discovered segments carry line_count 0 (no rebuild on reopen)', async () => {
    const home = homes.make();
    {
      await using store = await openGroupLedger({ home, groupId: G });
      await appendN(store, 3, 'a');
      await store.compact({ force: true });
    }
    const mpath = join(home, 'groups', G, 'state/ledger/manifest.json');
    const m = manifest(home);
    m.segments[0]!['line_count'] = 0;
    m.segments[0]!['reason'] = 'recovered';
    writeFileSync(mpath, JSON.stringify(m));
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().indexRebuilt).toBeNull();
    expect([...store.readForward()]).toHaveLength(3);
  });

  it('resolves a truncated .gz next to its complete plain segment, and counts an unterminated sealed line', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const ids = await appendN(store, 3, 'a');
    await store.compact({ force: true });
    const [name] = readdirSync(segDir(home));
    const plain = join(segDir(home), name!);
    writeFileSync(plain + '.gz', Buffer.from([0x1f, 0x8b, 0x08, 0x00])); // gzip header only
    writeFileSync(plain, '{"torn":', { flag: 'a' }); // a sealed segment whose last line never ended
    ids.push(...(await appendN(store, 2, 'b')));
    // The unterminated sealed record is damage, so compaction refuses to rotate (spec §8.12),
    // after reconciling the twin files.
    await expect(store.compact({ force: true })).rejects.toMatchObject({ code: 'ledger_malformed' });
    expect(readdirSync(segDir(home)).filter((n) => n.endsWith('.gz'))).toEqual([]);
    await using reopened = await openGroupLedger({ home, groupId: G });
    expect([...reopened.readForward()].map((e) => e.id)).toEqual(ids);
    expect(reopened.integrity().damaged).toEqual([expect.objectContaining({ segment: 1, bytes: 8, reason: 'invalid JSON' })]);
  });
  it('takes a .gz twin that inflates past its plain segment for a conflict, inflating no more than the segment', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 3, 'a');
    await store.compact({ force: true });
    const [name] = readdirSync(segDir(home));
    const plain = join(segDir(home), name!);
    // The plain segment followed by 64 MiB of newlines: a ~64 KB file.
    writeFileSync(plain + '.gz', gzipSync(Buffer.concat([readFileSync(plain), Buffer.alloc(64 << 20, 0x0a)])));
    await appendN(store, 1, 'b');
    const rss = process.memoryUsage().arrayBuffers;
    await expect(store.compact({ force: true })).rejects.toMatchObject({ code: 'ledger_segment_conflict' });
    expect(process.memoryUsage().arrayBuffers - rss).toBeLessThan(16 << 20);
    expect(readdirSync(segDir(home)).sort()).toEqual([name, `${name}.gz`]);
  });
});

describe('follower across rotation', () => {
  it('neither skips nor repeats events when the active file rotates (plain and gzipped)', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 2, 'pre');
    const f = store.follow();
    const seen: string[] = [];
    const a = await appendN(store, 3, 'a');
    seen.push(...f.poll().map((e) => e.id));
    const b = await appendN(store, 2, 'b');
    await store.compact({ force: true });
    const c = await appendN(store, 2, 'c');
    seen.push(...f.poll().map((e) => e.id));
    // A lagging follower: its segment is gzipped by a second rotation before it polls.
    const d = await appendN(store, 1, 'd');
    const lag = store.follow({ afterEventId: d[0]! });
    const e = await appendN(store, 2, 'e');
    await store.compact({ force: true });
    const g = await appendN(store, 1, 'g');
    await store.compact({ force: true });
    const h = await appendN(store, 1, 'h');
    seen.push(...f.poll().map((x) => x.id));
    expect(seen).toEqual([...a, ...b, ...c, ...d, ...e, ...g, ...h]);
    expect(lag.poll().map((x) => x.id)).toEqual([...e, ...g, ...h]);
    expect(f.poll()).toEqual([]);
  });

  it('async iteration streams events while a writer appends and compacts', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const follower = store.follow({ fromStart: true, pollMs: 2 });
    const writer = (async () => {
      const ids: string[] = [];
      for (let round = 0; round < 4; round++) {
        ids.push(...(await appendN(store, 5, `r${round}`)));
        await store.compact({ force: true });
      }
      return ids;
    })();
    const seen: string[] = [];
    for await (const e of follower) {
      seen.push(e.id);
      if (seen.length === 20) break;
    }
    expect(seen).toEqual(await writer);
  });

  it('a follower started before the ledger existed reads a history rotated before its first poll', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const f = store.follow({ fromStart: true });
    const a = await appendN(store, 3, 'a');
    await store.compact({ force: true });
    const b = await appendN(store, 2, 'b');
    expect(f.poll().map((x) => x.id)).toEqual([...a, ...b]);
    expect(f.poll()).toEqual([]);
  });

  it('fails loudly when its cursor vanished', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await appendN(store, 3, 'a');
    const f = store.follow();
    await appendN(store, 1, 'b');
    f.poll();
    writeFileSync(join(home, 'groups', G, 'ledger.jsonl'), ''); // history truncated behind our back
    expect(() => f.poll()).toThrow(expect.objectContaining({ code: 'ledger_cursor_vanished' }));
  });
});
