import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { requireOnFirstUse } from '@cccc/durable-fs';
import type { Chunk } from './chunk.js';

// The native addon loads when a database is first opened, not with the package (idle memory).
const sqlite = requireOnFirstUse<typeof Database>(import.meta.url, 'better-sqlite3');

/** What the index knows of one file (paths are relative to the memory root). */
export interface IndexedFile {
  readonly path: string;
  readonly hash: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly chunkCount: number;
}

export interface IndexCandidate {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly snippet: string;
  readonly bm25: number;
  readonly metadata: string;
}

/** Bumped whenever what is indexed for a file changes (chunking, searchable text, schema). */
const INDEX_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, chunk_count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, metadata TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
`;

/**
 * The derived full-text index of one group's memory: a `files` table (what was indexed, by
 * content hash), a `chunks` table (line ranges, entry metadata) and an FTS5 table keyed by the
 * chunk id. The Markdown files are the authority: an unreadable index is deleted and rebuilt.
 */
export class MemoryIndexDb {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = MemoryIndexDb.open(file);
    this.stmts = {
      files: this.db.prepare<[], { path: string; hash: string; size: number; mtime_ms: number; chunk_count: number }>('SELECT * FROM files ORDER BY path'),
      upsertFile: this.db.prepare('INSERT OR REPLACE INTO files (path, hash, size, mtime_ms, chunk_count) VALUES (?, ?, ?, ?, ?)'),
      deleteFile: this.db.prepare('DELETE FROM files WHERE path = ?'),
      deleteFts: this.db.prepare('DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE path = ?)'),
      deleteChunks: this.db.prepare('DELETE FROM chunks WHERE path = ?'),
      insertChunk: this.db.prepare('INSERT INTO chunks (path, start_line, end_line, metadata) VALUES (?, ?, ?, ?)'),
      insertFts: this.db.prepare('INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)'),
      search: this.db.prepare<[string, number], { path: string; start_line: number; end_line: number; text: string; snippet: string; bm25: number; metadata: string }>(
        `SELECT c.path, c.start_line, c.end_line, c.metadata, f.text, snippet(chunks_fts, 0, '**', '**', '…', 24) AS snippet, bm25(chunks_fts) AS bm25
         FROM chunks_fts f JOIN chunks c ON c.id = f.rowid WHERE chunks_fts MATCH ? ORDER BY bm25 LIMIT ?`,
      ),
      dump: this.db.prepare<[], { path: string; start_line: number; end_line: number; metadata: string; text: string }>(
        'SELECT c.path, c.start_line, c.end_line, c.metadata, f.text FROM chunks c JOIN chunks_fts f ON f.rowid = c.id ORDER BY c.path, c.start_line, c.end_line, f.text',
      ),
    };
  }

  private static open(file: string): Database.Database {
    const tryOpen = () => {
      const db = new (sqlite())(file);
      try {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.exec(SCHEMA);
        // An index made by another version of the chunking or schema is emptied: the next scan refills it.
        if (db.pragma('user_version', { simple: true }) !== INDEX_VERSION) {
          db.exec('DELETE FROM files; DELETE FROM chunks; DELETE FROM chunks_fts;');
          db.pragma(`user_version = ${INDEX_VERSION}`);
        }
        return db;
      } catch (error) {
        db.close();
        throw error;
      }
    };
    try {
      return tryOpen();
    } catch {
      // A derived file: start over from the Markdown files.
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      return tryOpen();
    }
  }

  files(): IndexedFile[] {
    return this.stmts.files.all().map((r) => ({ path: r.path, hash: r.hash, size: r.size, mtimeMs: r.mtime_ms, chunkCount: r.chunk_count }));
  }

  /** Replace one file's chunks (one transaction): each chunk's searchable text and its entry metadata. */
  replaceFile(file: IndexedFile, chunks: readonly (Chunk & { readonly metadata: Record<string, unknown> })[]): void {
    this.db.transaction(() => {
      this.removeRows(file.path);
      for (const c of chunks) {
        const { lastInsertRowid } = this.stmts.insertChunk.run(file.path, c.startLine, c.endLine, JSON.stringify(c.metadata));
        this.stmts.insertFts.run(lastInsertRowid, c.text);
      }
      this.stmts.upsertFile.run(file.path, file.hash, file.size, file.mtimeMs, chunks.length);
    })();
  }

  /** Record a file as indexed without touching its chunks (same content, new mtime). */
  touchFile(file: IndexedFile): void {
    this.stmts.upsertFile.run(file.path, file.hash, file.size, file.mtimeMs, file.chunkCount);
  }

  removeFile(path: string): void {
    this.db.transaction(() => {
      this.removeRows(path);
      this.stmts.deleteFile.run(path);
    })();
  }

  private removeRows(path: string): void {
    this.stmts.deleteFts.run(path);
    this.stmts.deleteChunks.run(path);
  }

  clear(): void {
    this.db.exec("DELETE FROM files; DELETE FROM chunks; DELETE FROM chunks_fts; INSERT INTO chunks_fts(chunks_fts) VALUES('optimize');");
  }

  /** Best bm25 first (FTS5's bm25 is negative: lower is better). */
  search(match: string, limit: number): IndexCandidate[] {
    return this.stmts.search.all(match, limit).map((r) => ({ path: r.path, startLine: r.start_line, endLine: r.end_line, text: r.text, snippet: r.snippet, bm25: r.bm25, metadata: r.metadata }));
  }

  /** Every chunk row in a stable order (tests compare an incremental index with a rebuilt one). */
  dump(): { path: string; start_line: number; end_line: number; metadata: string; text: string }[] {
    return this.stmts.dump.all();
  }

  close(): void {
    this.db.close();
  }
}
