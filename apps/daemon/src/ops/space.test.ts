import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;
let repo: string;
const AUTH = JSON.stringify({ cookies: [{ name: 'SID', value: 'very-secret-sid-cookie', domain: '.google.com' }] });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** What a refused space request must leave alone: the ledger, the bindings, the jobs of both lanes, the sources. */
async function spaceSnapshot() {
  const status = await fx.call('group_space_status', { group_id: gid });
  const jobs = await Promise.all((['work', 'memory'] as const).map((lane) => fx.call('group_space_jobs', { group_id: gid, lane })));
  return { ledger: fx.ledgerLines(gid).length, bindings: status.bindings, jobs: jobs.map((j) => j.jobs), queue: status.queue_summary };
}

async function refused(op: string, args: Record<string, unknown>, withGroup = true) {
  const before = await spaceSnapshot();
  const err = await fx.errorOf(op, withGroup ? { group_id: gid, ...args } : args);
  expect(await spaceSnapshot()).toEqual(before);
  return err.code;
}

beforeAll(async () => {
  fx = await startDaemonFixture();
  repo = fx.projectDir('space-repo');
  mkdirSync(join(repo, 'space', 'notes'), { recursive: true });
  writeFileSync(join(repo, 'space', 'notes', 'design.md'), '# Design\n\nThe daemon speaks NDJSON over a unix socket.\n');
  writeFileSync(join(repo, 'space', 'plan.txt'), 'The Space tab shows bindings, sources and jobs.\n');
  writeFileSync(join(fx.home, 'outside.md'), 'outside the space folder');
  symlinkSync(join(fx.home, 'outside.md'), join(repo, 'space', 'escape.md'));
  gid = (await fx.client.call('attach', { path: repo })).group_id;
  const daily = join(fx.home, 'groups', gid, 'state', 'memory', 'daily');
  mkdirSync(daily, { recursive: true });
  writeFileSync(join(daily, `${day(-2)}__team.md`), '---\n---\n# Daily\n\nWe named the release train falcon.\n');
  writeFileSync(join(daily, `${day(0)}__team.md`), '# Today\n\nfalcon notes still being written\n');
  writeFileSync(join(fx.home, 'groups', gid, 'state', 'memory', 'MEMORY.md'), 'falcon long-term memory stays local\n');
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

describe('group_space_* over the socket: an unbound group', () => {
  it('status reports notebooklm disabled, both lanes unbound, empty queues, the repo space/ root', async () => {
    const st = await fx.call('group_space_status', { group_id: gid });
    expect(st.provider).toMatchObject({ provider: 'notebooklm', enabled: false, mode: 'disabled', write_ready: false, auth_configured: false });
    expect(st.bindings.work).toMatchObject({ provider: 'notebooklm', lane: 'work', status: 'unbound', remote_space_id: '' });
    expect(st.bindings.memory).toMatchObject({ provider: 'notebooklm', lane: 'memory', status: 'unbound' });
    expect(st.queue_summary).toEqual({ work: { pending: 0, running: 0, failed: 0 }, memory: { pending: 0, running: 0, failed: 0 } });
    expect(st.sync).toMatchObject({ available: false, reason: 'work_lane_unbound', space_root: join(repo, 'space') });
    expect(st.memory_sync).toMatchObject({ lane: 'memory', eligible_daily_files: 1, synced_daily_files: 0 });
  });

  it('spaces, capabilities, query (degraded, empty), jobs and sync status answer; lane ops refuse with spec codes', async () => {
    expect(await fx.call('group_space_spaces', { group_id: gid })).toMatchObject({ provider: 'notebooklm', spaces: [] });
    const caps = await fx.call('group_space_capabilities', { group_id: gid });
    expect(caps).toMatchObject({ local_scope_attached: true, space_root: join(repo, 'space') });
    expect(caps.unavailable_capabilities).toContain('query');
    const q = await fx.call('group_space_query', { group_id: gid, lane: 'work', query: 'socket' });
    expect(q).toMatchObject({ degraded: true, answer: '', reference_count: 0, binding_status: 'unbound', provider_mode: 'disabled' });
    expect(await fx.call('group_space_jobs', { group_id: gid, lane: 'work' })).toMatchObject({ jobs: [], queue_summary: { pending: 0 } });
    expect((await fx.call('group_space_sync', { group_id: gid, lane: 'work' })).sync).toMatchObject({ available: false });
    expect(await refused('group_space_ingest', { lane: 'work', payload: { content: 'x' } })).toBe('space_provider_not_configured');
    expect(await refused('group_space_sources', { lane: 'work' })).toBe('space_provider_not_configured');
    expect(await refused('group_space_artifact', { lane: 'work' })).toBe('space_provider_not_configured');
    expect(await refused('group_space_bind', { lane: 'work' })).toBe('space_provider_not_configured');
  });

  it('every group op refuses a missing or unknown group, a bad lane and an unknown provider', async () => {
    for (const op of ['group_space_status', 'group_space_spaces', 'group_space_capabilities', 'group_space_bind', 'group_space_ingest', 'group_space_query', 'group_space_sources', 'group_space_artifact', 'group_space_jobs', 'group_space_sync']) {
      const lane = { lane: 'work', query: 'q' };
      expect(await refused(op, lane, false), op).toBe('missing_group_id');
      expect(await refused(op, { ...lane, group_id: 'g_missing00000' }, false), op).toBe('group_not_found');
      expect(await refused(op, { ...lane, provider: 'dropbox' }), op).toBe('invalid_request');
    }
    for (const op of ['group_space_bind', 'group_space_ingest', 'group_space_query', 'group_space_sources', 'group_space_artifact', 'group_space_jobs', 'group_space_sync']) {
      expect(await refused(op, { lane: 'deep', query: 'q' }), op).toBe('invalid_request');
      expect(await refused(op, { query: 'q' }), op).toBe('invalid_request');
    }
  }, 90_000);
});

describe('group_space_* over the socket: bound to the local provider', () => {
  let workSpace = '';
  let designId = '';

  it('bind work to local creates a space; ingest text and files, dedupe by key; query answers with citations', async () => {
    const b = await fx.call('group_space_bind', { group_id: gid, lane: 'work', provider: 'local', by: 'user' });
    expect(b.bindings.work).toMatchObject({ provider: 'local', status: 'bound', bound_by: 'user' });
    workSpace = b.bindings.work.remote_space_id as string;
    expect(b.provider).toMatchObject({ provider: 'local', mode: 'active' });
    expect((await fx.call('group_space_spaces', { group_id: gid })).spaces.map((s) => s.remote_space_id)).toContain(workSpace);
    const t = await fx.call('group_space_ingest', { group_id: gid, lane: 'work', kind: 'resource_ingest', idempotency_key: 'k-text', payload: { source_type: 'text', title: 'Storage', content: 'The ledger is JSONL; the index is SQLite FTS5.' } });
    expect(t).toMatchObject({ accepted: false, completed: true, deduped: false, provider_mode: 'active', job: { state: 'succeeded' } });
    const again = await fx.call('group_space_ingest', { group_id: gid, lane: 'work', idempotency_key: 'k-text', payload: { content: 'ignored' } });
    expect(again).toMatchObject({ deduped: true, job_id: t.job_id, source_id: t.source_id });
    const f = await fx.call('group_space_ingest', { group_id: gid, lane: 'work', payload: { source_type: 'file', path: 'notes/design.md' } });
    designId = f.source_id!;
    const folder = await fx.call('group_space_ingest', { group_id: gid, lane: 'work', payload: { source_type: 'space_folder' } });
    expect(folder.source_ids).toHaveLength(2);
    const q = await fx.call('group_space_query', { group_id: gid, lane: 'work', query: 'what does the daemon speak over the socket?' });
    expect(q).toMatchObject({ degraded: false, binding_status: 'bound', error: null });
    expect(q.answer).toMatch(/NDJSON.*\[1\]/);
    expect(q.references[0]).toMatchObject({ citation: 1, origin: join(repo, 'space', 'notes', 'design.md') });
    const only = await fx.call('group_space_query', { group_id: gid, lane: 'work', query: 'ledger sqlite socket', options: { source_ids: [t.source_id!] } });
    expect(only).toMatchObject({ requested_source_ids: [t.source_id], referenced_source_ids: [t.source_id], source_basis_hint: 'requested_sources_only' });
  });

  it('ingest refuses bad requests with spec codes and writes no job', async () => {
    expect(await refused('group_space_ingest', { lane: 'memory', payload: { content: 'x' } })).toBe('invalid_request');
    expect(await refused('group_space_ingest', { lane: 'work', kind: 'context_sync', payload: {} })).toBe('capability_unavailable');
    expect(await refused('group_space_ingest', { lane: 'work', payload: { source_type: 'url', url: 'https://example.com' } })).toBe('capability_unavailable');
    expect(await refused('group_space_ingest', { lane: 'work', payload: { source_type: 'text', content: '   ' } })).toBe('invalid_request');
    expect(await refused('group_space_ingest', { lane: 'work', payload: { source_type: 'text', content: 'x'.repeat(3 * 1024 * 1024) } })).toBe('space_source_too_large');
    expect(await refused('group_space_ingest', { lane: 'work', payload: { source_type: 'file', path: '../../outside.md' } })).toBe('space_path_outside_root');
    expect(await refused('group_space_ingest', { lane: 'work', payload: { source_type: 'file', path: 'escape.md' } })).toBe('space_path_outside_root');
    expect(await refused('group_space_ingest', { lane: 'work', payload: { source_type: 'file', path: 'nope.md' } })).toBe('space_provider_not_found');
    expect(await refused('group_space_ingest', { lane: 'work', payload: 'not an object' })).toBe('invalid_request');
    expect(await refused('group_space_query', { lane: 'work', query: 'x', options: { language: 'en' } })).toBe('invalid_request');
    expect(await refused('group_space_query', { lane: 'work', query: '   ' })).toBe('invalid_request');
  });

  it('sources: list, refresh (re-reads the file), rename, delete; unknown ids and missing fields refused', async () => {
    const list = await fx.call('group_space_sources', { group_id: gid, lane: 'work' });
    expect(list.sources!.length).toBe(4);
    writeFileSync(join(repo, 'space', 'notes', 'design.md'), '# Design\n\nThe daemon now also speaks gRPC.\n');
    const r = await fx.call('group_space_sources', { group_id: gid, lane: 'work', action: 'refresh', source_id: designId });
    expect(r.refresh_result).toMatchObject({ refreshed: true });
    expect((await fx.call('group_space_query', { group_id: gid, lane: 'work', query: 'grpc' })).references[0]).toMatchObject({ source_id: designId });
    expect((await fx.call('group_space_sources', { group_id: gid, lane: 'work', action: 'rename', source_id: designId, new_title: 'Design v2' })).rename_result).toMatchObject({ renamed: true });
    expect((await fx.call('group_space_sources', { group_id: gid, lane: 'work', action: 'delete', source_id: designId })).delete_result).toEqual({ deleted: true });
    expect(await refused('group_space_sources', { lane: 'work', action: 'delete', source_id: designId })).toBe('space_provider_not_found');
    expect(await refused('group_space_sources', { lane: 'work', action: 'rename', source_id: 'src_x' })).toBe('invalid_request');
    expect(await refused('group_space_sources', { lane: 'work', action: 'refresh' })).toBe('invalid_request');
    expect(await refused('group_space_sources', { lane: 'work', action: 'purge' })).toBe('invalid_request');
  });

  it('artifact: generate a report, list, download; memory lane, other kinds, save_to_space refused', async () => {
    const g = (await fx.call('group_space_artifact', { group_id: gid, lane: 'work', action: 'generate', kind: 'report', wait: true })) as unknown as { artifact: { artifact_id: string } };
    const list = (await fx.call('group_space_artifact', { group_id: gid, lane: 'work' })) as unknown as { artifacts: unknown[] };
    expect(list.artifacts).toHaveLength(1);
    const d = (await fx.call('group_space_artifact', { group_id: gid, lane: 'work', action: 'download', artifact_id: g.artifact.artifact_id })) as unknown as { content: string; saved_to_space: boolean };
    expect(d.content).toContain('# Space report');
    expect(d.saved_to_space).toBe(false);
    expect(await refused('group_space_artifact', { lane: 'memory' })).toBe('invalid_request');
    expect(await refused('group_space_artifact', { lane: 'work', action: 'generate', kind: 'video' })).toBe('capability_unavailable');
    expect(await refused('group_space_artifact', { lane: 'work', action: 'generate', kind: 'report', save_to_space: true })).toBe('capability_unavailable');
    expect(await refused('group_space_artifact', { lane: 'work', action: 'download' })).toBe('invalid_request');
    expect(await refused('group_space_artifact', { lane: 'work', action: 'download', artifact_id: 'art_missing' })).toBe('space_provider_not_found');
  });

  it('jobs: list with state filter; retry and cancel refuse what the spec forbids', async () => {
    const jobs = await fx.call('group_space_jobs', { group_id: gid, lane: 'work', state: 'succeeded', limit: 2 });
    expect(jobs.jobs).toHaveLength(2);
    const jobId = (jobs.jobs![0] as { job_id: string }).job_id;
    expect(await refused('group_space_jobs', { lane: 'work', action: 'retry', job_id: jobId })).toBe('invalid_request');
    expect(await refused('group_space_jobs', { lane: 'work', action: 'cancel', job_id: jobId })).toBe('invalid_request');
    expect(await refused('group_space_jobs', { lane: 'work', action: 'retry' })).toBe('invalid_request');
    expect(await refused('group_space_jobs', { lane: 'work', action: 'retry', job_id: 'spj_missing' })).toBe('space_job_not_found');
    expect(await refused('group_space_jobs', { lane: 'memory', action: 'retry', job_id: jobId })).toBe('space_job_not_found');
    expect(await refused('group_space_jobs', { lane: 'work', state: 'exploded' })).toBe('invalid_request');
  });

  it('the memory lane syncs finalized daily files only (never MEMORY.md, never today); sync action=run is retired', async () => {
    const b = await fx.call('group_space_bind', { group_id: gid, lane: 'memory', provider: 'local' });
    expect(b.sync_result).toMatchObject({ ran: true, synced_files: 1 });
    const q = await fx.call('group_space_query', { group_id: gid, lane: 'memory', query: 'falcon' });
    expect(q.references.map((r) => (r as { title: string }).title)).toEqual([`${day(-2)}__team.md`]);
    expect(q.answer).not.toContain('long-term');
    expect(q).toMatchObject({ memory_pending_files: 0 });
    const sources = await fx.call('group_space_sources', { group_id: gid, lane: 'memory' });
    expect(JSON.stringify(sources.sources)).not.toContain('MEMORY.md');
    expect((await fx.call('group_space_sync', { group_id: gid, lane: 'memory' })).sync).toMatchObject({ synced_daily_files: 1, eligible_daily_files: 1 });
    expect(await refused('group_space_sync', { lane: 'memory', action: 'run' })).toBe('capability_unavailable');
  });

  it('unbind returns the lane to notebooklm unbound; the jobs stay listed', async () => {
    const u = await fx.call('group_space_bind', { group_id: gid, lane: 'memory', action: 'unbind' });
    expect(u.bindings.memory).toMatchObject({ provider: 'notebooklm', status: 'unbound' });
    expect((await fx.call('group_space_jobs', { group_id: gid, lane: 'memory' })).jobs!.length).toBe(1);
  });
});

describe('NotebookLM control plane over the socket', () => {
  it('credential status/update/health/auth: validated, stored 0600, never returned, user-only, honest states', async () => {
    expect((await fx.call('group_space_provider_credential_status', {})).credential).toMatchObject({ configured: false, source: 'none', masked_value: null });
    expect(await refused('group_space_provider_credential_update', { auth_json: 'not json' }, false)).toBe('space_provider_auth_invalid');
    expect(await refused('group_space_provider_credential_update', {}, false)).toBe('invalid_request');
    expect(await refused('group_space_provider_credential_update', { auth_json: AUTH, by: 'peer1' }, false)).toBe('permission_denied');
    expect(await refused('group_space_provider_credential_status', { provider: 'local' }, false)).toBe('invalid_request');
    expect(await refused('group_space_provider_health_check', { by: 'foreman' }, false)).toBe('permission_denied');
    const h0 = await fx.call('group_space_provider_health_check', {});
    expect(h0).toMatchObject({ healthy: false, error: { code: 'space_provider_not_configured' } });
    const u = await fx.call('group_space_provider_credential_update', { auth_json: AUTH });
    expect(u.credential).toMatchObject({ configured: true, source: 'store', masked_value: '******' });
    expect(JSON.stringify(u)).not.toContain('very-secret');
    const file = join(fx.home, 'state', 'secrets', 'space_providers', 'notebooklm.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('very-secret');
    const h = await fx.call('group_space_provider_health_check', {});
    expect(h).toMatchObject({ healthy: false, error: { code: 'capability_unavailable' }, provider_state: { mode: 'degraded', write_ready: false } });
    const a = await fx.call('group_space_provider_auth', { action: 'status' });
    expect(a.auth.state).toBe('idle');
    expect(JSON.stringify(a)).not.toContain('very-secret');
    for (const action of ['start', 'cancel', 'disconnect']) expect(await refused('group_space_provider_auth', { action }, false)).toBe('capability_unavailable');
    expect(fx.publicText()).not.toContain('very-secret');
  });

  it('a degraded provider blocks none of the core flows: send, context, actors', async () => {
    const { group_id } = await fx.client.call('group_create', { title: 'core-while-degraded' });
    expect((await fx.call('group_space_status', { group_id })).provider).toMatchObject({ provider: 'notebooklm', mode: 'degraded' });
    expect(await fx.call('group_space_query', { group_id, lane: 'work', query: 'anything' })).toMatchObject({ degraded: true, answer: '', provider_mode: 'degraded' });
    await fx.call('actor_add', { group_id, actor_id: 'peer1', runtime: 'custom', command: ['cat'] });
    expect((await fx.call('actor_list', { group_id })).actors.map((x) => x.id)).toContain('peer1');
    const sent = await fx.call('send', { group_id, text: 'hello while the space is degraded', to: ['peer1'], message_mode: 'send' });
    expect(sent.event.kind).toBe('chat.message');
    await fx.call('context_sync', { group_id, ops: [{ op: 'task.create', title: 'keep working' }] });
    expect(JSON.stringify(await fx.call('context_get', { group_id }))).toContain('keep working');
    await fx.call('group_space_provider_credential_update', { clear: true });
    expect((await fx.call('group_space_status', { group_id })).provider.mode).toBe('disabled');
  });

  it('ping leaves both provider-auth browser attach upgrades unadvertised', async () => {
    const ping = await fx.call('ping', {});
    expect(ping.capabilities).toMatchObject({ space_provider_auth_browser_attach: false, space_provider_auth_browser_vnc_attach: false });
  });
});
