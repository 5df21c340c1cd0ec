import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openGroupLedger } from './open-ledger.js';
import { decodeLine } from './storage/line-codec.js';
import { ensureDist } from './test-support/dist.js';
import { TempHomes } from './test-support/homes.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
let root = '';
beforeAll(() => {
  root = ensureDist();
}, 120_000);
const G = 'g_crash0000001';

/** Run a fixture script; resolve with its stdout lines and how it ended. */
function runChild(script: string, args: string[], killAfterLines?: number): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'test-fixtures', script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buf = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdout.on('data', (d) => {
      buf += String(d);
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      lines.push(...parts);
      if (killAfterLines !== undefined && lines.length >= killAfterLines) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code && code !== 0) reject(new Error(`child exited ${code}: ${stderr}`));
      else resolve({ lines, signal });
    });
  });
}

describe('crash safety with real processes', () => {
  it('kill -9 during concurrent appends loses no acknowledged event', async () => {
    const home = homes.make();
    const { lines, signal } = await runChild('append-loop.mjs', [home, G, '4'], 400);
    expect(signal).toBe('SIGKILL');
    const acked = lines.filter((l) => l !== 'ready');
    expect(acked.length).toBeGreaterThanOrEqual(399);
    const raw = readFileSync(join(home, 'groups', G, 'ledger.jsonl'), 'utf8');
    const complete = raw.slice(0, raw.lastIndexOf('\n') + 1).split('\n').filter(Boolean);
    const ids = new Set(complete.map((l) => {
      const d = decodeLine(l);
      expect(d.ok).toBe(true);
      return d.ok ? d.event.id : '';
    }));
    for (const id of acked) expect(ids.has(id)).toBe(true);

    await using store = await openGroupLedger({ home, groupId: G });
    const tail = store.integrity().tornTail;
    expect(tail === null || tail.offset === raw.lastIndexOf('\n') + 1).toBe(true);
    const { event } = await store.append({ kind: 'x.after', by: 'user', data: {} });
    expect(store.findById(event.id)?.kind).toBe('x.after');
    expect([...store.readForward()].at(-1)?.id).toBe(event.id);
    for (const id of acked) expect(store.findById(id)).toBeDefined();
  }, 60_000);

  async function seedMail(home: string): Promise<string[]> {
    await using store = await openGroupLedger({ home, groupId: G });
    await store.append({ kind: 'actor.add', by: 'user', data: { actor: { id: 'peer1', created_at: '2026-11-30T08:00:00.000000Z' } } });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await store.append({ kind: 'chat.message', by: 'user', data: { text: `m${i}`, message_mode: 'mail', to: ['peer1'] } })).event.id);
    return ids;
  }

  const markerPath = (home: string) => join(home, 'groups', G, 'state/read_cursors.pending.json');
  const cursorPath = (home: string) => join(home, 'groups', G, 'state/read_cursors.json');
  const mailReads = (home: string) =>
    readFileSync(join(home, 'groups', G, 'ledger.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.kind === 'mail.read');

  it('a consume killed between the marker and mail.read is discarded at open', async () => {
    const home = homes.make();
    const ids = await seedMail(home);
    const { signal } = await runChild('consume-crash.mjs', [home, G, 'marker-written']);
    expect(signal).toBe('SIGKILL');
    expect(existsSync(markerPath(home))).toBe(true);
    expect(mailReads(home)).toEqual([]);
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().recoveredConsume).toBe('discarded');
    expect(existsSync(markerPath(home))).toBe(false);
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual(ids);
    expect(existsSync(cursorPath(home))).toBe(false);
  }, 60_000);

  it('a consume killed between mail.read and the cursor write completes at open', async () => {
    const home = homes.make();
    const ids = await seedMail(home);
    const { signal } = await runChild('consume-crash.mjs', [home, G, 'mail-read-appended']);
    expect(signal).toBe('SIGKILL');
    expect(existsSync(markerPath(home))).toBe(true);
    expect(mailReads(home).map((e) => e.data.event_id)).toEqual([ids[1]]);
    expect(existsSync(cursorPath(home))).toBe(false);
    await using store = await openGroupLedger({ home, groupId: G });
    expect(store.integrity().recoveredConsume).toBe('completed');
    expect(existsSync(markerPath(home))).toBe(false);
    const doc = JSON.parse(readFileSync(cursorPath(home), 'utf8'));
    expect(doc.schema).toBe(1);
    expect(doc.cursors.peer1.event_id).toBe(ids[1]);
    expect(store.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual(ids.slice(2));
  }, 60_000);
});
