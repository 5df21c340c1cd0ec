import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEBUG_MEMORY_GC_ENV, DEVELOPER_MODE_ENV } from './debug.js';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

describe('debug_snapshot', () => {
  let d: DaemonFixture;
  const saved = process.env[DEVELOPER_MODE_ENV];
  beforeAll(async () => {
    d = await DaemonFixture.start({ env: { CCCC_EARLY_EXIT_WINDOW_MS: '200', CCCC_STOP_GRACE_MS: '500' } });
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[DEVELOPER_MODE_ENV];
    else process.env[DEVELOPER_MODE_ENV] = saved;
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('answers developer_mode_required when developer mode is off', async () => {
    delete process.env[DEVELOPER_MODE_ENV];
    const error = await d.errorOf('debug_snapshot', {});
    expect(error.code).toBe('developer_mode_required');
    expect(error.details).toMatchObject({ env: DEVELOPER_MODE_ENV });
  });

  it('reports memory, after collecting all garbage when CCCC_DEBUG_MEMORY_GC is set', async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    process.env[DEBUG_MEMORY_GC_ENV] = '1';
    try {
      const snap = await d.call('debug_snapshot', {});
      expect(snap.observability['memory']).toMatchObject({ rss: expect.any(Number), heap_total: expect.any(Number), after_gc: true });
    } finally {
      delete process.env[DEBUG_MEMORY_GC_ENV];
    }
  });

  it('global snapshot is user only; group snapshot for user or foreman', async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    const gid = await groupWithTeam(d);
    const global = await d.call('debug_snapshot', {});
    expect(global).toMatchObject({ developer_mode: true, daemon: { pid: process.pid } });
    expect(global.observability['memory']).toMatchObject({ rss: expect.any(Number), heap_used: expect.any(Number), external: expect.any(Number), after_gc: false });
    expect(global.group).toBeUndefined();
    expect(await d.codeOf('debug_snapshot', { by: 'lead' })).toBe('permission_denied');

    const snap = await d.call('debug_snapshot', { group_id: gid, by: 'lead' });
    expect(snap.group).toMatchObject({ group_id: gid, state: 'active', title: 'team' });
    expect(snap.actors?.map((a) => [a.id, a.role, a.enabled, a.running, a.unread_count])).toEqual([
      ['lead', 'foreman', true, false, 0],
      ['p1', 'peer', true, false, 0],
    ]);
    expect(await d.codeOf('debug_snapshot', { group_id: gid, by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('debug_snapshot', { group_id: 'g_000000000000' })).toBe('group_not_found');
  });

  it("reports each actor's live running state, pid and runner, not a constant", async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    const gid = await groupWithTeam(d, 'live');
    await d.call('attach', { path: d.projectDir('debug-live'), group_id: gid });
    await d.call('group_start', { group_id: gid });
    await d.call('actor_stop', { group_id: gid, actor_id: 'p1' });
    const snap = await d.call('debug_snapshot', { group_id: gid });
    const lead = snap.actors!.find((a) => a.id === 'lead')!;
    expect(lead).toMatchObject({ running: true, runner_effective: 'pty' });
    expect(lead.pid).toBe(d.services.runtimes.get(gid, 'lead')!.session!.pid);
    expect(snap.actors!.find((a) => a.id === 'p1')).toMatchObject({ running: false, pid: null });
    expect(snap.observability).toMatchObject({ runtimes: 'pty' });
    expect(snap.observability['running_actors']).toBeGreaterThanOrEqual(1);
  });

  // Issue 35: group commit observable on a running daemon (how many appends shared each
  // fdatasync, and where a batch's cycle went), without opening a ledger to report it.
  it("reports the group's group commit while its ledger is open, and opens none to do so", async () => {
    process.env[DEVELOPER_MODE_ENV] = '1';
    const gid = await groupWithTeam(d, 'commits');
    const before = (await d.call('debug_snapshot', { group_id: gid })).observability['ledger_commits'] as Record<string, number>;
    expect(before).toMatchObject({ batches: expect.any(Number), appends: expect.any(Number), sync_ms: expect.any(Number), serial_ms: expect.any(Number), inline_syncs: expect.any(Number) });
    await Promise.all(Array.from({ length: 12 }, (_, i) => d.call('send', { group_id: gid, text: `m${i}`, to: ['p1'], message_mode: 'mail' })));
    const after = (await d.call('debug_snapshot', { group_id: gid })).observability['ledger_commits'] as Record<string, number>;
    expect(after['appends']! - before['appends']!).toBe(12);
    expect(after['batches']! - before['batches']!).toBeGreaterThanOrEqual(1);
    expect(after['batches']! - before['batches']!).toBeLessThanOrEqual(12);
    expect(after['sync_ms']!).toBeGreaterThan(before['sync_ms']!);

    await d.services.ledgers.release(gid);
    const closed = await d.call('debug_snapshot', { group_id: gid });
    expect(closed.observability['ledger_commits']).toBeUndefined(); // the unread counts reopen it afterwards
  });
});

