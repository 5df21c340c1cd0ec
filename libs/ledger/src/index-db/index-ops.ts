import type { LedgerEvent } from '../types.js';
import { indexFactsOf } from './rows.js';

/** One event to index with where its line sits: `src` 0 is the active file, else a segment seq. */
export interface IndexedEvent {
  event: LedgerEvent;
  src: number;
  off: number;
  len: number;
}

/**
 * One statement run of an index write. `ords` lists the positions in `params` that hold an
 * event's position relative to the run it belongs to (1 = its first event): the absolute ord is
 * only known inside the transaction that applies the ops (it continues from `MAX(ord)`), which
 * may run on another thread or after another process indexed its own appends.
 */
export interface IndexOp {
  sql: string;
  params: unknown[];
  ords: number[];
}

const ROWS_PER_STATEMENT = 64;

/** A table written with multi-row INSERTs; statement texts are built once per row count. */
class MultiRowTable {
  private readonly sqlByRows = new Map<number, string>();
  private readonly head: string;
  private readonly row: string;

  constructor(
    insert: string,
    table: string,
    columns: readonly string[],
    /** Which column holds the ord. */
    readonly ordColumn: number,
  ) {
    this.row = `(${columns.map(() => '?').join(', ')})`;
    this.head = `${insert} INTO ${table}(${columns.join(', ')}) VALUES `;
  }

  sql(rows: number): string {
    let sql = this.sqlByRows.get(rows);
    if (!sql) {
      sql = this.head + Array(rows).fill(this.row).join(', ');
      this.sqlByRows.set(rows, sql); // at most ROWS_PER_STATEMENT distinct texts per table
    }
    return sql;
  }
}

const EVENTS = new MultiRowTable('INSERT OR FAIL', 'events', ['ord', 'id', 'src', 'off', 'len'], 0);
const CHAT = new MultiRowTable('INSERT OR FAIL', 'chat', ['ord', 'by', 'mode', 'reply_to'], 0);
const AUDIENCE = new MultiRowTable('INSERT OR IGNORE', 'audience', ['token', 'ord', 'mode', 'by'], 1);
const KINDS = new MultiRowTable('INSERT OR FAIL', 'event_kinds', ['kind', 'ord'], 1);

/**
 * Rows of one table gathered into multi-row INSERTs: on rebuilds of millions of events the
 * per-statement call overhead, not SQLite's B-tree work, dominated, and a group-commit batch of
 * a few events becomes one statement per table instead of one per row.
 */
class RowGather {
  private params: unknown[] = [];
  private ords: number[] = [];
  private rows = 0;

  constructor(
    private readonly table: MultiRowTable,
    private readonly out: IndexOp[],
  ) {}

  push(...row: unknown[]): void {
    this.ords.push(this.params.length + this.table.ordColumn);
    for (const v of row) this.params.push(v);
    this.rows += 1;
    if (this.rows === ROWS_PER_STATEMENT) this.flush();
  }

  flush(): void {
    if (this.rows === 0) return;
    this.out.push({ sql: this.table.sql(this.rows), params: this.params, ords: this.ords });
    this.params = [];
    this.ords = [];
    this.rows = 0;
  }
}

const SQL = {
  upsertClientId: 'INSERT OR REPLACE INTO client_ids(by, client_id, ord) VALUES (?, ?, ?)',
  upsertGen: 'INSERT OR REPLACE INTO actor_gen(actor_id, ord, created_at) VALUES (?, ?, ?)',
  // The target is looked up inside the same statement, after every earlier event's row.
  insMailRead:
    'INSERT OR REPLACE INTO mail_reads(actor_id, ord, event_id, target_ord) VALUES (?, ?, ?, (SELECT ord FROM events WHERE id = ? ORDER BY ord LIMIT 1))',
  insCancel: 'INSERT OR REPLACE INTO cancels(source_id, ord, by) VALUES (?, ?, ?)',
  upsertDelivery: 'INSERT OR REPLACE INTO delivery(source_id, actor_id, state, delivery_id, transport, ord) VALUES (?, ?, ?, ?, ?, ?)',
  upsertConfirmation: 'INSERT OR REPLACE INTO delivery_confirmation(source_id, actor_id, state, delivery_id, ord) VALUES (?, ?, ?, ?, ?)',
  insNotice: 'INSERT OR REPLACE INTO notices(ord, target) VALUES (?, ?)',
} as const;

/**
 * The index writes for a run of events in append order: a pure function of the events, so an
 * incremental append, a rebuild from the JSONL and the background writer thread produce the
 * same rows. Statements must be applied in the returned order (the latest upsert wins).
 */
export function buildIndexOps(items: readonly IndexedEvent[]): IndexOp[] {
  const out: IndexOp[] = [];
  const one = (sql: string, params: unknown[], ordAt: number) => out.push({ sql, params, ords: [ordAt] });
  const events = new RowGather(EVENTS, out);
  const chat = new RowGather(CHAT, out);
  const audience = new RowGather(AUDIENCE, out);
  const kinds = new RowGather(KINDS, out);
  let ord = 0;
  for (const { event, src, off, len } of items) {
    ord += 1;
    events.push(ord, event.id, src, off, len);
    kinds.push(event.kind, ord);
    const facts = indexFactsOf(event);
    if (facts.chat) {
      const { mode, replyTo, tokens, clientId } = facts.chat;
      chat.push(ord, event.by, mode, replyTo);
      for (const token of tokens) audience.push(token, ord, mode, event.by);
      audience.push(`from:${event.by}`, ord, mode, event.by);
      if (clientId) one(SQL.upsertClientId, [event.by, clientId, ord], 2);
    } else if (facts.actorAdd) {
      one(SQL.upsertGen, [facts.actorAdd.actorId, ord, facts.actorAdd.createdAt], 1);
    } else if (facts.mailRead) {
      events.flush(); // the target lookup must see every earlier event
      const { actorId, eventId } = facts.mailRead;
      one(SQL.insMailRead, [actorId, ord, eventId, eventId], 1);
    } else if (facts.cancel) {
      one(SQL.insCancel, [facts.cancel.sourceId, ord, event.by], 1);
    } else if (facts.delivery) {
      const d = facts.delivery;
      one(SQL.upsertDelivery, [d.sourceId, d.actorId, d.state, d.deliveryId, d.transport, ord], 5);
    } else if (facts.confirmation) {
      const c = facts.confirmation;
      one(SQL.upsertConfirmation, [c.sourceId, c.actorId, c.state, c.deliveryId, ord], 4);
    } else if (facts.notice) {
      one(SQL.insNotice, [ord, facts.notice.target], 0);
    }
  }
  events.flush();
  chat.flush();
  audience.flush();
  kinds.flush();
  return out;
}
