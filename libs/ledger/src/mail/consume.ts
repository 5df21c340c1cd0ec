import { FileLock } from '@cccc/durable-fs';
import type { IndexQueries } from '../index-db/queries.js';
import type { InboxView } from '../projections/inbox.js';
import type { InboxConsumeResult } from '../store.js';
import type { AppendInput, AppendResult } from '../types.js';
import { advanceCursor, clearMarker, readCursors, readMarker, writeMarker, type CursorEntry } from './cursor-files.js';

export type ConsumePhase = 'marker-written' | 'mail-read-appended';

export interface ConsumeDeps {
  groupId: string;
  cursorsPath: string;
  markerPath: string;
  lockPath: string;
  queries: () => IndexQueries;
  nowIso: () => string;
  peek: (actorId: string, limit: number) => InboxView;
  append: <K extends string>(input: AppendInput<K>) => Promise<AppendResult<K>>;
  /** Test seam for real crash tests: called after each durable step. */
  onPhase?: ((phase: ConsumePhase) => void) | undefined;
}

/** Cursor comparison in ledger append order (timestamps never decide). */
export function laterInLedger(queries: IndexQueries): (candidate: string, current: string) => boolean {
  return (candidate, current) => {
    const a = queries.byId(candidate)?.ord;
    const b = queries.byId(current)?.ord;
    if (a === undefined) return false;
    return b === undefined || a > b;
  };
}

/**
 * The two-phase consuming read of spec §8.7: marker → mail.read → cursor → clear marker. The
 * mail.read event is the commit record; a crash at any step is repaired by `recoverConsume`.
 */
export async function consumeInbox(d: ConsumeDeps, actorId: string, by: string, limit: number): Promise<InboxConsumeResult> {
  // Serialize consumers (in this process and others) so two reads never return the same Mail.
  const lock = await FileLock.acquire(d.lockPath, 30_000);
  try {
    const view = d.peek(actorId, limit);
    const current = readCursors(d.cursorsPath).get(actorId);
    if (view.messages.length === 0) {
      return { messages: [], cursor: { ...view.cursor, updated_at: current?.updated_at ?? '' }, event: null };
    }
    const last = view.messages[view.messages.length - 1]!;
    const target: CursorEntry = { event_id: last.id, ts: last.ts, updated_at: d.nowIso() };
    await writeMarker(d.markerPath, { schema: 1, group_id: d.groupId, actor_id: actorId, expected: view.cursor, target });
    d.onPhase?.('marker-written');
    let appended: AppendResult<'mail.read'>;
    try {
      appended = await d.append({ kind: 'mail.read', by, data: { actor_id: actorId, event_id: last.id } });
    } catch (err) {
      await clearMarker(d.markerPath); // no commit record: the old cursor stays, nothing is returned
      throw err;
    }
    d.onPhase?.('mail-read-appended');
    const cursor = await advanceCursor(d.cursorsPath, actorId, target, laterInLedger(d.queries()));
    await clearMarker(d.markerPath);
    return { messages: view.messages, cursor, event: appended.event };
  } finally {
    lock.release();
  }
}

/**
 * At open: a marker whose mail.read reached the ledger completes its cursor (never moving a
 * later cursor back); a marker without it is discarded and the old cursor remains. Under the
 * consumers' lock: a marker seen here is never that of a consume still running in another process.
 */
export async function recoverConsume(d: Pick<ConsumeDeps, 'groupId' | 'cursorsPath' | 'markerPath' | 'lockPath' | 'queries'>): Promise<'completed' | 'discarded' | null> {
  if (!readMarker(d.markerPath).present) return null;
  const lock = await FileLock.acquire(d.lockPath, 30_000);
  try {
    const { marker, present } = readMarker(d.markerPath);
    if (!present) return null;
    const queries = d.queries();
    if (marker && marker.group_id === d.groupId && queries.mailReadExists(marker.actor_id, marker.target.event_id)) {
      await advanceCursor(d.cursorsPath, marker.actor_id, marker.target, laterInLedger(queries));
      await clearMarker(d.markerPath);
      return 'completed';
    }
    await clearMarker(d.markerPath);
    return 'discarded';
  } finally {
    lock.release();
  }
}
