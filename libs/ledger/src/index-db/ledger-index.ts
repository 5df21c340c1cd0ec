import type Database from 'better-sqlite3';
import { requireOnFirstUse } from '@cccc/durable-fs';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { cleanlyClosed, OpenMarker } from './open-marker.js';
import { buildIndexOps, type IndexedEvent, type IndexOp } from './index-ops.js';
import { ALL_TABLES, INDEX_DDL, INDEX_SCHEMA_VERSION } from './schema.js';

// The native addon loads when a database is first opened, not with the package (idle memory).
const sqlite = requireOnFirstUse<typeof Database>(import.meta.url, 'better-sqlite3');

export interface Located {
  ord: number;
  src: number;
  off: number;
  len: number;
}

export type { IndexedEvent } from './index-ops.js';

/**
 * SQLite page cache of each index connection, in KiB (the owner's and the background writer's).
 * The index lives on disk and in the OS page cache; a connection keeps only its hot pages, so a
 * daemon's resident memory does not grow with the number of events (a 64 MiB cache per
 * connection did: it filled at open, from quick_check, and under load, from random id inserts).
 */
export const INDEX_CACHE_KIB = 4096;
/**
 * The cache while a rebuild runs: it inserts every id of the history into a B-tree in random
 * order, and a small cache turned a 1M-event rebuild into a disk-seek benchmark. Only then.
 */
export const REBUILD_CACHE_KIB = 65536;

/**
 * Writer side of the derived SQLite index. It is never authority: every row can be recomputed
 * from the JSONL, which is why a corrupt or foreign file is simply deleted and rebuilt.
 */
export class LedgerIndex {
  readonly db: Database.Database;
  private readonly stmts;
  /** Statements of index writes by SQL text (a bounded set: see buildIndexOps). */
  private readonly writeStatements = new Map<string, Database.Statement>();

  /** This connection's "open, not yet cleanly closed" marker (see open-marker.ts). */
  private marker: OpenMarker | undefined;
  /** Whether this open ran SQLite's integrity check (the file was not known to be whole). */
  checkedAtOpen = false;

  private constructor(
    db: Database.Database,
    readonly path: string,
  ) {
    this.db = db;
    this.stmts = {
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      maxOrd: db.prepare<[], { m: number | null }>('SELECT MAX(ord) AS m FROM events'),
      insDamage: db.prepare('INSERT OR REPLACE INTO damage(src, off, len, reason) VALUES (?, ?, ?, ?)'),
    };
  }

  /** Open (creating or replacing a corrupt/foreign file). `reset` says why the file was reset. */
  static open(path: string): { index: LedgerIndex; reset: string | undefined } {
    mkdirSync(dirname(path), { recursive: true });
    // Every connection since the last check was closed cleanly: the file is as SQLite left it at
    // a close, so the integrity check (a read of every page, ~100 ms per 200k events) is skipped.
    // A marker left by a kill -9, a crash or a connection still open elsewhere means a check.
    const check = !cleanlyClosed(path);
    let reason: string;
    try {
      const index = LedgerIndex.openUnchecked(path, check);
      const version = index.meta('schema');
      if (version === INDEX_SCHEMA_VERSION) return { index: index.marked(check), reset: undefined };
      if (version === undefined) {
        index.clear();
        return { index: index.marked(check), reset: 'new index' };
      }
      // Tables of another schema need not fit this one's statements: start from an empty file.
      index.close();
      reason = `index schema ${version} != ${INDEX_SCHEMA_VERSION}`;
    } catch (err) {
      // Corrupt beyond SQLite's repair: the JSONL is the truth, so start over.
      reason = `corrupt index replaced: ${(err as Error).message}`;
    }
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    const index = LedgerIndex.openUnchecked(path, false);
    index.clear();
    return { index: index.marked(true), reset: reason };
  }

  /**
   * Mark this connection open (durably, before its first write) and, when the file was just
   * checked or recreated, forget the markers of processes that are gone.
   */
  private marked(checked: boolean): this {
    this.checkedAtOpen = checked;
    if (checked) OpenMarker.forgetDead(this.path);
    this.marker = OpenMarker.create(this.path);
    return this;
  }

  private static openUnchecked(path: string, check: boolean): LedgerIndex {
    const fresh = !existsSync(path);
    const db = new (sqlite())(path);
    try {
      db.pragma('journal_mode = WAL');
      // The index is rebuildable, so commits need not wait for fsync.
      db.pragma('synchronous = OFF');
      db.pragma('busy_timeout = 10000');
      db.pragma(`cache_size = -${INDEX_CACHE_KIB}`);
      db.pragma('temp_store = MEMORY');
      if (!fresh && check) {
        const check = db.pragma('quick_check', { simple: true });
        if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
      }
      db.exec(INDEX_DDL);
      return new LedgerIndex(db, path);
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

  /** Insert events in append order after every indexed one; the caller holds a transaction. */
  insertEvents(items: readonly IndexedEvent[]): void {
    if (items.length > 0) this.applyOps(buildIndexOps(items), this.eventCount());
  }

  /**
   * Run index writes whose relative ords start after `base` (consumes `ops`). The background
   * writer thread (index-writer-worker.js) applies the same ops the same way on its connection.
   */
  applyOps(ops: readonly IndexOp[], base: number): void {
    for (const op of ops) {
      for (const at of op.ords) op.params[at] = (op.params[at] as number) + base;
      let stmt = this.writeStatements.get(op.sql);
      if (!stmt) {
        stmt = this.db.prepare(op.sql);
        this.writeStatements.set(op.sql, stmt);
      }
      stmt.run(op.params);
    }
  }

  recordDamage(src: number, off: number, len: number, reason: string): void {
    this.stmts.insDamage.run(src, off, len, reason);
  }

  /** Run `fn` with the rebuild's larger page cache, given back (and freed) when it returns. */
  withRebuildCache<T>(fn: () => T): T {
    this.db.pragma(`cache_size = -${REBUILD_CACHE_KIB}`);
    try {
      return fn();
    } finally {
      this.db.pragma(`cache_size = -${INDEX_CACHE_KIB}`);
    }
  }

  /** Run `fn` in an IMMEDIATE transaction so two processes never index the same bytes twice. */
  exclusive<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
    // Only after a close that returned: SQLite checkpointed and left the file whole.
    this.marker?.remove();
    this.marker = undefined;
  }
}
