import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;
let root: string;

const today = new Date().toISOString().slice(0, 10);

/** Every content file under the group's memory root with its bytes (the derived index and the empty `<file>.lock` files aside). */
function memoryFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.index' || e.name.endsWith('.lock')) continue;
      if (e.isDirectory()) walk(join(d, e.name));
      else out[join(d, e.name)] = e.isSymbolicLink() ? 'link' : readFileSync(join(d, e.name), 'latin1');
    }
  };
  walk(root);
  return out;
}

/** A failing call: its code, and proof that no file and no ledger line changed. */
async function refused(op: string, args: Record<string, unknown>) {
  const files = memoryFiles();
  const ledger = fx.ledgerLines(gid).length;
  const err = await fx.errorOf(op, { group_id: gid, ...args });
  expect(memoryFiles()).toEqual(files);
  expect(fx.ledgerLines(gid).length).toBe(ledger);
  return { code: err.code, details: err.details };
}

beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = (await fx.client.call('group_create', { title: 'Memory Team' })).group_id;
  root = join(fx.home, 'groups', gid, 'state', 'memory');
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

describe('memory_reme_* over the socket', () => {
  it('layout_get names the layout under the group state and creates the files', async () => {
    const r = await fx.call('memory_reme_layout_get', { group_id: gid });
    expect(r).toEqual({
      group_label: 'Memory_Team',
      memory_root: root,
      memory_file: join(root, 'MEMORY.md'),
      daily_dir: join(root, 'daily'),
      today_daily_file: join(root, 'daily', `${today}__Memory_Team.md`),
      backend: { name: 'local', vector_enabled: false, fts_enabled: true },
    });
    expect(existsSync(r.memory_file) && existsSync(r.today_daily_file)).toBe(true);
  });

  it('write, index_sync, search and get work together', async () => {
    const w = await fx.call('memory_reme_write', { group_id: gid, target: 'memory', content: 'The parser uses a Pratt loop for operators.', actor_id: 'peer1', tags: ['parser'] });
    expect(w).toMatchObject({ status: 'written', file_path: join(root, 'MEMORY.md'), dedup: { decision: 'new', final_reason: 'accepted' } });
    await fx.call('memory_reme_write', { group_id: gid, target: 'daily', date: '2026-11-29', content: 'peer2 benchmarked the Pratt parser: 3 ms per file.' });
    expect(await fx.call('memory_reme_write', { group_id: gid, target: 'memory', content: 'The parser uses a Pratt loop for operators.' })).toMatchObject({ status: 'silent', reason: 'persistence_content_hash' });

    const sync = await fx.call('memory_reme_index_sync', { group_id: gid });
    expect(sync.indexed_files).toBe(3);
    expect(sync.watched_paths).toContain(join(root, 'daily', '2026-11-29__Memory_Team.md'));
    const rebuilt = await fx.call('memory_reme_index_sync', { group_id: gid, mode: 'rebuild' });
    expect(rebuilt.indexed_chunks).toBe(sync.indexed_chunks);

    const s = await fx.call('memory_reme_search', { group_id: gid, query: 'pratt operators', max_results: 5 });
    expect(s.count).toBe(2);
    expect(s.hits[0]).toMatchObject({ path: join(root, 'MEMORY.md'), score: 1, source: 'memory', metadata: { actor_id: 'peer1', tags: ['parser'] } });
    expect(s.hits[0]!.snippet).toContain('**Pratt**');
    expect(s.hits[1]!.path).toBe(join(root, 'daily', '2026-11-29__Memory_Team.md'));

    const g = await fx.call('memory_reme_get', { group_id: gid, path: s.hits[0]!.path, offset: s.hits[0]!.start_line, limit: s.hits[0]!.end_line - s.hits[0]!.start_line + 1 });
    expect(g.content).toContain('The parser uses a Pratt loop for operators.');
    expect((await fx.call('memory_reme_get', { group_id: gid, path: 'MEMORY.md' })).total_lines).toBe(g.total_lines);
  });

  it('context_check and compact', async () => {
    const small = await fx.call('memory_reme_context_check', { group_id: gid, messages: [{ role: 'user', content: 'hi' }] });
    expect(small).toMatchObject({ needs_compaction: false, threshold: 92_000, token_count: 1 });
    const long = Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'w'.repeat(2000) }));
    const big = await fx.call('memory_reme_context_check', { group_id: gid, messages: long, context_window_tokens: 2048, reserve_tokens: 0, keep_recent_tokens: 600 });
    expect(big).toMatchObject({ needs_compaction: true, token_count: 3000, threshold: 2048, cut_index: 4, is_split_turn: false });
    expect(await fx.call('memory_reme_compact', { group_id: gid, messages_to_summarize: [{ role: 'user', content: 'we chose sqlite' }] })).toEqual({ summary: 'History summary:\n- USER: we chose sqlite' });
    expect(await fx.call('memory_reme_compact', { group_id: gid, messages_to_summarize: [{ role: 'user', content: 'x' }], return_prompt: true })).toMatchObject({ prompt: { history_user: 'USER: x' } });
  });

  it('daily_flush writes one entry per summary and day', async () => {
    const messages = [{ role: 'user', content: 'remember: the release train leaves on thursdays' }];
    const r = await fx.call('memory_reme_daily_flush', { group_id: gid, messages, date: '2026-11-28' });
    expect(r).toMatchObject({ status: 'written', target_file: join(root, 'daily', '2026-11-28__Memory_Team.md') });
    expect(await fx.call('memory_reme_daily_flush', { group_id: gid, messages, date: '2026-11-28' })).toMatchObject({ status: 'silent', reason: 'persistence_idempotency_key' });
    expect((await fx.call('memory_reme_search', { group_id: gid, query: 'release train thursdays' })).hits[0]!.path).toBe(join(root, 'daily', '2026-11-28__Memory_Team.md'));
  });
});

describe('memory_reme_* errors change nothing', () => {
  it('unknown group and missing group id', async () => {
    for (const op of ['memory_reme_layout_get', 'memory_reme_index_sync', 'memory_reme_search', 'memory_reme_get', 'memory_reme_context_check', 'memory_reme_compact', 'memory_reme_daily_flush', 'memory_reme_write']) {
      const args = { query: 'x', path: 'MEMORY.md', messages: [], messages_to_summarize: [], target: 'memory', content: 'x' };
      expect(await fx.codeOf(op, { ...args, group_id: 'g_000000000000' })).toBe('group_not_found');
      expect(await fx.codeOf(op, args)).toBe('missing_group_id');
    }
    expect(existsSync(join(fx.home, 'groups', 'g_000000000000'))).toBe(false);
  });

  it('invalid_request for arguments out of the spec bounds', async () => {
    expect(await refused('memory_reme_index_sync', { mode: 'full' })).toMatchObject({ code: 'invalid_request', details: { field: 'mode' } });
    expect(await refused('memory_reme_search', { query: 'x', max_results: 51 })).toMatchObject({ code: 'invalid_request', details: { field: 'max_results' } });
    expect(await refused('memory_reme_search', { query: 'x', min_score: 1.5 })).toMatchObject({ code: 'invalid_request', details: { field: 'min_score' } });
    expect(await refused('memory_reme_search', { query: 'x', candidate_multiplier: 21 })).toMatchObject({ code: 'invalid_request', details: { field: 'candidate_multiplier' } });
    expect(await refused('memory_reme_search', { query: '   ' })).toMatchObject({ code: 'invalid_request', details: { field: 'query' } });
    expect(await refused('memory_reme_get', { path: 'MEMORY.md', limit: 5001 })).toMatchObject({ code: 'invalid_request', details: { field: 'limit' } });
    expect(await refused('memory_reme_get', { path: 'MEMORY.md', offset: 0 })).toMatchObject({ code: 'invalid_request', details: { field: 'offset' } });
    expect(await refused('memory_reme_context_check', { messages: [], context_window_tokens: 100 })).toMatchObject({ code: 'invalid_request', details: { field: 'context_window_tokens' } });
    expect(await refused('memory_reme_context_check', { messages: [{ role: 'user' }] })).toMatchObject({ code: 'invalid_request', details: { field: 'messages.0.content' } });
    expect(await refused('memory_reme_compact', { messages_to_summarize: 'x' })).toMatchObject({ code: 'invalid_request', details: { field: 'messages_to_summarize' } });
    expect(await refused('memory_reme_daily_flush', { messages: [{ role: 'user', content: 'a fact' }], signal_pack_token_budget: 10 })).toMatchObject({ code: 'invalid_request', details: { field: 'signal_pack_token_budget' } });
    expect(await refused('memory_reme_daily_flush', { messages: [{ role: 'user', content: 'a fact' }], date: '2026-13-01' })).toMatchObject({ code: 'invalid_request', details: { field: 'date' } });
    expect(await refused('memory_reme_write', { target: 'daily', content: 'a fact' })).toMatchObject({ code: 'invalid_request', details: { field: 'date' } });
    expect(await refused('memory_reme_write', { target: 'daily', date: '2026-02-30', content: 'a fact' })).toMatchObject({ code: 'invalid_request', details: { field: 'date' } });
    expect(await refused('memory_reme_write', { target: 'notes', content: 'a fact' })).toMatchObject({ code: 'invalid_request', details: { field: 'target' } });
    expect(await refused('memory_reme_write', { target: 'memory', content: '  ' })).toMatchObject({ code: 'invalid_request', details: { field: 'content' } });
  });

  it('path codes: outside the root, through a link, missing file', async () => {
    writeFileSync(join(fx.home, 'groups', gid, 'outside.md'), 'secret');
    expect(await refused('memory_reme_get', { path: '../outside.md' })).toMatchObject({ code: 'memory_path_outside_root' });
    expect(await refused('memory_reme_get', { path: '/etc/passwd' })).toMatchObject({ code: 'memory_path_outside_root' });
    symlinkSync(join(fx.home, 'groups', gid, 'outside.md'), join(root, 'daily', 'link.md'));
    expect(await refused('memory_reme_get', { path: 'daily/link.md' })).toMatchObject({ code: 'memory_path_symlink' });
    expect(await refused('memory_reme_get', { path: 'daily/1999-01-01__none.md' })).toMatchObject({ code: 'memory_file_not_found' });
    // A link where a daily file would be written is refused too, and the target is untouched.
    symlinkSync(join(fx.home, 'groups', gid, 'outside.md'), join(root, 'daily', '2026-11-01__Memory_Team.md'));
    expect(await refused('memory_reme_write', { target: 'daily', date: '2026-11-01', content: 'a fact' })).toMatchObject({ code: 'memory_path_symlink' });
    expect(readFileSync(join(fx.home, 'groups', gid, 'outside.md'), 'utf8')).toBe('secret');
  });

  it('io_error for a memory file that is not UTF-8, which is kept as it is', async () => {
    const path = join(root, 'daily', '2026-10-01__Memory_Team.md');
    mkdirSync(join(root, 'daily'), { recursive: true });
    writeFileSync(path, Buffer.from([0xff, 0xfe, 0xfd]));
    expect(await refused('memory_reme_write', { target: 'daily', date: '2026-10-01', content: 'a fact' })).toMatchObject({ code: 'io_error' });
    expect(readFileSync(path)).toEqual(Buffer.from([0xff, 0xfe, 0xfd]));
  });
});
