import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { recordPath, writeOwnershipRecord } from './ownership-records.js';
import { reapOrphans } from './orphan-reaper.js';
import { processStartTime } from './proc-identity.js';
import { events, fakeAgentGroup, isAlive, runtimeFixture, waitFor } from '../../test-support/daemon-fixture.js';

describe('actor runtime lifecycle (real PTYs, fake agent)', () => {
  let fx: Awaited<ReturnType<typeof runtimeFixture>> | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('start / restart / stop: processes, ownership records and ledger events', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx);
    const { started } = await fx.client.call('group_start', { group_id: gid });
    expect(started).toEqual(['peer1']);
    const first = fx.services.runtimes.get(gid, 'peer1')!.session!;
    expect(first.cols).toBe(120);
    expect(first.rows).toBe(40);
    const record = JSON.parse(readFileSync(recordPath(fx.services.layout, gid, 'peer1'), 'utf8'));
    expect(record).toMatchObject({ v: 1, kind: 'pty', group_id: gid, actor_id: 'peer1', pid: first.pid, pid_start_time: processStartTime(first.pid) });
    const list = await fx.client.call('actor_list', { group_id: gid });
    expect(list.actors.find((a) => a.id === 'peer1')?.running).toBe(true);

    await fx.client.call('actor_restart', { group_id: gid, actor_id: 'peer1' });
    const second = fx.services.runtimes.get(gid, 'peer1')!.session!;
    expect(second.pid).not.toBe(first.pid);
    expect(isAlive(first.pid)).toBe(false);

    const ns = await fx.client.call('actor_new_session', { group_id: gid, actor_id: 'peer1' });
    expect(ns.new_session).toBe(true);
    const third = fx.services.runtimes.get(gid, 'peer1')!.session!;
    expect(third.pid).not.toBe(second.pid);
    expect(isAlive(second.pid)).toBe(false);

    await fx.client.call('actor_stop', { group_id: gid, actor_id: 'peer1' });
    expect(isAlive(third.pid)).toBe(false);
    expect(existsSync(recordPath(fx.services.layout, gid, 'peer1'))).toBe(false);
    expect(fx.services.runtimes.get(gid, 'peer1')).toBeUndefined();
    const kinds = events(fx, gid).map((e) => e.kind);
    expect(kinds.filter((k) => /^(group\.start|actor\.(restart|new_session|stop))$/.test(k))).toEqual([
      'group.start',
      'actor.restart',
      'actor.new_session',
      'actor.stop',
    ]);

    // group_start does not start an actor disabled by actor_stop; group_stop keeps desired state.
    await fx.client.call('group_start', { group_id: gid });
    expect(fx.services.runtimes.get(gid, 'peer1')).toBeUndefined();
    await fx.client.call('actor_start', { group_id: gid, actor_id: 'peer1' });
    const fourth = fx.services.runtimes.get(gid, 'peer1')!.session!;
    await fx.client.call('group_stop', { group_id: gid });
    expect(isAlive(fourth.pid)).toBe(false);
    const { group } = await fx.client.call('group_show', { group_id: gid });
    expect(group.actors?.[0]?.enabled).toBe(true);
  });

  it('explicit start without a scope is refused before anything is written', async () => {
    fx = await runtimeFixture();
    const { group_id } = await fx.client.call('group_create', { title: 'noscope' });
    await fx.client.call('actor_add', { group_id, actor_id: 'p', runtime: 'custom', command: ['cat'] });
    await fx.client.call('actor_stop', { group_id, actor_id: 'p' });
    const before = fx.ledgerLines(group_id).length;
    const res = await fx.client.request({ v: 1, op: 'actor_start', args: { group_id, actor_id: 'p' } });
    expect(res.error?.code).toBe('missing_project_root');
    expect(fx.ledgerLines(group_id).length).toBe(before);
  });

  it('an agent that exits on its own is stopped with its exit status', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx, { peer1: ['--exit-after', '1'] });
    await fx.client.call('group_start', { group_id: gid });
    await fx.client.call('send', { group_id: gid, text: 'bye', to: ['peer1'], message_mode: 'send' });
    const stop = await waitFor(() => events(fx!, gid).find((e) => e.kind === 'actor.stop'), 15_000, 'actor.stop');
    expect(stop).toMatchObject({ by: 'system', data: { actor_id: 'peer1', reason: 'exited', exit_code: 0, signal: null } });
    expect(existsSync(recordPath(fx.services.layout, gid, 'peer1'))).toBe(false);
    expect(fx.services.actorRuntime.isRunning(gid, 'peer1')).toBe(false);
  });

  it('daemon shutdown stops every owned process', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx, { a: [], b: [] });
    await fx.client.call('group_start', { group_id: gid });
    const pids = ['a', 'b'].map((id) => fx!.services.runtimes.get(gid, id)!.session!.pid);
    await fx.daemon.stop();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });
});

describe('orphan reaper', () => {
  it('kills a live orphan by identity and never signals a reused pid', async () => {
    const fx = await runtimeFixture();
    try {
      const orphan = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
      const unrelated = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
      await waitFor(() => processStartTime(orphan.pid!) && processStartTime(unrelated.pid!));
      const base = { v: 1 as const, kind: 'pty' as const, group_id: 'g_test', started_at: 'x' };
      writeOwnershipRecord(fx.services.layout, { ...base, actor_id: 'orphan', pid: orphan.pid!, pid_start_time: processStartTime(orphan.pid!)! });
      writeOwnershipRecord(fx.services.layout, { ...base, actor_id: 'reused', pid: unrelated.pid!, pid_start_time: '1' });
      const report = await reapOrphans(fx.services.layout, fx.services.logger, 500);
      expect(report.killed.map((k) => k.actor_id)).toEqual(['orphan']);
      await waitFor(() => orphan.exitCode !== null || orphan.signalCode !== null, 5000, 'orphan exit');
      expect(isAlive(unrelated.pid!)).toBe(true);
      expect(existsSync(recordPath(fx.services.layout, 'g_test', 'reused'))).toBe(false);
      unrelated.kill('SIGKILL');
    } finally {
      await fx[Symbol.asyncDispose]();
    }
  });
});
