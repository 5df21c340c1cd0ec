import Database from 'better-sqlite3';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { TempHomes } from '../test-support/homes.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_index0000001';

const mail = (text: string) => ({ kind: 'chat.message', by: 'user', data: { text, message_mode: 'mail', to: ['peer1'] } });
const paths = (home: string) => ({
  ledger: join(home, 'groups', G, 'ledger.jsonl'),
  index: join(home, 'groups', G, 'state/ledger/ts-index.sqlite3'),
  dir: join(home, 'groups', G, 'state/ledger'),
});

function rawEvent(i: number): string {
  return JSON.stringify({ v: 1, id: i.toString(16).padStart(32, '0'), ts: '2026-11-30T08:00:00.000000Z', kind: 'chat.message', group_id: G, scope_key: '', by: 'user', data: { text: `raw${i}`, message_mode: 'mail', to: ['peer1'] } });
}

describe('derived SQLite index', () => {
  it('lives in ts-index.sqlite3 and never touches the reference index.sqlite3/status.sqlite3', async () => {
    const home = homes.make();
    const p = paths(home);
    mkdirSync(p.dir, { recursive: true });
    writeFileSync(join(p.dir, 'index.sqlite3'), 'reference-owned');
    writeFileSync(join(p.dir, 'status.sqlite3'), 'reference-owned');
    await using store = await openGroupLedger({ home, groupId: G });
    const { event } = await store.append(mail('x'));
    expect(store.findById(event.id)?.id).toBe(event.id); // reads flush deferred index rows
    expect(existsSync(p.index)).toBe(true);
    const db = new Database(p.index, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect((db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n).toBe(1);
    db.close();
    expect(readFileSync(join(p.dir, 'index.sqlite3'), 'utf8')).toBe('reference-owned');
    expect(readFileSync(join(p.dir, 'status.sqlite3'), 'utf8')).toBe('reference-owned');
  });

  it('builds a missing index from the JSONL at open', async () => {
    const home = homes.make();
    mkdirSync(join(home, 'groups', G), { recursive: true });
    writeFileSync(paths(home).ledger, [1, 2, 3].map(rawEvent).join('\n') + '\n');
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().indexRebuilt).toBe('new index');
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.data['text'])).toEqual(['raw1', 'raw2', 'raw3']);
  });

  it('catches up a stale index (fewer events than the file) without a rebuild', async () => {
    const home = homes.make();
    {
      await using store = await openGroupLedger({ home, groupId: G });
      await store.append(mail('indexed'));
    }
    appendFileSync(paths(home).ledger, [7, 8].map(rawEvent).join('\n') + '\n'); // another writer, no index update
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().indexRebuilt).toBeNull();
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.data['text'])).toEqual(['indexed', 'raw7', 'raw8']);
    // ...and while open, too.
    appendFileSync(paths(home).ledger, rawEvent(9) + '\n');
    expect(store.findById(9n.toString(16).padStart(32, '0'))?.data['text']).toBe('raw9');
  });

  it('rebuilds when the index claims more events than the file (the JSONL wins)', async () => {
    const home = homes.make();
    const ids: string[] = [];
    {
      await using store = await openGroupLedger({ home, groupId: G });
      for (let i = 0; i < 6; i++) ids.push((await store.append(mail(`m${i}`))).event.id);
    }
    const lines = readFileSync(paths(home).ledger, 'utf8').split('\n');
    writeFileSync(paths(home).ledger, lines.slice(0, 3).join('\n') + '\n');
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().indexRebuilt).toMatch(/claims/);
    expect(store.findById(ids[4]!)).toBeUndefined();
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual(ids.slice(0, 3));
  });

  it('rebuilds when the file holds different bytes than the index recorded', async () => {
    const home = homes.make();
    {
      await using store = await openGroupLedger({ home, groupId: G });
      for (let i = 0; i < 3; i++) await store.append(mail(`m${i}`));
    }
    const size = readFileSync(paths(home).ledger).length;
    const replacement = [rawEvent(1), rawEvent(2)].join('\n') + '\n';
    writeFileSync(paths(home).ledger, replacement + 'x'.repeat(Math.max(0, size - replacement.length - 1)) + '\n');
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().indexRebuilt).not.toBeNull();
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.data['text'])).toEqual(['raw1', 'raw2']);
  });

  it('replaces a corrupt index file', async () => {
    const home = homes.make();
    {
      await using store = await openGroupLedger({ home, groupId: G });
      await store.append(mail('survivor'));
    }
    for (const suffix of ['-wal', '-shm']) writeFileSync(paths(home).index + suffix, '');
    writeFileSync(paths(home).index, 'this is not a sqlite database'.repeat(200));
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().indexRebuilt).toMatch(/corrupt/);
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.data['text'])).toEqual(['survivor']);
  });

  it('keeps client_id idempotency across a restart', async () => {
    const home = homes.make();
    let original: string;
    {
      await using store = await openGroupLedger({ home, groupId: G });
      original = (await store.append({ kind: 'chat.message', by: 'peer1', data: { text: 'hi', message_mode: 'send', to: ['user'], client_id: 'k1' } })).event.id;
    }
    await using store = await openGroupLedger({ home, groupId: G });
    const dup = await store.append({ kind: 'chat.message', by: 'peer1', data: { text: 'hi', message_mode: 'send', to: ['user'], client_id: 'k1' } });
    expect(dup).toMatchObject({ duplicate: true, event: { id: original } });
    expect(readFileSync(paths(home).ledger, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('index disagreement found while reading', () => {
  it('a sealed segment rewritten behind the index fails the read once, then the index is rebuilt from the files', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await store.append(mail(`m${i}`))).event.id);
    await store.compact({ force: true });
    const segDir = join(home, 'groups', G, 'state/ledger/segments');
    const [name] = (await import('node:fs')).readdirSync(segDir);
    // Same number of lines, different events: only reading reveals it.
    writeFileSync(join(segDir, name!), [11, 12, 13].map(rawEvent).join('\n') + '\n');
    expect(() => store.inboxPeek({ actorId: 'peer1' })).toThrow(expect.objectContaining({ code: 'ledger_malformed' }));
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.data['text'])).toEqual(['raw11', 'raw12', 'raw13']);
    expect(store.findById(ids[0]!)).toBeUndefined();
  });
});
