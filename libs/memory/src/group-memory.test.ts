import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opCatalog } from '@cccc/ipc-protocol';
import { tempGroup } from './test-support/temp-group.js';

const MEMORY = `# MEMORY (Team)

## Decisions
We chose SQLite FTS5 for the memory index because it needs no server.

## Parser
The parser uses a hand-written lexer. The lexer emits tokens.

## Release
Release notes go in CHANGELOG.md before every release tag.

## Café
Le café du matin.
`;
const DAILY = `# Daily Memory (Team) - 2026-11-29

## Standup
peer1 fixed the lexer bug in the parser; sqlite index rebuilt.

## Lunch
Nothing about code.
`;

function seed(root: string) {
  mkdirSync(join(root, 'daily'), { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), MEMORY);
  writeFileSync(join(root, 'daily', '2026-11-29__Team_Alpha.md'), DAILY);
}

const where = (hits: { path: string; start_line: number; end_line: number }[]) => hits.map((h) => `${h.path.split('/memory/')[1]}:${h.start_line}-${h.end_line}`);

describe('GroupMemory layout', () => {
  it('puts MEMORY.md and the daily files under state/memory and creates them with a header', async () => {
    using g = tempGroup('Team Alpha / ops');
    const r = opCatalog.memory_reme_layout_get.result.parse(await g.memory.layoutGet());
    expect(r).toEqual({
      group_label: 'Team_Alpha_ops',
      memory_root: g.root,
      memory_file: join(g.root, 'MEMORY.md'),
      daily_dir: join(g.root, 'daily'),
      today_daily_file: join(g.root, 'daily', '2026-11-30__Team_Alpha_ops.md'),
      backend: { name: 'local', vector_enabled: false, fts_enabled: true },
    });
    expect(readFileSync(r.memory_file, 'utf8')).toContain('# MEMORY (Team_Alpha_ops)');
    expect(readFileSync(r.today_daily_file, 'utf8')).toContain('date: 2026-11-30');
  });
});

describe('GroupMemory search on a known corpus', () => {
  it('finds the expected chunks in the expected order, with line ranges, snippets and scores', async () => {
    using g = tempGroup();
    seed(g.root);
    const sync = await g.memory.indexSync('scan');
    expect(sync).toMatchObject({ indexed_files: 3, indexed_chunks: 9 });

    const all = await g.memory.search({ query: 'sqlite server' });
    expect(where(all.hits)).toEqual(['MEMORY.md:3-4', 'daily/2026-11-29__Team_Alpha.md:3-4']);
    expect(all.hits[0]!.score).toBe(1);
    expect(all.hits[1]!.score).toBeLessThanOrEqual(0.5);
    expect(all.hits[0]!.snippet).toContain('**SQLite**');
    expect(all.count).toBe(2);

    const lexer = await g.memory.search({ query: 'lexer' });
    expect(where(lexer.hits)).toEqual(['MEMORY.md:6-7', 'daily/2026-11-29__Team_Alpha.md:3-4']);

    expect(where((await g.memory.search({ query: 'release tag changelog' })).hits)).toEqual(['MEMORY.md:9-10']);
    expect(where((await g.memory.search({ query: 'lunch' })).hits)).toEqual(['daily/2026-11-29__Team_Alpha.md:6-7']);
    expect(where((await g.memory.search({ query: 'cafe' })).hits)).toEqual(['MEMORY.md:12-13']); // diacritics folded
    expect((await g.memory.search({ query: 'nonexistentword' })).hits).toEqual([]);
    // FTS5 syntax in a query is text, never an error.
    expect((await g.memory.search({ query: 'parser" OR NEAR(x* AND' })).hits.length).toBeGreaterThan(0);
  });

  it('honours max_results, min_score and sources', async () => {
    using g = tempGroup();
    seed(g.root);
    expect((await g.memory.search({ query: 'lexer parser sqlite', max_results: 1 })).hits).toHaveLength(1);
    const strict = await g.memory.search({ query: 'sqlite server', min_score: 0.9 });
    expect(where(strict.hits)).toEqual(['MEMORY.md:3-4']);
    expect((await g.memory.search({ query: 'lexer', sources: ['sessions'] })).hits).toEqual([]);
    expect((await g.memory.search({ query: 'lexer', sources: ['Memory', 'sessions'] })).hits).toHaveLength(2);
  });

  it('sees hand edits and deletions on the next search (the files are the authority)', async () => {
    using g = tempGroup();
    seed(g.root);
    await g.memory.indexSync();
    writeFileSync(join(g.root, 'MEMORY.md'), `${MEMORY}\n## Zebra\nzebras are striped\n`);
    expect(where((await g.memory.search({ query: 'zebras' })).hits)).toEqual(['MEMORY.md:15-16']);
    unlinkSync(join(g.root, 'daily', '2026-11-29__Team_Alpha.md'));
    expect((await g.memory.search({ query: 'lunch' })).hits).toEqual([]);
    // Deleting the index loses nothing.
    g.memory.close();
    rmSync(join(g.root, '.index'), { recursive: true });
    expect(where((await g.memory.search({ query: 'zebras' })).hits)).toEqual(['MEMORY.md:15-16']);
  });

  it('a rebuilt index equals the incremental one', async () => {
    using g = tempGroup();
    seed(g.root);
    await g.memory.indexSync();
    await g.memory.write({ target: 'memory', content: 'the deploy key rotates monthly' });
    await g.memory.write({ target: 'daily', date: '2026-11-29', content: 'lexer bug fixed again', tags: ['bug'] });
    writeFileSync(join(g.root, 'daily', '2026-11-28__Team_Alpha.md'), '# Old\n\nold notes\n');
    await g.memory.indexSync();
    writeFileSync(join(g.root, 'daily', '2026-11-28__Team_Alpha.md'), '# Old\n\nolder notes, edited\n');
    await g.memory.indexSync();
    const incremental = g.memory.indexDump();
    expect(incremental.length).toBeGreaterThan(10);
    const rebuilt = await g.memory.indexSync('rebuild');
    expect(g.memory.indexDump()).toEqual(incremental);
    expect(rebuilt.indexed_chunks).toBe(incremental.length);
  });
});

describe('GroupMemory get and path safety', () => {
  it('reads a line range by relative or absolute path', async () => {
    using g = tempGroup();
    seed(g.root);
    const r = await g.memory.get({ path: 'MEMORY.md', offset: 3, limit: 2 });
    expect(r).toEqual({ path: join(g.root, 'MEMORY.md'), offset: 3, limit: 2, total_lines: 13, content: '## Decisions\nWe chose SQLite FTS5 for the memory index because it needs no server.' });
    expect((await g.memory.get({ path: join(g.root, 'daily', '2026-11-29__Team_Alpha.md') })).total_lines).toBe(7);
  });

  it('refuses paths outside the root, non-Markdown files, links and missing files', async () => {
    using g = tempGroup();
    seed(g.root);
    writeFileSync(join(g.groupDir, 'secret.md'), 'secret');
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code: string }) => e.code);
    expect(await code(g.memory.get({ path: '../../secret.md' }))).toBe('memory_path_outside_root');
    expect(await code(g.memory.get({ path: join(g.groupDir, 'secret.md') }))).toBe('memory_path_outside_root');
    expect(await code(g.memory.get({ path: 'daily/../../../secret.md' }))).toBe('memory_path_outside_root');
    expect(await code(g.memory.get({ path: '.index/fts.sqlite' }))).toBe('memory_path_outside_root');
    symlinkSync(join(g.groupDir, 'secret.md'), join(g.root, 'daily', 'link.md'));
    expect(await code(g.memory.get({ path: 'daily/link.md' }))).toBe('memory_path_symlink');
    expect(await code(g.memory.get({ path: 'daily/none.md' }))).toBe('memory_file_not_found');
    // A link is never indexed either.
    expect((await g.memory.search({ query: 'secret' })).hits).toEqual([]);
  });

  it('refuses to write through a linked daily directory, writing nothing', async () => {
    using g = tempGroup();
    seed(g.root);
    const outside = join(g.dir, 'outside');
    mkdirSync(outside);
    rmSync(join(g.root, 'daily'), { recursive: true });
    symlinkSync(outside, join(g.root, 'daily'));
    await expect(g.memory.write({ target: 'daily', date: '2026-11-30', content: 'x' })).rejects.toMatchObject({ code: 'memory_path_symlink' });
    expect(existsSync(join(outside, '2026-11-30__Team_Alpha.md'))).toBe(false);
  });
});

describe('GroupMemory write and daily flush', () => {
  it('appends entries with metadata, dedups by content and by idempotency key, and replaces', async () => {
    using g = tempGroup();
    const first = opCatalog.memory_reme_write.result.parse(await g.memory.write({ target: 'memory', content: 'we ship on fridays', actor_id: 'peer1', tags: ['process'], idempotency_key: 'k1' }));
    expect(first).toMatchObject({ status: 'written', file_path: join(g.root, 'MEMORY.md'), dedup: { final_reason: 'accepted', decision: 'new' } });
    const text = readFileSync(first.file_path, 'utf8');
    expect(text).toMatch(/^## mem_[0-9a-f]{12} \[stable_knowledge\] 2026-11-30T08:00:00.000Z$/m);
    expect(text).toContain('"idempotency_key":"k1"');
    expect(first.line_count).toBe(text.split('\n').length - 1);

    expect(await g.memory.write({ target: 'memory', content: 'we ship on fridays' })).toMatchObject({ status: 'silent', reason: 'persistence_content_hash' });
    expect(await g.memory.write({ target: 'memory', content: 'other words', idempotency_key: 'k1' })).toMatchObject({ status: 'silent', reason: 'persistence_idempotency_key' });
    expect(readFileSync(first.file_path, 'utf8')).toBe(text);

    const hit = await g.memory.search({ query: 'ship fridays' });
    expect(hit.hits[0]!.metadata).toMatchObject({ actor_id: 'peer1', tags: ['process'], kind: 'stable_knowledge' });

    const silent = await g.memory.write({ target: 'daily', date: '2026-11-30', content: 'we ship on fridays', dedup_intent: 'silent' });
    expect(silent).toMatchObject({ status: 'silent', reason: 'precheck_silent', dedup: { candidate_count: 1, precheck_decision: 'silent' } });

    const replaced = await g.memory.write({ target: 'memory', content: '# MEMORY\n\nclean slate\n', mode: 'replace' });
    expect(readFileSync(replaced.file_path, 'utf8')).toBe('# MEMORY\n\nclean slate\n');
    expect((await g.memory.search({ query: 'fridays' })).hits).toEqual([]);
  });

  it('refuses a daily write without a date or with an impossible date', async () => {
    using g = tempGroup();
    await expect(g.memory.write({ target: 'daily', content: 'x' })).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'date' } });
    await expect(g.memory.write({ target: 'daily', date: '2026-02-30', content: 'x' })).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'date' } });
    expect(existsSync(join(g.root, 'daily', '2026-02-30__Team_Alpha.md'))).toBe(false);
  });

  it('flushes a conversation into the daily file once', async () => {
    using g = tempGroup();
    const messages = [{ role: 'user', content: 'decide the storage' }, { role: 'assistant', name: 'peer1', content: 'sqlite with fts5' }];
    const r = opCatalog.memory_reme_daily_flush.result.parse(await g.memory.dailyFlush({ messages, date: '2026-11-29', signal_pack: { coordination_brief: { objective: 'ship memory' } } }));
    expect(r).toMatchObject({ status: 'written', target_file: join(g.root, 'daily', '2026-11-29__Team_Alpha.md'), signal_pack: { schema: 'v1', token_budget: 320, truncated: false } });
    const text = readFileSync(join(g.root, 'daily', '2026-11-29__Team_Alpha.md'), 'utf8');
    expect(text).toContain('[conversation]');
    expect(text).toContain('- ASSISTANT(peer1): sqlite with fts5');
    expect(text).toContain('- Objective: ship memory');
    expect(await g.memory.dailyFlush({ messages, date: '2026-11-29', signal_pack: { coordination_brief: { objective: 'ship memory' } } })).toMatchObject({ status: 'silent', reason: 'persistence_idempotency_key' });
    expect(await g.memory.dailyFlush({ messages: [] })).toMatchObject({ status: 'silent', reason: 'empty_summary', bytes_written: 0 });
    expect(await g.memory.dailyFlush({ messages, return_prompt: true })).toMatchObject({ prompt: { history_user: 'USER: decide the storage\nASSISTANT(peer1): sqlite with fts5' } });
  });
});

describe('GroupMemory snippets', () => {
  it('searches and shows an entry without its meta comment, and keeps the meta as metadata', async () => {
    using g = tempGroup();
    await g.memory.write({ target: 'memory', content: 'tokens rotate monthly', tags: ['secops'] });
    const { hits } = await g.memory.search({ query: 'rotate' });
    expect(hits[0]!.snippet).not.toContain('cccc.memory.meta');
    expect(hits[0]!.snippet).toContain('**rotate**');
    expect(hits[0]!.metadata).toMatchObject({ tags: ['secops'] });
    // Words that only occur in the meta line (JSON keys) do not match.
    expect((await g.memory.search({ query: 'content_hash supersedes' })).hits).toEqual([]);
  });
});
