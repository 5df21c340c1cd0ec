import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { TempHomes } from '../test-support/homes.js';
import { INDEX_SCHEMA_VERSION } from './schema.js';
import { INDEX_WRITER_KEEP_ALIVE_MS, IndexWriterThread } from './index-writer-thread.js';

const homes = new TempHomes();
afterEach(async () => {
  IndexWriterThread.keepAliveMs = INDEX_WRITER_KEEP_ALIVE_MS;
  await IndexWriterThread.reset();
  homes.cleanup();
});
const G = 'g_idxwriter001';
const indexPath = (home: string) => join(home, 'groups', G, 'state/ledger/ts-index.sqlite3');

/** A mix of kinds with index facts of every sort (chat and its audience, reads, deliveries, replies). */
async function appendMix(store: Awaited<ReturnType<typeof openGroupLedger>>, n: number): Promise<string[]> {
  const ids: string[] = [];
  await store.append({ kind: 'actor.add', by: 'user', data: { actor: { v: 1, id: 'peer1', title: 'p', created_at: '2026-11-30T08:00:00.000000Z' } } });
  const sends = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      store.append({ kind: 'chat.message', by: i % 3 ? 'user' : 'peer1', data: { text: `m${i}`, message_mode: i % 2 ? 'mail' : 'send', to: [i % 3 ? 'peer1' : 'user'] } }),
    ),
  );
  for (const s of sends) ids.push(s.event.id);
  await Promise.all([
    store.append({ kind: 'mail.read', by: 'peer1', data: { actor_id: 'peer1', event_id: ids[1]! } }),
    store.append({ kind: 'chat.message', by: 'peer1', data: { text: 'answer', message_mode: 'send', to: ['user'], reply_to: ids[0]!, client_id: 'c1' } }),
    store.append({ kind: 'runtime.delivery', by: 'system', data: { actor_id: 'peer1', source_event_id: ids[1]!, delivery_id: `delivery:peer1:${'c'.repeat(24)}`, state: 'accepted', transport: 'pty', reason: null } }),
  ]);
  return ids;
}

/** Every row of the tables an append writes, in a stable order. */
function indexRows(home: string): Record<string, unknown[]> {
  const db = new Database(indexPath(home), { readonly: true });
  try {
    const out: Record<string, unknown[]> = {};
    for (const t of ['events', 'chat', 'audience', 'actor_gen', 'mail_reads', 'delivery', 'client_ids']) {
      out[t] = db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all();
    }
    return out;
  } finally {
    db.close();
  }
}

/** Delete the index and reopen: the rebuild from the JSONL must write exactly `rows`. */
async function expectRebuildWrites(home: string, rows: Record<string, unknown[]>): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(indexPath(home) + suffix, { force: true });
  await using reopened = await openGroupLedger({ home, groupId: G });
  expect(reopened.integrity().indexRebuilt).toBe('new index');
  expect(indexRows(home)).toEqual(rows);
}

describe('background index writer thread', () => {
  it('indexes acknowledged batches on its own thread, with the rows a rebuild from the JSONL writes', async () => {
    const home = homes.make();
    {
      await using store = await openGroupLedger({ home, groupId: G, backgroundIndexAt: 1 });
      const ids = await appendMix(store, 60);
      expect(store.findById(ids[59]!)?.data['text']).toBe('m59'); // waits for the thread's last message
      expect(store.inboxPeek({ actorId: 'peer1' }).messages.length).toBeGreaterThan(0);
    }
    const thread = IndexWriterThread.current();
    await vi.waitFor(() => expect(thread?.stats.indexed).toBe(64)); // every event, none inline
    expect(thread?.stats.errors).toBe(0);

    const byThread = indexRows(home);
    expect(byThread['events']).toHaveLength(64);
    await expectRebuildWrites(home, byThread);
  });

  it('a trickle of appends is indexed on the timer without starting the thread', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    for (let i = 0; i < 3; i++) await store.append({ kind: 'chat.message', by: 'user', data: { text: `t${i}`, message_mode: 'send', to: ['peer1'] } });
    const count = () => {
      const db = new Database(indexPath(home), { readonly: true });
      try {
        return (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(count()).toBe(0); // acknowledged, not indexed yet: nothing waits on the index
    await vi.waitFor(() => expect(count()).toBe(3), { timeout: 2000 });
    expect(IndexWriterThread.current()).toBeUndefined();
  });

  it('more than a trickle waiting for the timer is indexed on the thread, not on the event loop', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    // Far below the burst that starts the thread at once, but more than the event loop should
    // index in one timer tick (a steady stream of sends between two ticks).
    const sends = await Promise.all(
      Array.from({ length: 100 }, (_, i) => store.append({ kind: 'chat.message', by: 'user', data: { text: `s${i}`, message_mode: 'send', to: ['peer1'] } })),
    );
    const ids = sends.map((s) => s.event.id);
    expect(IndexWriterThread.current()).toBeUndefined();
    await vi.waitFor(() => expect(IndexWriterThread.current()?.stats.indexed).toBe(100), { timeout: 2000 });
    for (const id of ids) expect(store.findById(id)?.id).toBe(id);
  });

  it('a stream of one-event batches goes to the thread as one run, with the rows a rebuild writes', async () => {
    const home = homes.make();
    IndexWriterThread.shared(); // running: every timer hands its events to it, however few
    {
      await using store = await openGroupLedger({ home, groupId: G });
      await store.append({ kind: 'actor.add', by: 'user', data: { actor: { v: 1, id: 'peer1', title: 'p', created_at: '2026-11-30T08:00:00.000000Z' } } });
      // One at a time: each append is a batch of its own, and a timer hands over many at once.
      for (let i = 0; i < 150; i++) {
        await store.append({ kind: 'chat.message', by: i % 3 ? 'user' : 'peer1', data: { text: `r${i}`, message_mode: i % 2 ? 'mail' : 'send', to: [i % 3 ? 'peer1' : 'user'] } });
      }
      await vi.waitFor(() => expect(IndexWriterThread.current()?.stats.indexed).toBe(151), { timeout: 2000 });
    }
    const byThread = indexRows(home);
    expect(byThread['events']).toHaveLength(151);
    await expectRebuildWrites(home, byThread);
  });

  it('the thread exits after a while without work, and the next burst starts another', async () => {
    IndexWriterThread.keepAliveMs = 500;
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G, backgroundIndexAt: 1 });
    const first = await appendMix(store, 10);
    const thread = IndexWriterThread.current()!;
    expect(thread).toBeDefined();
    // Its messages keep it: each one moves the deadline (100 ms apart, well within 500 ms).
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await store.append({ kind: 'chat.message', by: 'user', data: { text: `keep${i}`, message_mode: 'send', to: ['peer1'] } });
    }
    expect(IndexWriterThread.current()).toBe(thread);
    await vi.waitFor(() => expect(IndexWriterThread.current()).toBeUndefined(), { timeout: 2000 });
    await vi.waitFor(() => expect(thread.stats.indexed).toBe(18)); // its last answers may still be on their way
    // The index is whole, and the next burst goes to a new thread.
    for (const id of first) expect(store.findById(id)?.id).toBe(id);
    const second = await appendMix(store, 10);
    const next = IndexWriterThread.current()!;
    expect(next).toBeDefined();
    expect(next).not.toBe(thread);
    for (const id of second) expect(store.findById(id)?.id).toBe(id);
    expect(next.stats.errors).toBe(0);
  });

  it("leaves a batch that follows another writer's unindexed bytes to the owner, which catches up from the JSONL", async () => {
    const home = homes.make();
    await using a = await openGroupLedger({ home, groupId: G, backgroundIndexAt: 1 });
    await using b = await openGroupLedger({ home, groupId: G, backgroundIndexAt: 1_000_000 });
    const first = await a.append({ kind: 'chat.message', by: 'user', data: { text: 'a1', message_mode: 'mail', to: ['peer1'] } });
    const fromB = await b.append({ kind: 'chat.message', by: 'user', data: { text: 'b1', message_mode: 'mail', to: ['peer1'] } }); // not indexed yet
    const second = await a.append({ kind: 'chat.message', by: 'user', data: { text: 'a2', message_mode: 'mail', to: ['peer1'] } });
    const thread = IndexWriterThread.current()!;
    await vi.waitFor(() => expect(thread.stats.messages).toBe(2));
    expect(thread.stats.indexed).toBe(1); // a1 only: a2 does not continue the high-water mark
    expect(a.findById(second.event.id)?.data['text']).toBe('a2');
    expect(a.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual([first.event.id, fromB.event.id, second.event.id]);
  });

  it('a dead thread costs nothing but speed: later batches are indexed inline', async () => {
    const home = homes.make();
    {
      await using store = await openGroupLedger({ home, groupId: G, backgroundIndexAt: 1 });
      const before = await appendMix(store, 10);
      await IndexWriterThread.kill();
      const after = await appendMix(store, 10);
      expect(IndexWriterThread.shared()).toBeUndefined();
      for (const id of [...before, ...after]) expect(store.findById(id)?.id).toBe(id);
    }
    const rows = indexRows(home);
    expect(rows['events']).toHaveLength(27); // 2 x 14, less the second mix's reply: a client_id duplicate
    await expectRebuildWrites(home, rows);
  });

  it('an index file of another schema version is replaced, not reused', async () => {
    const home = homes.make();
    {
      await using store = await openGroupLedger({ home, groupId: G });
      await store.append({ kind: 'chat.message', by: 'user', data: { text: 'kept', message_mode: 'mail', to: ['peer1'] } });
    }
    // Schema 5 had three more NOT NULL columns in events: its table cannot take this version's rows.
    const db = new Database(indexPath(home));
    db.exec(`DROP TABLE events; CREATE TABLE events (ord INTEGER PRIMARY KEY, id TEXT NOT NULL, src INTEGER NOT NULL, off INTEGER NOT NULL,
      len INTEGER NOT NULL, kind TEXT NOT NULL, by TEXT NOT NULL, ts TEXT NOT NULL); UPDATE meta SET value = '5' WHERE key = 'schema'`);
    db.close();
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().indexRebuilt).toBe(`index schema 5 != ${INDEX_SCHEMA_VERSION}`);
    const added = await store.append({ kind: 'chat.message', by: 'user', data: { text: 'new', message_mode: 'mail', to: ['peer1'] } });
    expect(store.findById(added.event.id)?.data['text']).toBe('new');
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.data['text'])).toEqual(['kept', 'new']);
  });
});
