import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CCCSEventV1 } from '@cccc/ipc-protocol';
import { openGroupLedger } from '../open-ledger.js';
import { TS_RE } from '../event-format.js';
import { REF_GROUP, TempHomes } from '../test-support/homes.js';
import { LONE_AFTER_MS } from './sync-placement.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_storage00001';

function ledgerLines(home: string, gid = G): string[] {
  return readFileSync(join(home, 'groups', gid, 'ledger.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
}

describe('JSONL storage', () => {
  it('writes the reference layout: one CCCS v1 object per line, micro timestamps, lock file', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await store.append({ kind: 'chat.message', by: 'user', scope_key: 's_0123456789ab', data: { text: 'hi', message_mode: 'send', to: ['peer1'] } });
    const lines = ledgerLines(home);
    expect(lines).toHaveLength(1);
    const parsed = CCCSEventV1.parse(JSON.parse(lines[0]!));
    expect(parsed.ts).toMatch(TS_RE);
    expect(parsed.scope_key).toBe('s_0123456789ab');
    expect(existsSync(join(home, 'groups', G, 'state/ledger/ledger.lock'))).toBe(true);
    expect(readFileSync(join(home, 'groups', G, 'ledger.jsonl'), 'utf8').endsWith('\n')).toBe(true);
  });

  it('reports a torn tail at open, never repairs it, and separates the next record from it', async () => {
    const home = homes.make();
    const dir = join(home, 'groups', G);
    mkdirSync(dir, { recursive: true });
    const good = JSON.stringify({ v: 1, id: 'a'.repeat(32), ts: '2026-11-30T08:00:00.000000Z', kind: 'x.a', group_id: G, scope_key: '', by: 'user', data: {} });
    const torn = '{"v": 1, "id": "bbbb';
    writeFileSync(join(dir, 'ledger.jsonl'), good + '\n' + torn);
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().tornTail).toEqual({ offset: good.length + 1, bytes: torn.length });
    expect([...store.readForward()].map((e) => e.id)).toEqual(['a'.repeat(32)]);
    const { event } = await store.append({ kind: 'x.b', by: 'user', data: {} });
    const raw = readFileSync(join(dir, 'ledger.jsonl'), 'utf8');
    // The torn bytes are still there, now terminated, and the new record is on its own line.
    expect(raw.startsWith(good + '\n' + torn + '\n')).toBe(true);
    expect(raw.split('\n').at(-2)).toBe(JSON.stringify(event));
    expect([...store.readForward()].map((e) => e.id)).toEqual(['a'.repeat(32), event.id]);
    const report = store.integrity();
    expect(report.tornTail).toBeNull();
    expect(report.damaged).toEqual([{ segment: null, offset: good.length + 1, bytes: torn.length, reason: 'invalid JSON' }]);
    await expect(store.snapshot()).rejects.toMatchObject({ code: 'ledger_malformed' });
  });

  it('survives malformed lines and hostile sizes without crashing', async () => {
    const home = homes.make();
    const dir = join(home, 'groups', G);
    mkdirSync(dir, { recursive: true });
    const garbage = ['not json', '[]', '{"v":2}', 'x'.repeat(3_000_000), '{"v":1,"id":"c","ts":"t","kind":"k","group_id":"g","scope_key":"","by":"u","data":{},"extra":1}', '', '   '];
    writeFileSync(join(dir, 'ledger.jsonl'), garbage.join('\n') + '\n');
    await using store = await openGroupLedger({ home, groupId: G });
    expect([...store.readForward()]).toEqual([]);
    expect([...store.readBackward()]).toEqual([]);
    expect(store.integrity().damaged.map((d) => d.bytes)).toEqual([8, 2, 7, 3_000_000, garbage[4]!.length]);
    const { event } = await store.append({ kind: 'x.a', by: 'user', data: {} });
    expect(store.findById(event.id)?.id).toBe(event.id);
    expect([...store.readBackward()].map((e) => e.id)).toEqual([event.id]);
    expect(store.inboxPeek({ actorId: 'peer1' }).messages).toEqual([]);
  });

  it('spills chat text over 32,000 bytes to a blob with a text attachment', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const text = 'é'.repeat(20_000); // 40,000 bytes in UTF-8
    const { event } = await store.append({ kind: 'chat.message', by: 'user', data: { text, message_mode: 'mail', to: ['peer1'] } });
    const rel = `state/ledger/blobs/chat.${event.id}.txt`;
    expect(readFileSync(join(home, 'groups', G, rel), 'utf8')).toBe(text);
    expect(event.data['text']).toBe(`[cccc] (chat text stored at ${rel})`);
    expect(event.data['attachments']).toEqual([
      expect.objectContaining({ kind: 'text', path: rel, mime_type: 'text/plain', bytes: 40_000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    expect(ledgerLines(home)[0]!.length).toBeLessThan(1000);
  });

  it('rejects an oversize record with event_too_large and writes neither line nor blob', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const attachments = Array.from({ length: 2000 }, (_, i) => ({ kind: 'file' as const, path: `state/blobs/${'f'.repeat(120)}_${i}` }));
    await expect(store.append({ kind: 'chat.message', by: 'user', data: { text: 'x'.repeat(40_000), to: ['peer1'], attachments } })).rejects.toMatchObject({
      code: 'event_too_large',
    });
    const ledger = join(home, 'groups', G, 'ledger.jsonl');
    expect(existsSync(ledger) ? readFileSync(ledger, 'utf8') : '').toBe('');
    const blobs = join(home, 'groups', G, 'state/ledger/blobs');
    expect(existsSync(blobs) ? readdirSync(blobs) : []).toEqual([]);
  });

  it('batches concurrent appends into fewer write+fsync rounds (group commit)', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => store.append({ kind: 'x.n', by: 'user', data: { i } })));
    const stats = store.appendStats();
    expect(stats.appends).toBe(200);
    expect(stats.batches).toBeLessThan(20);
    expect(ledgerLines(home).map((l) => JSON.parse(l).id)).toEqual(results.map((r) => r.event.id));
  });

  it('splits a busy writer\'s batch cycle into time in fdatasync and time on its own serial path', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await Promise.all(Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; i < 25; i++) await store.append({ kind: 'x.n', by: 'user', data: { w, i } });
    }));
    const stats = store.appendStats();
    expect(stats.batches).toBeGreaterThan(1);
    expect(stats.syncMs).toBeGreaterThan(0);
    expect(stats.serialMs).toBeGreaterThan(0); // back-to-back batches: the gaps between syncs count
  });

  // Issue 35: writers that come back a moment after their acknowledgement (a client's round
  // trip; here a turn of the event loop) used to split into two cohorts, each batch holding about
  // half of them. The next batch now waits for the writers the last one answered.
  it('gathers writers that come back after their acknowledgement into one batch instead of two cohorts', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const before = store.appendStats();
    const writers = 4;
    const rounds = 25;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < rounds; i++) {
          await store.append({ kind: 'x.n', by: 'user', data: { w, i } });
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
    const stats = store.appendStats();
    expect(stats.appends - before.appends).toBe(writers * rounds);
    // Two cohorts make 2 appends a batch; one makes 4 (a slow turn now and then splits one).
    expect((stats.appends - before.appends) / (stats.batches - before.batches)).toBeGreaterThan(3);
    expect(ledgerLines(home)).toHaveLength(writers * rounds);
  });

  // Issue 35: on the thread pool, a lone writer's every append pays a pool thread's wake-up and
  // its own thread's; inline it does not, and a busy writer keeps the pool (and its batches).
  it('syncs a lone writer\'s appends inline, and goes back to the thread pool when appends come together', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await store.append({ kind: 'x.n', by: 'user', data: { i: -1 } }); // creates the file: its name is synced on the pool
    await sleep(LONE_AFTER_MS); // the tests before wrote concurrently in this process
    const before = store.appendStats();
    for (let i = 0; i < 20; i++) await store.append({ kind: 'x.n', by: 'user', data: { i } });
    const lone = store.appendStats();
    expect(lone.batches - before.batches).toBe(20);
    // All of them here; a slow disk (an inline sync over 2 ms) sends the next ones to the pool for a while.
    expect(lone.inlineSyncs - before.inlineSyncs).toBeGreaterThan(0);
    // Two requests read in the same turn of the event loop (two connections readable at once)
    // still form one batch, synced on the pool; the writer is then not lone for a while.
    await Promise.all(
      [0, 1].map((w) => new Promise((resolve, reject) => setImmediate(() => store.append({ kind: 'x.n', by: 'user', data: { w } }).then(resolve, reject)))),
    );
    const together = store.appendStats();
    expect([together.batches - lone.batches, together.inlineSyncs - lone.inlineSyncs]).toEqual([1, 0]);
    // Right after appends came together, a single one is not taken for a lone writer's.
    await store.append({ kind: 'x.n', by: 'user', data: { next: true } });
    expect(store.appendStats().inlineSyncs).toBe(together.inlineSyncs);
    expect(ledgerLines(home)).toHaveLength(24);
  });

  it('counts an append of another group in flight as concurrency: the groups share one event loop', async () => {
    const home = homes.make();
    await using a = await openGroupLedger({ home, groupId: G });
    await using b = await openGroupLedger({ home, groupId: 'g_storage00002' });
    await Promise.all([a, b].map((store) => store.append({ kind: 'x.n', by: 'user', data: { first: true } })));
    await sleep(LONE_AFTER_MS);
    const inline = () => a.appendStats().inlineSyncs + b.appendStats().inlineSyncs;
    const before = inline();
    await Promise.all([a, b].map((store) => store.append({ kind: 'x.n', by: 'user', data: { together: true } })));
    expect(inline()).toBe(before);
  });

  it('two stores on one home (two writers) interleave safely under the file lock', async () => {
    const home = homes.make();
    await using a = await openGroupLedger({ home, groupId: G });
    await using b = await openGroupLedger({ home, groupId: G });
    const writes = [];
    for (let i = 0; i < 50; i++) {
      writes.push(a.append({ kind: 'chat.message', by: 'user', data: { text: `a${i}`, message_mode: 'mail', to: ['peer1'] } }));
      writes.push(b.append({ kind: 'chat.message', by: 'user', data: { text: `b${i}`, message_mode: 'mail', to: ['peer1'] } }));
    }
    await Promise.all(writes);
    const fileIds = ledgerLines(home).map((l) => JSON.parse(l).id);
    expect(fileIds).toHaveLength(100);
    expect(new Set(fileIds).size).toBe(100);
    expect(a.inboxPeek({ actorId: 'peer1', limit: 1000 }).messages.map((e) => e.id)).toEqual(fileIds);
    expect(b.inboxPeek({ actorId: 'peer1', limit: 1000 }).messages.map((e) => e.id)).toEqual(fileIds);
  });

  it('reads the reference-written home and appends to it in the same format', async () => {
    const home = homes.referenceCopy();
    await using store = await openGroupLedger({ home, groupId: REF_GROUP, roleOf: () => 'foreman' });
    const events = [...store.readForward()];
    expect(events).toHaveLength(27);
    expect(store.integrity()).toMatchObject({ tornTail: null, damaged: [] });
    // Cursor at the last Mail: nothing unread.
    expect(store.inboxPeek({ actorId: 'peer1' })).toEqual({ messages: [], cursor: { event_id: '10252ea98ff04351ae90d9f54c44e3b5', ts: '2026-11-30T08:53:48.687241Z' } });
    expect(store.deliveryState('3a1e7837925b493fa696abf137734a58')).toEqual([
      expect.objectContaining({ actor_id: 'peer1', state: 'accepted', delivery_id: 'delivery:peer1:7a39a43abc9a06a7797c296e', transport: 'pty' }),
    ]);
    expect(store.findByPrefix('3a1e7837')?.kind).toBe('chat.message');
    const history = store.messageHistory({ actorId: 'peer1', mode: 'mail' });
    expect(history.messages.map((e) => e.data['text'])).toEqual(['sdk raw mail', 'mail #2 for peer1', 'mail #1 for peer1', 'mail #0 for peer1']);
    const claim = await store.claimDelivery({ actorId: 'peer1', sourceEventId: 'd9a3f0eb0eea46ec989423148aa34aaf', transport: 'pty' });
    expect(claim).toMatchObject({ claimed: false, refusal: 'already_accepted', delivery_id: 'delivery:peer1:3957b987bcac69e3e45f9bf9' });
    await store.append({ kind: 'chat.message', by: 'user', data: { text: 'new mail', message_mode: 'mail', to: ['peer1'] } });
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.data['text'])).toEqual(['new mail']);
  });
});

