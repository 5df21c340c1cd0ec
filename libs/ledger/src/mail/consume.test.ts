import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { TempHomes } from '../test-support/homes.js';
import { readMarker, writeMarker } from './cursor-files.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_consume00001';

async function seed(home: string): Promise<string[]> {
  await using store = await openGroupLedger({ home, groupId: G });
  await store.append({ kind: 'actor.add', by: 'user', data: { actor: { id: 'peer1', created_at: '2026-11-30T08:00:00.000000Z' } } });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push((await store.append({ kind: 'chat.message', by: 'user', data: { text: `m${i}`, message_mode: 'mail', to: ['peer1'] } })).event.id);
  return ids;
}

const state = (home: string, f: string) => join(home, 'groups', G, 'state', f);

describe('Mail cursor files and recovery (on-disk states of spec §8.7)', () => {
  it('writes read_cursors.json with schema 1 and clears the marker after a consume', async () => {
    const home = homes.make();
    const ids = await seed(home);
    await using store = await openGroupLedger({ home, groupId: G });
    const r = await store.inboxConsume({ actorId: 'peer1', limit: 3 });
    expect(r.messages.map((e) => e.id)).toEqual(ids.slice(0, 3));
    const doc = JSON.parse(readFileSync(state(home, 'read_cursors.json'), 'utf8'));
    expect(doc).toEqual({ schema: 1, cursors: { peer1: { event_id: ids[2], ts: r.messages[2]!.ts, updated_at: r.cursor.updated_at } } });
    expect(existsSync(state(home, 'read_cursors.pending.json'))).toBe(false);
  });

  it('the marker is created in place (no temporary file) and is whole when mail.read is appended', async () => {
    const home = homes.make();
    const ids = await seed(home);
    const seen: Array<{ files: string[]; marker: unknown }> = [];
    await using store = await openGroupLedger({
      home,
      groupId: G,
      onConsumePhase: (phase) => {
        if (phase === 'marker-written') seen.push({ files: readdirSync(join(home, 'groups', G, 'state')), marker: readMarker(state(home, 'read_cursors.pending.json')).marker });
      },
    });
    await store.inboxConsume({ actorId: 'peer1', limit: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(seen[0]!.marker).toMatchObject({ schema: 1, group_id: G, actor_id: 'peer1', target: { event_id: ids[1] } });
  });

  it('a leftover marker is replaced whole, never appended to', async () => {
    const home = homes.make();
    const path = state(home, 'read_cursors.pending.json');
    const marker = (id: string) => ({ schema: 1 as const, group_id: G, actor_id: 'peer1', expected: { event_id: '', ts: '' }, target: { event_id: id, ts: 't', updated_at: 'u' } });
    await writeMarker(path, marker('a'.repeat(32)));
    await writeMarker(path, marker('b'.repeat(32)));
    expect(readMarker(path).marker?.target.event_id).toBe('b'.repeat(32));
  });

  it('ignores a cursor file without schema 1 (the former all-message read model)', async () => {
    const home = homes.make();
    const ids = await seed(home);
    writeFileSync(state(home, 'read_cursors.json'), JSON.stringify({ peer1: { event_id: ids[3], ts: 'x' } }));
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual(ids);
    writeFileSync(state(home, 'read_cursors.json'), JSON.stringify({ schema: 1, cursors: { peer1: { event_id: ids[3], ts: 'x', updated_at: '' } } }));
    expect(store.inboxPeek({ actorId: 'peer1' }).messages).toEqual([]);
  });

  it('recovery never moves a later cursor backward', async () => {
    const home = homes.make();
    const ids = await seed(home);
    {
      await using store = await openGroupLedger({ home, groupId: G });
      await store.inboxConsume({ actorId: 'peer1', limit: 1 }); // mail.read for ids[0]
      await store.inboxConsume({ actorId: 'peer1', limit: 2 }); // cursor now at ids[2]
    }
    // A stale marker whose mail.read (ids[0]) exists, pointing before the current cursor.
    writeFileSync(
      state(home, 'read_cursors.pending.json'),
      JSON.stringify({ schema: 1, group_id: G, actor_id: 'peer1', expected: { event_id: '', ts: '' }, target: { event_id: ids[0], ts: 't', updated_at: 'u' } }),
    );
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().recoveredConsume).toBe('completed');
    expect(JSON.parse(readFileSync(state(home, 'read_cursors.json'), 'utf8')).cursors.peer1.event_id).toBe(ids[2]);
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual([ids[3]]);
  });

  it('discards a marker whose mail.read never reached the ledger, and a malformed marker', async () => {
    const home = homes.make();
    const ids = await seed(home);
    const marker = { schema: 1, group_id: G, actor_id: 'peer1', expected: { event_id: '', ts: '' }, target: { event_id: ids[3], ts: 't', updated_at: 'u' } };
    writeFileSync(state(home, 'read_cursors.pending.json'), JSON.stringify(marker));
    {
      await using store = await openGroupLedger({ home, groupId: G });
      expect(store.integrity().recoveredConsume).toBe('discarded');
      expect(store.inboxPeek({ actorId: 'peer1' }).messages).toHaveLength(4);
    }
    writeFileSync(state(home, 'read_cursors.pending.json'), '{"schema": 1, "actor_');
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().recoveredConsume).toBe('discarded');
    expect(existsSync(state(home, 'read_cursors.pending.json'))).toBe(false);
  });

  it('the ledger mail.read outranks a cursor file that fell behind', async () => {
    const home = homes.make();
    const ids = await seed(home);
    await using store = await openGroupLedger({ home, groupId: G });
    await store.inboxConsume({ actorId: 'peer1', limit: 2 });
    writeFileSync(state(home, 'read_cursors.json'), JSON.stringify({ schema: 1, cursors: { peer1: { event_id: ids[0], ts: 'x', updated_at: '' } } }));
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual(ids.slice(2));
  });

  it('concurrent consumers never receive the same Mail twice', async () => {
    const home = homes.make();
    const ids = await seed(home);
    await using a = await openGroupLedger({ home, groupId: G });
    await using b = await openGroupLedger({ home, groupId: G });
    const results = await Promise.all([a.inboxConsume({ actorId: 'peer1', limit: 2 }), b.inboxConsume({ actorId: 'peer1', limit: 2 })]);
    const got = results.flatMap((r) => r.messages.map((e) => e.id));
    expect(got.sort()).toEqual([...ids].sort());
  });
});
