import Database from 'better-sqlite3';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LedgerEvent } from '../types.js';
import { indexFactsOf } from './rows.js';
import { RowBuffer } from './row-buffer.js';
import { ALL_TABLES, INDEX_DDL, INDEX_SCHEMA_VERSION } from './schema.js';

export interface Located {
  ord: number;
  src: number;
  off: number;
  len: number;
}

export interface IndexedEvent {
  event: LedgerEvent;
  src: number;
  off: number;
  len: number;
}

/**
 * Writer side of the derived SQLite index. It is never authority: every row can be recomputed
 * from the JSONL, which is why a corrupt or foreign file is simply deleted and rebuilt.
 */
export class LedgerIndex {
  readonly db: Database.Database;
  private readonly stmts;
  private readonly buffers;

  private constructor(db: Database.Database) {
    this.db = db;
    this.buffers = {
      events: new RowBuffer(db, 'INSERT OR FAIL', 'events', ['ord', 'id', 'src', 'off', 'len', 'kind', 'by', 'ts']),
      chat: new RowBuffer(db, 'INSERT OR FAIL', 'chat', ['ord', 'by', 'mode', 'reply_to']),
      audience: new RowBuffer(db, 'INSERT OR IGNORE', 'audience', ['token', 'ord', 'mode', 'by']),
    };
    this.stmts = {
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      maxOrd: db.prepare<[], { m: number | null }>('SELECT MAX(ord) AS m FROM events'),
      upsertGen: db.prepare('INSERT OR REPLACE INTO actor_gen(actor_id, ord, created_at) VALUES (?, ?, ?)'),
      insMailRead: db.prepare('INSERT OR REPLACE INTO mail_reads(actor_id, ord, event_id, target_ord) VALUES (?, ?, ?, ?)'),
      insCancel: db.prepare('INSERT OR REPLACE INTO cancels(source_id, ord, by) VALUES (?, ?, ?)'),
      upsertDelivery: db.prepare('INSERT OR REPLACE INTO delivery(source_id, actor_id, state, delivery_id, transport, ord) VALUES (?, ?, ?, ?, ?, ?)'),
      upsertConfirmation: db.prepare('INSERT OR REPLACE INTO delivery_confirmation(source_id, actor_id, state, delivery_id, ord) VALUES (?, ?, ?, ?, ?)'),
      upsertClientId: db.prepare('INSERT OR REPLACE INTO client_ids(by, client_id, ord) VALUES (?, ?, ?)'),
      firstOrdOfId: db.prepare<[string], { ord: number }>('SELECT ord FROM events WHERE id = ? ORDER BY ord LIMIT 1'),
      insDamage: db.prepare('INSERT OR REPLACE INTO damage(src, off, len, reason) VALUES (?, ?, ?, ?)'),
    };
  }

  /** Open (creating or replacing a corrupt/foreign file). `rebuilt` says the file was reset. */
  static open(path: string): { index: LedgerIndex; reset: string | undefined } {
    mkdirSync(dirname(path), { recursive: true });
    try {
      const index = LedgerIndex.openUnchecked(path);
      const version = index.meta('schema');
      if (version === INDEX_SCHEMA_VERSION) return { index, reset: undefined };
      const reason = version === undefined ? 'new index' : `index schema ${version} != ${INDEX_SCHEMA_VERSION}`;
      index.clear();
      return { index, reset: reason };
    } catch (err) {
      // Corrupt beyond SQLite's repair: the JSONL is the truth, so start over.
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      const index = LedgerIndex.openUnchecked(path);
      index.clear();
      return { index, reset: `corrupt index replaced: ${(err as Error).message}` };
    }
  }

  private static openUnchecked(path: string): LedgerIndex {
    const fresh = !existsSync(path);
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      // The index is rebuildable, so commits need not wait for fsync.
      db.pragma('synchronous = OFF');
      db.pragma('busy_timeout = 10000');
      // Random 128-bit ids make the id index insert all over the B-tree; the 2 MB default page
      // cache turned a 1M-event rebuild into a disk-seek benchmark.
      db.pragma('cache_size = -65536');
      db.pragma('temp_store = MEMORY');
      if (!fresh) {
        const check = db.pragma('quick_check', { simple: true });
        if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
      }
      db.exec(INDEX_DDL);
      return new LedgerIndex(db);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  meta(key: string): string | undefined {
    return this.stmts.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string | number): void {
    this.stmts.setMeta.run(key, String(value));
  }

  eventCount(): number {
    return this.stmts.maxOrd.get()?.m ?? 0;
  }

  /** The last ord held by a sealed segment: rows above it are the active file's. */
  sealedMaxOrd(): number {
    return Number(this.meta('sealed_max_ord') ?? 0);
  }

  /** Byte offset in the active file up to which complete lines are indexed. */
  activeHwm(): number {
    return Number(this.meta('active_hwm') ?? 0);
  }

  clear(): void {
    this.db.transaction(() => {
      for (const t of ALL_TABLES) this.db.exec(`DELETE FROM ${t}`);
      this.setMeta('schema', INDEX_SCHEMA_VERSION);
      this.setMeta('active_hwm', 0);
      this.setMeta('sealed_max_ord', 0);
    })();
  }

  /** Insert events in append order; the caller holds a transaction. */
  insertEvents(items: IndexedEvent[]): void {
    let ord = this.eventCount();
    const s = this.stmts;
    const { events, chat, audience } = this.buffers;
    try {
      for (const { event, src, off, len } of items) {
        ord += 1;
        events.push(ord, event.id, src, off, len, event.kind, event.by, event.ts);
        const facts = indexFactsOf(event);
        if (facts.chat) {
          const { mode, replyTo, tokens, clientId } = facts.chat;
          chat.push(ord, event.by, mode, replyTo);
          for (const token of tokens) audience.push(token, ord, mode, event.by);
          audience.push(`from:${event.by}`, ord, mode, event.by);
          if (clientId) s.upsertClientId.run(event.by, clientId, ord);
        } else if (facts.actorAdd) {
          s.upsertGen.run(facts.actorAdd.actorId, ord, facts.actorAdd.createdAt);
        } else if (facts.mailRead) {
          events.flush(); // the target lookup below must see every earlier event
          const target = s.firstOrdOfId.get(facts.mailRead.eventId)?.ord ?? null;
          s.insMailRead.run(facts.mailRead.actorId, ord, facts.mailRead.eventId, target);
        } else if (facts.cancel) {
          s.insCancel.run(facts.cancel.sourceId, ord, event.by);
        } else if (facts.delivery) {
          const d = facts.delivery;
          s.upsertDelivery.run(d.sourceId, d.actorId, d.state, d.deliveryId, d.transport, ord);
        } else if (facts.confirmation) {
          const c = facts.confirmation;
          s.upsertConfirmation.run(c.sourceId, c.actorId, c.state, c.deliveryId, ord);
        }
      }
    } finally {
      events.flush();
      chat.flush();
      audience.flush();
    }
  }

  recordDamage(src: number, off: number, len: number, reason: string): void {
    this.stmts.insDamage.run(src, off, len, reason);
  }

  /** Run `fn` in an IMMEDIATE transaction so two processes never index the same bytes twice. */
  exclusive<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
