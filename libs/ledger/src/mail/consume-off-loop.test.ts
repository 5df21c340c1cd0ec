// An Inbox read makes its marker and its cursor durable on libuv's thread pool, never with a
// synchronous fsync on the caller's thread (issue 20: four of them per read held the daemon's
// event loop, and every send behind it). Its mail.read append is the ledger's like any other: on
// the pool when the process is writing concurrently, inline for a lone writer (sync-placement.ts).
// Durability itself is covered by crash.test.ts (kill -9 at each phase) and by consume.test.ts
// (the on-disk states).
import { fsyncSync, fdatasyncSync } from 'node:fs';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { TempHomes } from '../test-support/homes.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const counted = { ...real, fsyncSync: vi.fn(real.fsyncSync), fdatasyncSync: vi.fn(real.fdatasyncSync) };
  return { ...counted, default: counted };
});

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_offloop00001';

describe('consuming Inbox read off the event loop', () => {
  it('makes no synchronous fsync of its own, and the cursor and a cleared marker are on disk when it resolves', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await store.append({ kind: 'actor.add', by: 'user', data: { actor: { id: 'peer1', created_at: '2026-11-30T08:00:00.000000Z' } } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await store.append({ kind: 'chat.message', by: 'user', data: { text: `m${i}`, message_mode: 'mail', to: ['peer1'] } })).event.id);
    expect(vi.isMockFunction(fsyncSync)).toBe(true);
    vi.mocked(fsyncSync).mockClear();
    vi.mocked(fdatasyncSync).mockClear();
    const inlineBefore = store.appendStats().inlineSyncs;

    // The loop keeps turning while the read's syncs are in flight.
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const r = await store.inboxConsume({ actorId: 'peer1', limit: 2 });
    clearInterval(ticker);

    expect(vi.mocked(fsyncSync)).not.toHaveBeenCalled();
    // The only synchronous sync: the ledger's own, if it placed the mail.read append inline.
    expect(vi.mocked(fdatasyncSync).mock.calls.length).toBe(store.appendStats().inlineSyncs - inlineBefore);
    expect(turns).toBeGreaterThan(0);
    expect(r.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
    const state = join(home, 'groups', G, 'state');
    expect(JSON.parse(readFileSync(join(state, 'read_cursors.json'), 'utf8')).cursors.peer1.event_id).toBe(ids[1]);
    expect(existsSync(join(state, 'read_cursors.pending.json'))).toBe(false);
  });
});
