import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spaceError } from './errors.js';
import { GroupSpace } from './group-space.js';
import { LocalSpaceProvider } from './local/local-provider.js';
import { NotebookLmControlPlane } from './notebooklm/control-plane.js';
import type { SpaceProvider } from './provider.js';

const open: GroupSpace[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function make(opts: { provider?: (file: string) => SpaceProvider; repo?: boolean } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'group-space-'));
  dirs.push(home);
  const stateDir = join(home, 'space');
  const dailyDir = join(home, 'memory', 'daily');
  const repo = join(home, 'repo');
  mkdirSync(join(repo, 'space'), { recursive: true });
  mkdirSync(dailyDir, { recursive: true });
  const file = join(stateDir, 'local', 'provider.sqlite3');
  const space = new GroupSpace({
    groupId: 'g_test',
    stateDir,
    dailyDir,
    spaceRoot: () => (opts.repo === false ? undefined : join(repo, 'space')),
    notebooklm: new NotebookLmControlPlane(home, {}),
    localProvider: opts.provider?.(file),
    backoff: { baseMs: 5, maxMs: 20 },
    today: () => '2026-12-02',
  });
  open.push(space);
  return { space, home, stateDir, dailyDir, spaceRoot: join(repo, 'space') };
}

async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof p === 'function' ? p() : p);
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('lanes and bindings', () => {
  it('an unbound group reports notebooklm disabled on both lanes, and query answers degraded and empty', async () => {
    const { space } = make();
    const st = space.status();
    expect(st.provider).toMatchObject({ provider: 'notebooklm', enabled: false, mode: 'disabled', auth_configured: false, write_ready: false });
    expect(st.bindings.work).toEqual({ group_id: 'g_test', provider: 'notebooklm', lane: 'work', remote_space_id: '', bound_by: '', bound_at: '', status: 'unbound' });
    expect(st.queue_summary).toEqual({ work: { pending: 0, running: 0, failed: 0 }, memory: { pending: 0, running: 0, failed: 0 } });
    const q = await space.query({ lane: 'work', query: 'anything' });
    expect(q).toMatchObject({ degraded: true, answer: '', reference_count: 0, binding_status: 'unbound', provider_mode: 'disabled' });
    expect(await codeOf(space.ingest({ lane: 'work', payload: { content: 'x' } }))).toBe('space_provider_not_configured');
    expect(space.jobs.list('work')).toEqual([]);
  });

  it('binding notebooklm without a credential is space_provider_not_configured and changes nothing', async () => {
    const { space } = make();
    expect(await codeOf(space.bind({ lane: 'work' }))).toBe('space_provider_not_configured');
    expect(await codeOf(space.bind({ lane: 'work', provider: 'bogus' }))).toBe('invalid_request');
    expect(space.bindings().work.status).toBe('unbound');
  });

  it('ingest and artifact are work-lane only; lane=memory is refused before any job', async () => {
    const { space } = make();
    await space.bind({ lane: 'memory', provider: 'local' });
    expect(await codeOf(space.ingest({ lane: 'memory', payload: { content: 'x' } }))).toBe('invalid_request');
    expect(await codeOf(space.artifact({ lane: 'memory' }))).toBe('invalid_request');
    expect(space.jobs.list('memory')).toEqual([]);
  });

  it('bind local, ingest text with a cited query, dedupe by idempotency key, then unbind', async () => {
    const { space } = make();
    const b = await space.bind({ lane: 'work', provider: 'local', by: 'lead' });
    expect(b.bindings.work).toMatchObject({ provider: 'local', status: 'bound', bound_by: 'lead' });
    expect(b.provider).toMatchObject({ provider: 'local', mode: 'active', write_ready: true });
    const r = await space.ingest({ lane: 'work', idempotency_key: 'k1', payload: { title: 'DB', content: 'We store the ledger in JSONL and index it with SQLite.' } });
    expect(r).toMatchObject({ accepted: false, completed: true, deduped: false, provider_mode: 'active', job: { state: 'succeeded' } });
    const again = await space.ingest({ lane: 'work', idempotency_key: 'k1', payload: { title: 'DB', content: 'other text' } });
    expect(again).toMatchObject({ deduped: true, job_id: r.job_id, source_id: r.source_id });
    const q = await space.query({ lane: 'work', query: 'how is the ledger indexed?' });
    expect(q).toMatchObject({ degraded: false, reference_count: 1, binding_status: 'bound', source_basis_hint: 'referenced_sources_present', error: null });
    expect(q.answer).toMatch(/SQLite.*\[1\]/);
    expect(await codeOf(space.query({ lane: 'work', query: 'x', options: { language: 'en' } as never }))).toBe('invalid_request');
    await space.bind({ lane: 'work', action: 'unbind' });
    expect(space.bindings().work.status).toBe('unbound');
  });
});

describe('the job queue', () => {
  it('a transient provider failure is retried with backoff and succeeds within the attempt budget', async () => {
    let calls = 0;
    const { space } = make({
      provider: (file) => {
        const real = new LocalSpaceProvider(file);
        return Object.assign(Object.create(real) as LocalSpaceProvider, {
          addSource: async (...a: Parameters<LocalSpaceProvider['addSource']>) => {
            if (++calls < 3) throw spaceError('space_provider_rate_limited', 'slow down');
            return real.addSource(...a);
          },
        });
      },
    });
    await space.bind({ lane: 'work', provider: 'local' });
    const r = await space.ingest({ lane: 'work', payload: { content: 'retry me' } });
    expect(r.job).toMatchObject({ state: 'succeeded', attempt_count: 3 });
    expect(calls).toBe(3);
  });

  it('a non-transient failure fails the job; retry after a binding change is binding_changed and leaves it; retry on the same binding succeeds', async () => {
    let broken = true;
    const { space } = make({
      provider: (file) => {
        const real = new LocalSpaceProvider(file);
        return Object.assign(Object.create(real) as LocalSpaceProvider, {
          addSource: async (...a: Parameters<LocalSpaceProvider['addSource']>) => {
            if (broken) throw spaceError('space_provider_upstream_error', 'boom');
            return real.addSource(...a);
          },
        });
      },
    });
    const first = await space.bind({ lane: 'work', provider: 'local' });
    const r = await space.ingest({ lane: 'work', idempotency_key: 'x', payload: { content: 'fails first' } });
    expect(r.job).toMatchObject({ state: 'failed', last_error: { code: 'space_provider_upstream_error' } });
    expect(space.queueSummary().work.failed).toBe(1);
    expect(await codeOf(space.jobsOp({ lane: 'work', action: 'retry', job_id: 'spj_nope' }))).toBe('space_job_not_found');
    await space.bind({ lane: 'work', provider: 'local' }); // a new space
    broken = false;
    expect(await codeOf(space.jobsOp({ lane: 'work', action: 'retry', job_id: r.job_id }))).toBe('binding_changed');
    expect(space.jobs.get(r.job_id)!.state).toBe('failed');
    await space.bind({ lane: 'work', provider: 'local', remote_space_id: first.bindings.work.remote_space_id as string });
    const retried = await space.jobsOp({ lane: 'work', action: 'retry', job_id: r.job_id });
    expect(retried).toMatchObject({ job: { state: 'succeeded' } });
    expect(await codeOf(space.jobsOp({ lane: 'work', action: 'retry', job_id: r.job_id }))).toBe('invalid_request');
  });

  it('an unresolved outcome leaves the job running and retry refuses it; cancel settles it', async () => {
    const { space } = make({
      provider: (file) => {
        const real = new LocalSpaceProvider(file);
        return Object.assign(Object.create(real) as LocalSpaceProvider, {
          addSource: async () => {
            throw spaceError('space_provider_outcome_unresolved', 'maybe');
          },
        });
      },
    });
    await space.bind({ lane: 'work', provider: 'local' });
    const r = await space.ingest({ lane: 'work', payload: { content: 'uncertain' } });
    expect(r).toMatchObject({ accepted: true, completed: false, job: { state: 'running' } });
    expect(await codeOf(space.jobsOp({ lane: 'work', action: 'retry', job_id: r.job_id }))).toBe('invalid_request');
    expect(await space.jobsOp({ lane: 'work', action: 'cancel', job_id: r.job_id })).toMatchObject({ job: { state: 'canceled' } });
  });
});

describe('files: the repo space/ folder and the memory lane', () => {
  it('ingests a file and the whole space folder; refuses paths that leave it, links, bad types', async () => {
    const { space, spaceRoot, home } = make();
    await space.bind({ lane: 'work', provider: 'local' });
    mkdirSync(join(spaceRoot, 'notes'));
    writeFileSync(join(spaceRoot, 'notes', 'design.md'), '# Design\n\nThe daemon speaks NDJSON over a unix socket.\n');
    writeFileSync(join(spaceRoot, 'todo.txt'), 'Write the Space tab.\n');
    writeFileSync(join(spaceRoot, 'image.png'), 'png');
    writeFileSync(join(home, 'secret.md'), 'secret');
    symlinkSync(join(home, 'secret.md'), join(spaceRoot, 'link.md'));
    const f = await space.ingest({ lane: 'work', payload: { source_type: 'file', path: 'notes/design.md' } });
    expect(f.job.state).toBe('succeeded');
    for (const [path, code] of [
      ['../secret.md', 'space_path_outside_root'],
      ['link.md', 'space_path_outside_root'],
      ['image.png', 'space_source_unsupported'],
      ['missing.md', 'space_provider_not_found'],
    ] as const) {
      expect(await codeOf(space.ingest({ lane: 'work', payload: { source_type: 'file', path } })), path).toBe(code);
    }
    expect(await codeOf(space.ingest({ lane: 'work', payload: { source_type: 'url', url: 'https://x' } }))).toBe('capability_unavailable');
    expect(space.jobs.list('work')).toHaveLength(1);
    const folder = await space.ingest({ lane: 'work', payload: { source_type: 'space_folder' } });
    expect(folder.source_ids).toHaveLength(2); // design.md, todo.txt; not the link, not the png
    expect(space.status().sync).toMatchObject({ available: true, converged: true, space_root: spaceRoot });
    const q = await space.query({ lane: 'work', query: 'unix socket' });
    expect(q.references[0]).toMatchObject({ origin: join(spaceRoot, 'notes', 'design.md') });
  });

  it('the memory lane syncs finalized daily files only: never MEMORY.md, never today, never empty ones', async () => {
    const { space, dailyDir } = make();
    writeFileSync(join(dailyDir, '2026-11-30__team.md'), '---\ndate: 2026-11-30\n---\n# Daily\n\nWe picked the phoenix codename.\n');
    writeFileSync(join(dailyDir, '2026-12-01__team.md'), '---\ndate: 2026-12-01\n---\n# Daily\n');
    writeFileSync(join(dailyDir, '2026-12-02__team.md'), 'Today: phoenix draft.\n');
    writeFileSync(join(dailyDir, 'MEMORY.md'), 'phoenix secret long-term memory\n');
    expect(space.memorySync()).toMatchObject({ eligible_daily_files: 1, synced_daily_files: 0, empty_daily_skipped: 1, blocked_files: 1 });
    const b = await space.bind({ lane: 'memory', provider: 'local' });
    expect(b.sync_result).toMatchObject({ ran: true, synced_files: 1 });
    const q = await space.query({ lane: 'memory', query: 'phoenix' });
    expect(q.references.map((r) => r.title)).toEqual(['2026-11-30__team.md']);
    expect(space.memorySync()).toMatchObject({ synced_daily_files: 1, pending_files: 0, last_synced_daily_date: '2026-11-30' });
    expect(await codeOf(() => space.sync({ lane: 'memory', action: 'run' }))).toBe('capability_unavailable');
    expect(space.sync({ lane: 'memory' }).sync).toMatchObject({ lane: 'memory', synced_daily_files: 1 });
  });
});
