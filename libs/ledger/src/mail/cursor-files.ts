import { existsSync, readFileSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { createFileDurably, writeFileAtomic } from '@cccc/durable-fs';

// Every write here is on libuv's thread pool (fs.promises): an Inbox read's durable steps never
// hold the daemon's event loop, and each resolves only once its bytes are durable.

export interface CursorEntry {
  event_id: string;
  ts: string;
  updated_at: string;
}

/** `state/read_cursors.pending.json`: the recovery marker of one consuming Inbox read (§8.7). */
export interface PendingMarker {
  schema: 1;
  group_id: string;
  actor_id: string;
  expected: { event_id: string; ts: string };
  target: CursorEntry;
}

function readJson(path: string): unknown {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function isEntry(v: unknown): v is CursorEntry {
  const o = v as Record<string, unknown> | null;
  return !!o && typeof o === 'object' && typeof o['event_id'] === 'string' && typeof o['ts'] === 'string';
}

async function readJsonAsync(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Mail cursors from `state/read_cursors.json`. A document without `schema: 1` comes from the
 * former all-message read model and must not suppress Mail, so it reads as "no cursors".
 */
export function readCursors(path: string): Map<string, CursorEntry> {
  const doc = readJson(path) as { schema?: unknown; cursors?: unknown } | undefined;
  const out = new Map<string, CursorEntry>();
  if (!doc || doc.schema !== 1 || !doc.cursors || typeof doc.cursors !== 'object') return out;
  for (const [aid, entry] of Object.entries(doc.cursors as Record<string, unknown>)) {
    if (isEntry(entry)) out.set(aid, { event_id: entry.event_id, ts: entry.ts, updated_at: String(entry.updated_at ?? '') });
  }
  return out;
}

/**
 * Advance one actor's cursor, never backward: `isLater(a, b)` compares ledger append order.
 * Returns the entry now stored.
 */
export async function advanceCursor(path: string, actorId: string, target: CursorEntry, isLater: (candidate: string, current: string) => boolean): Promise<CursorEntry> {
  const doc = (await readJsonAsync(path)) as { schema?: unknown; cursors?: Record<string, unknown> } | undefined;
  const cursors: Record<string, unknown> = doc?.schema === 1 && doc.cursors && typeof doc.cursors === 'object' ? { ...doc.cursors } : {};
  const current = cursors[actorId];
  if (isEntry(current) && !isLater(target.event_id, current.event_id)) return { ...current, updated_at: String(current.updated_at ?? '') };
  cursors[actorId] = target;
  await writeFileAtomic(path, JSON.stringify({ schema: 1, cursors }, null, 2) + '\n');
  return target;
}

/**
 * The marker is durable (file and directory entry fsynced) before the caller appends mail.read.
 * It normally does not exist, so it is created in place rather than through a temporary file
 * and a rename: a crash mid-write leaves a torn marker, which `readMarker` reports as invalid
 * and recovery discards, correctly, since no mail.read can follow a marker that was not yet
 * durable. A leftover marker (never expected here: recovery runs at open) is replaced atomically.
 */
export async function writeMarker(path: string, marker: PendingMarker): Promise<void> {
  const text = JSON.stringify(marker, null, 2) + '\n';
  if (!(await createFileDurably(path, text))) await writeFileAtomic(path, text);
}

export function readMarker(path: string): { marker: PendingMarker | undefined; present: boolean } {
  if (!existsSync(path)) return { marker: undefined, present: false };
  const m = readJson(path) as Partial<PendingMarker> | undefined;
  const valid = !!m && m.schema === 1 && typeof m.actor_id === 'string' && isEntry(m.target) && typeof m.group_id === 'string';
  return { marker: valid ? (m as PendingMarker) : undefined, present: true };
}

/**
 * Removing the marker needs no directory fsync: if the removal is lost in a crash, recovery
 * finds the marker's mail.read and re-applies a cursor that can only stay where it is.
 */
export async function clearMarker(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
