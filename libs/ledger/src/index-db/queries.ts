import type Database from 'better-sqlite3';
import type { Located } from './ledger-index.js';

export interface DeliveryRow {
  source_id: string;
  actor_id: string;
  state: string;
  delivery_id: string;
  transport: string;
  ord: number;
}

export interface ConfirmationRow {
  source_id: string;
  actor_id: string;
  state: string;
  delivery_id: string;
  ord: number;
}

/** A delivery fact other than `failed` exists for the event at `<alias>.ord` and the actor bound last. */
const delivered = (alias: string) =>
  `SELECT 1 FROM events e JOIN delivery d ON d.source_id = e.id WHERE e.ord = ${alias}.ord AND d.actor_id = ? AND d.state <> 'failed'`;

/**
 * Read-side queries over the derived index. Every query is an indexed range scan bounded by a
 * LIMIT, so its cost does not grow with the length of the history.
 */
export class IndexQueries {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      byId: db.prepare<[string], Located>('SELECT ord, src, off, len FROM events WHERE id = ? ORDER BY ord LIMIT 1'),
      byPrefix: db.prepare<[string, string], Located & { id: string }>(
        'SELECT ord, src, off, len, id FROM events WHERE id >= ? AND id < ? ORDER BY id, ord LIMIT 2',
      ),
      byOrd: db.prepare<[number], Located & { id: string }>('SELECT ord, src, off, len, id FROM events WHERE ord = ?'),
      generation: db.prepare<[string], { ord: number; created_at: string }>('SELECT ord, created_at FROM actor_gen WHERE actor_id = ?'),
      // target_ord > gen implies ord > gen: a mail.read is appended after its target.
      mailReadMark: db.prepare<[string, number], { m: number }>(
        'SELECT target_ord AS m FROM mail_reads WHERE actor_id = ? AND target_ord > ? ORDER BY target_ord DESC LIMIT 1',
      ),
      mailReadExists: db.prepare<[string, string], { ord: number }>('SELECT ord FROM mail_reads WHERE actor_id = ? AND event_id = ? LIMIT 1'),
      mailForToken: db.prepare<[string, number, string, number], { ord: number }>(
        "SELECT ord FROM audience INDEXED BY audience_mode WHERE token = ? AND mode = 'mail' AND ord > ? AND by <> ? ORDER BY ord LIMIT ?",
      ),
      // One message can reach an actor through several tokens (peer1 and @all): count it once.
      mailCount: (tokens: number) =>
        db.prepare<unknown[], { n: number }>(
          `SELECT COUNT(DISTINCT ord) AS n FROM audience INDEXED BY audience_mode WHERE token IN (${Array(tokens).fill('?').join(',')}) AND mode = 'mail' AND ord > ? AND by <> ?`,
        ),
      historyAll: db.prepare<[string, number, number, number], { ord: number; by: string }>(
        'SELECT ord, by FROM audience WHERE token = ? AND ord > ? AND ord < ? ORDER BY ord DESC LIMIT ?',
      ),
      historyMode: db.prepare<[string, string, number, number, number], { ord: number; by: string }>(
        // Without statistics SQLite may walk the (token, ord) key and filter by mode instead.
        'SELECT ord, by FROM audience INDEXED BY audience_mode WHERE token = ? AND mode = ? AND ord > ? AND ord < ? ORDER BY ord DESC LIMIT ?',
      ),
      replies: db.prepare<[string], { ord: number; by: string }>('SELECT ord, by FROM chat WHERE reply_to = ? ORDER BY ord'),
      cancels: db.prepare<[string], { ord: number; by: string }>('SELECT ord, by FROM cancels WHERE source_id = ? ORDER BY ord'),
      deliveries: db.prepare<[string], DeliveryRow>('SELECT * FROM delivery WHERE source_id = ? ORDER BY actor_id'),
      delivery: db.prepare<[string, string], DeliveryRow>('SELECT * FROM delivery WHERE source_id = ? AND actor_id = ?'),
      confirmations: db.prepare<[string], ConfirmationRow>('SELECT * FROM delivery_confirmation WHERE source_id = ? ORDER BY actor_id'),
      stranded: db.prepare<[], DeliveryRow>("SELECT * FROM delivery WHERE state = 'claimed' ORDER BY ord"),
      clientId: db.prepare<[string, string], { ord: number }>('SELECT ord FROM client_ids WHERE by = ? AND client_id = ?'),
      idOfOrd: db.prepare<[number], { id: string }>('SELECT id FROM events WHERE ord = ?'),
      ordsBefore: db.prepare<[number, number], { ord: number }>('SELECT ord FROM events WHERE ord < ? ORDER BY ord DESC LIMIT ?'),
      kindBefore: db.prepare<[string, number, number], { ord: number }>(
        'SELECT ord FROM event_kinds WHERE kind = ? AND ord < ? ORDER BY ord DESC LIMIT ?',
      ),
      kindAfter: db.prepare<[string, number], { ord: number }>('SELECT ord FROM event_kinds WHERE kind = ? AND ord > ? ORDER BY ord'),
      // Pushes still owed to an actor: no delivery fact for it, or a failed one (recovery at start).
      undeliveredChat: db.prepare<[string, number, string, string], { ord: number }>(
        `SELECT a.ord FROM audience a WHERE a.token = ? AND a.ord > ? AND a.mode <> 'mail' AND a.by <> ? AND NOT EXISTS (${delivered('a')}) ORDER BY a.ord`,
      ),
      undeliveredNotices: db.prepare<[number, string, string], { ord: number }>(
        `SELECT n.ord FROM notices n WHERE n.ord > ? AND (n.target IS NULL OR n.target = ?) AND NOT EXISTS (${delivered('n')}) ORDER BY n.ord`,
      ),
      damage: db.prepare<[], { src: number; off: number; len: number; reason: string }>('SELECT * FROM damage ORDER BY src = 0, src, off'),
    };
  }

  byId(id: string): Located | undefined {
    return this.s.byId.get(id);
  }

  /** Up to two matches, enough to tell unique from ambiguous. */
  byPrefix(prefix: string): Array<Located & { id: string }> {
    return this.s.byPrefix.all(prefix, prefix + '\uffff');
  }

  byOrd(ord: number): (Located & { id: string }) | undefined {
    return this.s.byOrd.get(ord);
  }

  generation(actorId: string): { ord: number; created_at: string } | undefined {
    return this.s.generation.get(actorId);
  }

  mailReadMark(actorId: string, genOrd: number): number {
    return this.s.mailReadMark.get(actorId, genOrd)?.m ?? 0;
  }

  mailReadExists(actorId: string, eventId: string): boolean {
    return this.s.mailReadExists.get(actorId, eventId) !== undefined;
  }

  /** Mail ords addressed through one token after `afterOrd`, not sent by the actor. */
  mailForToken(token: string, afterOrd: number, actorId: string, limit: number): number[] {
    return this.s.mailForToken.all(token, afterOrd, actorId, limit).map((r) => r.ord);
  }

  unreadMailCount(tokens: string[], afterOrd: number, actorId: string): number {
    return this.s.mailCount(tokens.length).get(...tokens, afterOrd, actorId)?.n ?? 0;
  }

  historyForToken(token: string, mode: string | undefined, afterOrd: number, beforeOrd: number, limit: number): Array<{ ord: number; by: string }> {
    return mode ? this.s.historyMode.all(token, mode, afterOrd, beforeOrd, limit) : this.s.historyAll.all(token, afterOrd, beforeOrd, limit);
  }

  replies(sourceId: string): Array<{ ord: number; by: string }> {
    return this.s.replies.all(sourceId);
  }

  cancels(sourceId: string): Array<{ ord: number; by: string }> {
    return this.s.cancels.all(sourceId);
  }

  deliveries(sourceId: string): DeliveryRow[] {
    return this.s.deliveries.all(sourceId);
  }

  delivery(sourceId: string, actorId: string): DeliveryRow | undefined {
    return this.s.delivery.get(sourceId, actorId);
  }

  confirmations(sourceId: string): ConfirmationRow[] {
    return this.s.confirmations.all(sourceId);
  }

  strandedClaims(): DeliveryRow[] {
    return this.s.stranded.all();
  }

  clientIdOrd(by: string, clientId: string): number | undefined {
    return this.s.clientId.get(by, clientId)?.ord;
  }

  idOfOrd(ord: number): string | undefined {
    return this.s.idOfOrd.get(ord)?.id;
  }

  /** Up to `limit` ords below `beforeOrd`, newest first. */
  ordsBefore(beforeOrd: number, limit: number): number[] {
    return this.s.ordsBefore.all(beforeOrd, limit).map((r) => r.ord);
  }

  /** Up to `limit` ords of one kind below `beforeOrd`, newest first. */
  kindBefore(kind: string, beforeOrd: number, limit: number): number[] {
    return this.s.kindBefore.all(kind, beforeOrd, limit).map((r) => r.ord);
  }

  /** Every ord of one kind after `afterOrd`, oldest first. */
  kindAfter(kind: string, afterOrd: number): number[] {
    return this.s.kindAfter.all(kind, afterOrd).map((r) => r.ord);
  }

  /** Non-Mail chat ords addressed through `token` after `afterOrd`, not by the actor, still owed to it. */
  undeliveredChat(token: string, afterOrd: number, actorId: string): number[] {
    return this.s.undeliveredChat.all(token, afterOrd, actorId, actorId).map((r) => r.ord);
  }

  /** system.notify ords after `afterOrd` targeting the actor or no one, still owed to it. */
  undeliveredNotices(afterOrd: number, actorId: string): number[] {
    return this.s.undeliveredNotices.all(afterOrd, actorId, actorId).map((r) => r.ord);
  }

  damage(): Array<{ src: number; off: number; len: number; reason: string }> {
    return this.s.damage.all();
  }
}

/** Merge per-token ord lists (each sorted) into one deduplicated list, ascending or descending. */
export function mergeOrds(lists: number[][], descending: boolean, limit: number): number[] {
  const all = new Set<number>();
  for (const l of lists) for (const o of l) all.add(o);
  const sorted = [...all].sort((a, b) => (descending ? b - a : a - b));
  return sorted.slice(0, limit);
}
