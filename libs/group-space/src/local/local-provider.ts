import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { requireOnFirstUse } from '@cccc/durable-fs';
import { spaceError } from '../errors.js';
import { newId, nowIso } from '../ids.js';
import type { ProviderState, QueryAnswer, RemoteSpace, SourceInput, SpaceArtifact, SpaceProvider, SpaceSource } from '../provider.js';
import { bestSentence, matchExpression, queryTerms } from './fts-terms.js';

// The native addon loads when a database is first opened, not with the package (idle memory).
const sqlite = requireOnFirstUse<typeof Database>(import.meta.url, 'better-sqlite3');

/** The extension provider's name: a group uses it once bound with `provider: "local"`. */
export const LOCAL_PROVIDER = 'local';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS spaces (id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (
  rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, space_id TEXT NOT NULL, token TEXT NOT NULL,
  title TEXT NOT NULL, source_type TEXT NOT NULL, origin TEXT NOT NULL, content TEXT NOT NULL,
  size_bytes INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS sources_space ON sources(space_id);
CREATE INDEX IF NOT EXISTS sources_token ON sources(space_id, token);
CREATE VIRTUAL TABLE IF NOT EXISTS sources_fts USING fts5(title, content, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS artifacts (
  id TEXT PRIMARY KEY, space_id TEXT NOT NULL, token TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL,
  format TEXT NOT NULL, content TEXT NOT NULL, source_ids TEXT NOT NULL, created_at TEXT NOT NULL,
  UNIQUE(space_id, token));
`;

interface SourceRow {
  rid: number;
  id: string;
  space_id: string;
  token: string;
  title: string;
  source_type: string;
  origin: string;
  content: string;
  size_bytes: number;
  created_at: string;
  updated_at: string;
}

interface ArtifactRow {
  id: string;
  space_id: string;
  kind: string;
  title: string;
  format: string;
  content: string;
  source_ids: string;
  created_at: string;
}

const toSource = (r: SourceRow): SpaceSource => ({
  source_id: r.id,
  title: r.title,
  source_type: r.source_type,
  origin: r.origin,
  size_bytes: r.size_bytes,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const toArtifact = (r: ArtifactRow): SpaceArtifact => ({
  artifact_id: r.id,
  kind: r.kind,
  title: r.title,
  status: 'completed',
  format: r.format,
  created_at: r.created_at,
  source_ids: JSON.parse(r.source_ids) as string[],
});

/**
 * The embedded local provider: no server, no network. Spaces, sources and artifacts live in one
 * SQLite file in the group's state (WAL, each mutation one transaction), sources are indexed by
 * FTS5, queries answer with the best sentence of each matching source and a numbered citation.
 * A source is keyed by the job token that created it, so replaying a job never duplicates it.
 */
export class LocalSpaceProvider implements SpaceProvider {
  readonly name = LOCAL_PROVIDER;
  readonly artifactKinds = ['report'] as const;
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new (sqlite())(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  state(): ProviderState {
    return {
      provider: LOCAL_PROVIDER,
      enabled: true,
      mode: 'active',
      real_adapter_enabled: true,
      stub_adapter_enabled: false,
      auth_configured: true,
      write_ready: true,
      readiness_reason: 'embedded local provider (SQLite FTS5 in the group state)',
      last_health_at: null,
      last_error: null,
    };
  }

  async listSpaces(): Promise<RemoteSpace[]> {
    return this.db
      .prepare<[], { id: string; title: string; created_at: string }>('SELECT * FROM spaces ORDER BY created_at, id')
      .all()
      .map((r) => ({ remote_space_id: r.id, title: r.title, created_at: r.created_at, is_owner: true }));
  }

  async createSpace(title: string): Promise<RemoteSpace> {
    const space = { remote_space_id: newId('lsp'), title, created_at: nowIso(), is_owner: true };
    this.db.prepare('INSERT INTO spaces (id, title, created_at) VALUES (?, ?, ?)').run(space.remote_space_id, title, space.created_at);
    return space;
  }

  async assertSpace(spaceId: string): Promise<void> {
    if (!this.db.prepare('SELECT 1 FROM spaces WHERE id = ?').get(spaceId)) {
      throw spaceError('space_provider_not_found', `no local space ${spaceId}`, { remote_space_id: spaceId });
    }
  }

  async addSource(spaceId: string, input: SourceInput, token: string): Promise<{ source: SpaceSource; created: boolean }> {
    await this.assertSpace(spaceId);
    const add = this.db.transaction((): { source: SpaceSource; created: boolean } => {
      const existing = this.db.prepare<[string, string], SourceRow>('SELECT * FROM sources WHERE space_id = ? AND token = ?').get(spaceId, token);
      if (existing) return { source: toSource(existing), created: false };
      const at = nowIso();
      const id = newId('src');
      const size = Buffer.byteLength(input.content, 'utf8');
      const info = this.db
        .prepare('INSERT INTO sources (id, space_id, token, title, source_type, origin, content, size_bytes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, spaceId, token, input.title, input.source_type, input.origin ?? '', input.content, size, at, at);
      this.db.prepare('INSERT INTO sources_fts (rowid, title, content) VALUES (?, ?, ?)').run(info.lastInsertRowid, input.title, input.content);
      return { source: toSource(this.row(id)), created: true };
    });
    return add.immediate();
  }

  async sourcesByToken(spaceId: string, token: string): Promise<SpaceSource[]> {
    return this.db.prepare<[string, string], SourceRow>('SELECT * FROM sources WHERE space_id = ? AND token = ? ORDER BY rid').all(spaceId, token).map(toSource);
  }

  async listSources(spaceId: string): Promise<SpaceSource[]> {
    await this.assertSpace(spaceId);
    return this.db.prepare<[string], SourceRow>('SELECT * FROM sources WHERE space_id = ? ORDER BY rid').all(spaceId).map(toSource);
  }

  async countSources(spaceId: string): Promise<{ total: number; files: number }> {
    await this.assertSpace(spaceId);
    const r = this.db.prepare<[string], { total: number; files: number | null }>("SELECT COUNT(*) AS total, SUM(source_type = 'file') AS files FROM sources WHERE space_id = ?").get(spaceId)!;
    return { total: r.total, files: r.files ?? 0 };
  }

  private row(sourceId: string, spaceId?: string): SourceRow {
    const r = this.db.prepare<[string], SourceRow>('SELECT * FROM sources WHERE id = ?').get(sourceId);
    if (!r || (spaceId !== undefined && r.space_id !== spaceId)) throw spaceError('space_provider_not_found', `no source ${sourceId}`, { source_id: sourceId });
    return r;
  }

  /** Re-reads a file source from its origin (a regular file, never through a link); text sources are re-indexed as they are. */
  async refreshSource(spaceId: string, sourceId: string): Promise<{ refreshed: boolean; source: SpaceSource }> {
    const r = this.row(sourceId, spaceId);
    let content = r.content;
    if (r.source_type === 'file' && r.origin !== '') {
      let st;
      try {
        st = lstatSync(r.origin);
      } catch {
        throw spaceError('space_provider_not_found', `the source file is gone: ${r.origin}`, { source_id: sourceId });
      }
      if (!st.isFile()) throw spaceError('space_provider_not_found', `the source is no longer a regular file: ${r.origin}`, { source_id: sourceId });
      content = readFileSync(r.origin, 'utf8');
    }
    const at = nowIso();
    this.db.transaction(() => {
      this.db.prepare('UPDATE sources SET content = ?, size_bytes = ?, updated_at = ? WHERE rid = ?').run(content, Buffer.byteLength(content, 'utf8'), at, r.rid);
      this.db.prepare('DELETE FROM sources_fts WHERE rowid = ?').run(r.rid);
      this.db.prepare('INSERT INTO sources_fts (rowid, title, content) VALUES (?, ?, ?)').run(r.rid, r.title, content);
    }).immediate();
    return { refreshed: true, source: toSource(this.row(sourceId)) };
  }

  async renameSource(spaceId: string, sourceId: string, title: string): Promise<SpaceSource> {
    const r = this.row(sourceId, spaceId);
    this.db.transaction(() => {
      this.db.prepare('UPDATE sources SET title = ?, updated_at = ? WHERE rid = ?').run(title, nowIso(), r.rid);
      this.db.prepare('DELETE FROM sources_fts WHERE rowid = ?').run(r.rid);
      this.db.prepare('INSERT INTO sources_fts (rowid, title, content) VALUES (?, ?, ?)').run(r.rid, title, r.content);
    }).immediate();
    return toSource(this.row(sourceId));
  }

  async deleteSource(spaceId: string, sourceId: string): Promise<{ deleted: boolean }> {
    const r = this.row(sourceId, spaceId);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM sources WHERE rid = ?').run(r.rid);
      this.db.prepare('DELETE FROM sources_fts WHERE rowid = ?').run(r.rid);
    }).immediate();
    return { deleted: true };
  }

  async query(spaceId: string, question: string, options: { source_ids?: string[]; limit?: number } = {}): Promise<QueryAnswer> {
    await this.assertSpace(spaceId);
    const terms = queryTerms(question);
    if (terms.length === 0) return { answer: '', references: [] };
    const limit = Math.min(Math.max(options.limit ?? 5, 1), 20);
    const filter = options.source_ids && options.source_ids.length > 0 ? options.source_ids : undefined;
    const params: unknown[] = [matchExpression(terms), spaceId];
    let sql =
      "SELECT s.id, s.title, s.origin, s.content, bm25(sources_fts, 2.0, 1.0) AS rank, snippet(sources_fts, 1, '**', '**', '…', 16) AS snip " +
      'FROM sources_fts JOIN sources s ON s.rid = sources_fts.rowid WHERE sources_fts MATCH ? AND s.space_id = ?';
    if (filter) {
      sql += ` AND s.id IN (${filter.map(() => '?').join(', ')})`;
      params.push(...filter);
    }
    sql += ' ORDER BY rank LIMIT ?';
    params.push(limit);
    const rows = this.db.prepare(sql).all(...params) as Array<{ id: string; title: string; origin: string; content: string; rank: number; snip: string }>;
    const references = rows.map((r, i) => ({ citation: i + 1, source_id: r.id, title: r.title, origin: r.origin, snippet: r.snip, score: -r.rank }));
    const answer = rows.map((r, i) => `${bestSentence(r.content, terms)} [${i + 1}]`).join('\n');
    return { answer, references };
  }

  async listArtifacts(spaceId: string): Promise<SpaceArtifact[]> {
    await this.assertSpace(spaceId);
    return this.db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE space_id = ? ORDER BY created_at, id').all(spaceId).map(toArtifact);
  }

  /** kind=report: an extractive Markdown digest of the space's sources (title + first lines each), keyed by token. */
  async generateArtifact(spaceId: string, kind: string, token: string): Promise<SpaceArtifact> {
    await this.assertSpace(spaceId);
    if (kind !== 'report') throw spaceError('capability_unavailable', `the local provider generates only kind=report, not ${kind}`, { kind });
    const gen = this.db.transaction((): SpaceArtifact => {
      const existing = this.db.prepare<[string, string], ArtifactRow>('SELECT * FROM artifacts WHERE space_id = ? AND token = ?').get(spaceId, token);
      if (existing) return toArtifact(existing);
      const sources = this.db.prepare<[string], SourceRow>('SELECT * FROM sources WHERE space_id = ? ORDER BY rid').all(spaceId);
      const body = sources.map((s, i) => `## [${i + 1}] ${s.title}\n\n${s.content.split('\n').filter((l) => l.trim() !== '').slice(0, 3).join('\n')}\n`).join('\n');
      const content = `# Space report\n\n${sources.length} source(s).\n\n${body}`;
      const id = newId('art');
      const at = nowIso();
      this.db
        .prepare('INSERT INTO artifacts (id, space_id, token, kind, title, format, content, source_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, spaceId, token, kind, 'Space report', 'markdown', content, JSON.stringify(sources.map((s) => s.id)), at);
      return toArtifact(this.db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE id = ?').get(id)!);
    });
    return gen.immediate();
  }

  async readArtifact(spaceId: string, artifactId: string): Promise<{ artifact: SpaceArtifact; content: string }> {
    const r = this.db.prepare<[string, string], ArtifactRow>('SELECT * FROM artifacts WHERE space_id = ? AND id = ?').get(spaceId, artifactId);
    if (!r) throw spaceError('space_provider_not_found', `no artifact ${artifactId}`, { artifact_id: artifactId });
    return { artifact: toArtifact(r), content: r.content };
  }
}
