import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createFileDurablySync } from '@cccc/durable-fs';
import type { OpArgs, OpResult } from '@cccc/ipc-protocol';
import { chunkMarkdown } from './chunk.js';
import { compact } from './conversation.js';
import { DEFAULT_SIGNAL_PACK_BUDGET, normalizeSignalPack, summarizeDaily } from './daily-summary.js';
import { finalizeDedup, precheckDecision, type DedupPrecheck } from './dedup.js';
import { entryBlock, existingDuplicate, metadataOf, searchableText, sha256 } from './entry.js';
import { MemoryErrorCodes, asMemoryError, memoryError } from './errors.js';
import { hitScore, matchExpression, queryTerms } from './fts-query.js';
import { MemoryIndexDb, type IndexedFile } from './index-db.js';
import { dailyHeader, isCalendarDate, memoryHeader, memoryLayout, utcDate, type MemoryLayout } from './layout.js';
import { updateLocked } from './locked-file.js';
import { refuseSymlinks, resolveMemoryPath } from './safe-path.js';

export interface GroupMemoryOptions {
  /** The group's directory (`<home>/groups/<id>`). */
  readonly groupDir: string;
  /** The group's current title (read at each call: a rename changes the daily file label). */
  readonly title: () => string;
  readonly now?: () => Date;
  /**
   * A search scans the files first unless the last scan is younger than this (ms; default 1000):
   * a burst of searches pays one scan, and a hand edit is seen within a second. Writes through
   * this instance re-index at once. 0 scans before every search.
   */
  readonly scanFreshMs?: number;
}

type SearchArgs = Omit<OpArgs<'memory_reme_search'>, 'group_id'>;
type GetArgs = Omit<OpArgs<'memory_reme_get'>, 'group_id'>;
type WriteArgs = Omit<OpArgs<'memory_reme_write'>, 'group_id'>;
type FlushArgs = Omit<OpArgs<'memory_reme_daily_flush'>, 'group_id'>;

export const SEARCH_DEFAULTS = { maxResults: 5, minScore: 0.1, candidateMultiplier: 3 } as const;
/** A dedup precheck looks for near-identical entries: top 3 at score ≥ 0.92, query ≤ 260 chars. */
export const DEDUP_PRECHECK = { maxResults: 3, minScore: 0.92, queryChars: 260 } as const;
export const GET_DEFAULTS = { offset: 1, limit: 200 } as const;

/**
 * One group's memory (the IO shell): the Markdown files under `state/memory/` are the authority,
 * the FTS5 index beside them (`.index/fts.sqlite`) is derived and brought up to date before every
 * search. Calls are serialized per instance; file writes also take the file's kernel lock.
 */
export class GroupMemory {
  private db: MemoryIndexDb | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly now: () => Date;
  private lastScanAt = -Infinity;

  constructor(private readonly options: GroupMemoryOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Run `work` after every earlier call of this instance has finished. */
  private serial<T>(work: () => Promise<T> | T): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  layout(date?: string): MemoryLayout {
    return memoryLayout(this.options.groupDir, this.options.title(), date ?? utcDate(this.now()));
  }

  private index(): MemoryIndexDb {
    this.db ??= new MemoryIndexDb(this.layout().indexFile);
    return this.db;
  }

  /** MEMORY.md and the daily file of `date` exist (created with their header when missing). */
  private ensureFiles(layout: MemoryLayout, date: string): void {
    refuseSymlinks(this.options.groupDir, ['state', 'memory', 'daily']);
    const at = this.now().toISOString();
    createFileDurablySync(layout.memoryFile, memoryHeader(layout.groupLabel, at));
    createFileDurablySync(layout.dailyFile, dailyHeader(layout.groupLabel, date, at));
  }

  layoutGet(): Promise<OpResult<'memory_reme_layout_get'>> {
    return this.serial(() => {
      const date = utcDate(this.now());
      const layout = this.layout(date);
      try {
        this.ensureFiles(layout, date);
      } catch (error) {
        throw asMemoryError(error, 'memory layout');
      }
      return {
        group_label: layout.groupLabel,
        memory_root: layout.root,
        memory_file: layout.memoryFile,
        daily_dir: layout.dailyDir,
        today_daily_file: layout.dailyFile,
        backend: { name: 'local', vector_enabled: false, fts_enabled: true },
      };
    });
  }

  indexSync(mode: 'scan' | 'rebuild' = 'scan'): Promise<OpResult<'memory_reme_index_sync'>> {
    return this.serial(() => this.syncNow(mode));
  }

  /** The indexable files: MEMORY.md and daily/*.md, regular files only (links are not followed). */
  private memoryFiles(layout: MemoryLayout): { path: string; st: Stats }[] {
    refuseSymlinks(this.options.groupDir, ['state', 'memory', 'daily']);
    const out: { path: string; st: Stats }[] = [];
    const add = (path: string) => {
      try {
        const st = lstatSync(path);
        if (st.isFile()) out.push({ path, st });
      } catch {
        /* gone */
      }
    };
    add(layout.memoryFile);
    let names: string[] = [];
    try {
      names = readdirSync(layout.dailyDir).filter((n) => n.endsWith('.md')).sort();
    } catch {
      /* no daily dir yet */
    }
    for (const n of names) add(join(layout.dailyDir, n));
    return out;
  }

  private syncNow(mode: 'scan' | 'rebuild'): OpResult<'memory_reme_index_sync'> {
    try {
      const date = utcDate(this.now());
      const layout = this.layout(date);
      this.ensureFiles(layout, date);
      const db = this.index();
      if (mode === 'rebuild') db.clear();
      const known = new Map(db.files().map((f) => [f.path, f]));
      const files = this.memoryFiles(layout);
      let chunks = 0;
      // Every listed file is under the root: its relative path is a plain suffix.
      const rel = (path: string) => path.slice(layout.root.length + 1);
      for (const { path, st } of files) chunks += this.indexFile(db, rel(path), path, st, mode === 'scan' ? known.get(rel(path)) : undefined);
      const present = new Set(files.map((f) => rel(f.path)));
      for (const path of known.keys()) if (!present.has(path)) db.removeFile(path);
      this.lastScanAt = performance.now();
      return { indexed_files: files.length, indexed_chunks: chunks, watched_paths: files.map((f) => f.path), last_sync_at: this.now().toISOString() };
    } catch (error) {
      throw asMemoryError(error, 'memory index sync');
    }
  }

  /** Index one file unless the index already has it (same size and mtime, or same content). Returns its chunk count. */
  private indexFile(db: MemoryIndexDb, relPath: string, path: string, st: Stats, prev: IndexedFile | undefined): number {
    if (prev && prev.size === st.size && prev.mtimeMs === st.mtimeMs) return prev.chunkCount;
    const text = readFileSync(path, 'utf8');
    const hash = sha256(text);
    const file = { path: relPath, hash, size: st.size, mtimeMs: st.mtimeMs, chunkCount: prev?.chunkCount ?? 0 };
    if (prev && prev.hash === hash) {
      db.touchFile(file);
      return prev.chunkCount;
    }
    const chunks = chunkMarkdown(text);
    db.replaceFile(
      { ...file, chunkCount: chunks.length },
      chunks.map((c) => ({ ...c, text: searchableText(c.text), metadata: metadataOf(c.text) })),
    );
    return chunks.length;
  }

  /** Search, after a scan (`scan: false` searches the index as it is: benches, bulk callers that just synced). */
  search(args: SearchArgs, options: { scan?: boolean } = {}): Promise<OpResult<'memory_reme_search'>> {
    return this.serial(() => {
      const started = performance.now();
      if (options.scan !== false && performance.now() - this.lastScanAt >= (this.options.scanFreshMs ?? 1000)) this.syncNow('scan');
      const hits = this.searchNow(args);
      return { hits, count: hits.length, took_ms: Math.round((performance.now() - started) * 1000) / 1000 };
    });
  }

  /** Search the index as it is (no sync first). */
  private searchNow(args: SearchArgs): OpResult<'memory_reme_search'>['hits'] {
    const sources = args.sources ?? ['memory'];
    // Only the memory files are indexed; a search of other sources alone (e.g. "sessions") finds nothing.
    if (!sources.some((s) => s.trim().toLowerCase() === 'memory')) return [];
    const terms = queryTerms(args.query);
    if (terms.length === 0) return [];
    const maxResults = args.max_results ?? SEARCH_DEFAULTS.maxResults;
    const minScore = args.min_score ?? SEARCH_DEFAULTS.minScore;
    const candidates = this.index().search(matchExpression(terms), Math.ceil(maxResults * (args.candidate_multiplier ?? SEARCH_DEFAULTS.candidateMultiplier)));
    const best = candidates[0]?.bm25 ?? 0;
    const root = this.layout().root;
    return candidates
      .map((c) => ({ c, score: hitScore(c.text, terms, c.bm25, best) }))
      .filter((h) => h.score >= minScore)
      .sort((a, b) => b.score - a.score || a.c.bm25 - b.c.bm25)
      .slice(0, maxResults)
      .map(({ c, score }) => ({
        path: join(root, c.path),
        start_line: c.startLine,
        end_line: c.endLine,
        score,
        snippet: c.snippet,
        source: 'memory',
        raw_metric: c.bm25,
        metadata: JSON.parse(c.metadata) as Record<string, unknown>,
      }));
  }

  get(args: GetArgs): Promise<OpResult<'memory_reme_get'>> {
    return this.serial(() => {
      const path = resolveMemoryPath(this.layout().root, args.path);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR') throw memoryError(MemoryErrorCodes.fileNotFound, `no memory file ${args.path}`, { path: args.path });
        throw asMemoryError(error, 'memory read');
      }
      const lines = text.split('\n');
      if (lines.at(-1) === '') lines.pop();
      const offset = args.offset ?? GET_DEFAULTS.offset;
      const limit = args.limit ?? GET_DEFAULTS.limit;
      return { path, offset, limit, total_lines: lines.length, content: lines.slice(offset - 1, offset - 1 + limit).join('\n') };
    });
  }

  private precheck(intent: DedupPrecheck['intent'], query: string): DedupPrecheck {
    const q = [...query.replace(/\s+/g, ' ').trim()].slice(0, DEDUP_PRECHECK.queryChars).join('');
    const hits = q
      ? this.searchNow({ query: q, max_results: DEDUP_PRECHECK.maxResults, min_score: DEDUP_PRECHECK.minScore }).map((h) => ({ path: h.path, start_line: h.start_line, score: h.score }))
      : [];
    return { intent, query: q, hits, precheck_decision: precheckDecision(intent, hits.length) };
  }

  private checkedDate(date: string | undefined, field = 'date'): string {
    if (date === undefined) return utcDate(this.now());
    if (!isCalendarDate(date)) throw memoryError(MemoryErrorCodes.invalidRequest, `${field} is not a calendar day`, { field, reason: 'invalid_date' });
    return date;
  }

  write(args: WriteArgs): Promise<OpResult<'memory_reme_write'>> {
    return this.serial(async () => {
      if (args.target === 'daily' && args.date === undefined) {
        throw memoryError(MemoryErrorCodes.invalidRequest, 'date is required when target is daily', { field: 'date', reason: 'required' });
      }
      const date = this.checkedDate(args.date);
      const layout = this.layout(date);
      const path = args.target === 'memory' ? layout.memoryFile : layout.dailyFile;
      try {
        refuseSymlinks(layout.root, relative(layout.root, path).split(sep));
        this.syncNow('scan');
        const intent = args.dedup_intent ?? 'new';
        const dedup = this.precheck(intent, args.dedup_query?.trim() || args.content);
        if (dedup.precheck_decision === 'silent') {
          return { file_path: path, line_count: 0, content_hash: '', status: 'silent' as const, reason: 'precheck_silent' as const, dedup: finalizeDedup(dedup, 'silent', 'precheck_silent') };
        }
        const key = args.idempotency_key?.trim() ?? '';
        const header = args.target === 'memory' ? memoryHeader(layout.groupLabel, this.now().toISOString()) : dailyHeader(layout.groupLabel, date, this.now().toISOString());
        type Outcome = { text: string; silent?: 'persistence_idempotency_key' | 'persistence_content_hash' };
        const outcome = await updateLocked<Outcome>(path, (existing) => {
          if (args.mode === 'replace') return { text: args.content, value: { text: args.content } };
          const base = existing === '' ? header : existing;
          const summary = args.content.trim();
          const silent = existingDuplicate(base, key, sha256(summary));
          if (silent) return { value: { text: base, silent } };
          const supersedes = args.supersedes ?? (intent === 'supersede' ? dedup.hits.map((h) => `${h.path}#L${h.start_line}`) : []);
          const block = entryBlock({
            entryId: `mem_${randomBytes(6).toString('hex')}`,
            kind: args.target === 'memory' ? 'stable_knowledge' : 'daily_note',
            summary,
            date,
            groupLabel: layout.groupLabel,
            actorId: args.actor_id ?? '',
            sourceRefs: args.source_refs ?? [],
            tags: args.tags ?? [],
            supersedes,
            createdAt: this.now().toISOString(),
            idempotencyKey: key || undefined,
          });
          const text = `${base}${base.endsWith('\n') ? '' : '\n'}${block}`;
          return { text, value: { text } };
        });
        this.syncNow('scan');
        const lines = outcome.text.split('\n');
        if (lines.at(-1) === '') lines.pop();
        const base = { file_path: path, line_count: lines.length, content_hash: sha256(outcome.text) };
        return outcome.silent
          ? { ...base, status: 'silent' as const, reason: outcome.silent, dedup: finalizeDedup(dedup, 'silent', outcome.silent) }
          : { ...base, status: 'written' as const, dedup: finalizeDedup(dedup, 'written', 'accepted') };
      } catch (error) {
        throw asMemoryError(error, 'memory write');
      }
    });
  }

  dailyFlush(args: FlushArgs): Promise<OpResult<'memory_reme_daily_flush'>> {
    return this.serial(async () => {
      if (args.return_prompt) {
        const r = compact({ messagesToSummarize: args.messages, language: args.language ?? 'en', returnPrompt: true });
        return r as { prompt: Record<string, string> };
      }
      const date = this.checkedDate(args.date);
      const { pack, meta } = normalizeSignalPack(args.signal_pack, args.signal_pack_token_budget ?? DEFAULT_SIGNAL_PACK_BUDGET);
      const layout = this.layout(date);
      const path = layout.dailyFile;
      const intent = args.dedup_intent ?? 'new';
      const summary = summarizeDaily(args.messages, pack);
      if (summary === '') {
        const dedup = finalizeDedup({ intent, query: '', hits: [], precheck_decision: 'silent' }, 'silent', 'empty_summary');
        return { status: 'silent' as const, reason: 'empty_summary' as const, target_file: path, content_hash: '', bytes_written: 0, signal_pack: meta, dedup };
      }
      try {
        refuseSymlinks(layout.root, relative(layout.root, path).split(sep));
        this.syncNow('scan');
        const dedup = this.precheck(intent, args.dedup_query?.trim() || summary);
        if (dedup.precheck_decision === 'silent') {
          return { status: 'silent' as const, reason: 'precheck_silent' as const, target_file: path, content_hash: '', bytes_written: 0, signal_pack: meta, dedup: finalizeDedup(dedup, 'silent', 'precheck_silent') };
        }
        const groupId = this.options.groupDir.split(/[\\/]/).at(-1) ?? '';
        const key = `daily_flush:${groupId}:${date}:${sha256(summary)}`;
        type Outcome = { text: string; bytes: number; silent?: 'persistence_idempotency_key' | 'persistence_content_hash' };
        const outcome = await updateLocked<Outcome>(path, (existing) => {
          const base = existing === '' ? dailyHeader(layout.groupLabel, date, this.now().toISOString()) : existing;
          const silent = existingDuplicate(base, key, sha256(summary));
          if (silent) return { value: { text: base, silent, bytes: 0 } };
          const block = entryBlock({
            entryId: `mem_${randomBytes(6).toString('hex')}`,
            kind: 'conversation',
            summary,
            date,
            groupLabel: layout.groupLabel,
            actorId: args.actor_id ?? '',
            sourceRefs: args.messages.slice(0, 20).map((_, i) => `chat:${i}`),
            tags: ['daily_flush'],
            supersedes: [],
            createdAt: this.now().toISOString(),
            idempotencyKey: key,
          });
          const text = `${base}${base.endsWith('\n') ? '' : '\n'}${block}`;
          return { text, value: { text, bytes: Buffer.byteLength(block) } };
        });
        this.syncNow('scan');
        const base = { target_file: path, content_hash: sha256(outcome.text), bytes_written: outcome.bytes, signal_pack: meta };
        return outcome.silent
          ? { ...base, status: 'silent' as const, reason: outcome.silent, dedup: finalizeDedup(dedup, 'silent', outcome.silent) }
          : { ...base, status: 'written' as const, dedup: finalizeDedup(dedup, 'written', 'accepted') };
      } catch (error) {
        throw asMemoryError(error, 'memory daily flush');
      }
    });
  }

  /** Every indexed chunk in a stable order: what an incremental index and a rebuilt one must share. */
  indexDump(): ReturnType<MemoryIndexDb['dump']> {
    return this.index().dump();
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }
}
