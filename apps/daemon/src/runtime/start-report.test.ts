import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTOR_START_PROBLEM_KIND } from '@cccc/ipc-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';
import { events, waitFor } from '../../test-support/daemon-fixture.js';

// Honest starts (issue 15) with real processes and the default 1.5 s early-exit window.

// What it prints ("config file is broken") is not in its command, so a leak to the ledger shows.
const QUICK = ['sh', '-c', 'X=file; echo "loading config"; echo "quick: config $X is broken" >&2; exit 3'];
const GHOST = ['cccc-test-no-such-agent'];

async function groupWith(fx: DaemonFixture, actors: Record<string, string[]>): Promise<string> {
  const { group_id } = await fx.client.call('group_create', { title: 'honest' });
  const dir = join(fx.home, 'scopes', group_id);
  mkdirSync(dir, { recursive: true });
  await fx.client.call('attach', { path: dir, group_id });
  for (const [actor_id, command] of Object.entries(actors)) await fx.client.call('actor_add', { group_id, actor_id, runtime: 'custom', command });
  return group_id;
}

describe('honest starts', () => {
  let fx: DaemonFixture | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('group_start reports a missing executable and an exit within the window, waiting once for all actors', async () => {
    fx = await startDaemonFixture({ env: { CCCC_STOP_GRACE_MS: '500' } });
    const gid = await groupWith(fx, { ghost: GHOST, quick: QUICK, a: ['cat'], b: ['cat'], c: ['cat'] });
    const t0 = Date.now();
    const res = await fx.client.call('group_start', { group_id: gid });
    const elapsed = Date.now() - t0;
    // Three actors survive the 1.5 s window: waited one after another it would take ≥ 4.5 s.
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(3000);

    expect(res.started).toEqual(['ghost', 'quick', 'a', 'b', 'c']);
    expect(res.failed).toEqual(['ghost', 'quick']);
    const [ghost, quick, ...rest] = res.start_results!;
    expect(ghost).toMatchObject({ actor_id: 'ghost', running: false, start_failure: { code: 'executable_not_found' } });
    expect(ghost!.start_error).toMatch(/^executable_not_found: .*cccc-test-no-such-agent/);
    expect(quick).toMatchObject({ actor_id: 'quick', running: false, start_failure: { code: 'exited_early', exit_code: 3, signal: null } });
    expect(quick!.start_failure!.output_tail).toEqual(['loading config', 'quick: config file is broken']);
    expect(quick!.start_error).toBe('exited_early: exited with code 3 within 1.5 s of starting');
    expect(rest.map((r) => [r.actor_id, r.running, r.start_failure])).toEqual([
      ['a', true, undefined],
      ['b', true, undefined],
      ['c', true, undefined],
    ]);

    // actor_list shows the reason of each actor that did not start, none for the others.
    const { actors } = await fx.client.call('actor_list', { group_id: gid });
    const byId = Object.fromEntries(actors.map((a) => [a.id, a]));
    expect(byId['ghost']).toMatchObject({ running: false, start_failure: { code: 'executable_not_found' } });
    expect(byId['quick']).toMatchObject({ running: false, start_failure: { code: 'exited_early', exit_code: 3 } });
    expect(byId['quick']!.start_error).toBe(quick!.start_error);
    expect(byId['a']!.start_error).toBeUndefined();

    // The ledger records both, after group.start, without the agent's output.
    const problems = events(fx, gid).filter((e) => e.kind === ACTOR_START_PROBLEM_KIND);
    expect(problems.map((e) => [e.by, e.data['actor_id'], e.data['running'], e.data['code'], e.data['exit_code'], e.data['trigger']])).toEqual([
      ['system', 'ghost', false, 'executable_not_found', null, 'group_start'],
      ['system', 'quick', false, 'exited_early', 3, 'group_start'],
    ]);
    expect(readFileSync(join(fx.home, 'groups', gid, 'ledger.jsonl'), 'utf8')).not.toContain('config file is broken');

    // A stop clears the reason: it no longer describes the actor.
    await fx.client.call('actor_stop', { group_id: gid, actor_id: 'quick' });
    const after = (await fx.client.call('actor_list', { group_id: gid })).actors.find((a) => a.id === 'quick');
    expect(after?.start_failure).toBeUndefined();
  });

  it('actor_start fails with the exit code and output tail of an exit within the window', async () => {
    fx = await startDaemonFixture({ env: { CCCC_STOP_GRACE_MS: '500' } });
    const gid = await groupWith(fx, { quick: QUICK, ghost: GHOST });
    const quick = await fx.client.request({ v: 1, op: 'actor_start', args: { group_id: gid, actor_id: 'quick' } });
    expect(quick.ok).toBe(false);
    expect(quick.error).toMatchObject({
      code: 'runtime_start_failed',
      details: { actor_id: 'quick', reason: 'exited_early', start_failure: { code: 'exited_early', exit_code: 3, signal: null } },
    });
    expect((quick.error!.details['start_failure'] as { output_tail: string[] }).output_tail).toContain('quick: config file is broken');
    const ghost = await fx.client.request({ v: 1, op: 'actor_start', args: { group_id: gid, actor_id: 'ghost' } });
    expect(ghost.error).toMatchObject({ code: 'runtime_start_failed', details: { actor_id: 'ghost', start_failure: { code: 'executable_not_found' } } });
    expect(events(fx, gid).filter((e) => e.kind === ACTOR_START_PROBLEM_KIND).map((e) => [e.data['actor_id'], e.data['trigger']])).toEqual([
      ['quick', 'actor_start'],
      ['ghost', 'actor_start'],
    ]);
  });

  it('actor_add into a running group answers running: false with start_error when the start fails', async () => {
    fx = await startDaemonFixture({ env: { CCCC_STOP_GRACE_MS: '500', CCCC_EARLY_EXIT_WINDOW_MS: '800' } });
    const gid = await groupWith(fx, { lead: ['cat'] });
    await fx.client.call('group_start', { group_id: gid });

    const quick = await fx.client.call('actor_add', { group_id: gid, actor_id: 'quick', runtime: 'custom', command: QUICK });
    expect(quick).toMatchObject({ running: false, start_failure: { code: 'exited_early', exit_code: 3 } });
    expect(typeof quick.start_error).toBe('string');
    const ghost = await fx.client.call('actor_add', { group_id: gid, actor_id: 'ghost', runtime: 'custom', command: GHOST });
    expect(ghost).toMatchObject({ running: false, start_failure: { code: 'executable_not_found' } });
    const killed = await fx.client.call('actor_add', { group_id: gid, actor_id: 'killed', runtime: 'custom', command: ['sh', '-c', 'kill -KILL $$'] });
    expect(killed).toMatchObject({ running: false, start_failure: { code: 'exited_early', exit_code: null, signal: 'SIGKILL' } });
    expect(killed.start_error).toBe('exited_early: was killed by SIGKILL within 0.8 s of starting');
    const fine = await fx.client.call('actor_add', { group_id: gid, actor_id: 'fine', runtime: 'custom', command: ['cat'] });
    expect(fine.running).toBe(true);
    expect(fine.start_error).toBeUndefined();
    expect(fine.start_event).toMatchObject({ kind: 'actor.start', by: 'system', data: { actor_id: 'fine', reason: 'actor_add' } });
  });

  it('a start without an op (daemon start) watches the window in the background and records the problem', async () => {
    const first = await startDaemonFixture({ env: { CCCC_STOP_GRACE_MS: '500' } });
    const gid = await groupWith(first, { quick: QUICK });
    await first.client.call('group_start', { group_id: gid });
    await first.daemon.stop();
    fx = await startDaemonFixture({ home: first.home, env: { CCCC_STOP_GRACE_MS: '500' } });
    const problem = await waitFor(
      () => events(fx!, gid).find((e) => e.kind === ACTOR_START_PROBLEM_KIND && e.data['trigger'] === 'daemon_start'),
      10_000,
      'a daemon_start problem',
    );
    expect(problem.data).toMatchObject({ actor_id: 'quick', running: false, code: 'exited_early', exit_code: 3 });
    const quick = (await fx.client.call('actor_list', { group_id: gid })).actors[0]!;
    expect(quick.start_failure?.output_tail).toContain('quick: config file is broken');
  });

  it('actor_add refuses an unknown runtime like the reference, touching nothing', async () => {
    fx = await startDaemonFixture();
    const gid = await groupWith(fx, { lead: ['cat'] });
    const groupDir = join(fx.home, 'groups', gid);
    const files = () => readdirSync(groupDir, { recursive: true }).map(String).sort();
    const before = { ledger: fx.ledgerLines(gid), yaml: readFileSync(join(groupDir, 'group.yaml'), 'utf8'), files: files() };
    const res = await fx.client.request({ v: 1, op: 'actor_add', args: { group_id: gid, actor_id: 'x', runtime: 'no-such-runtime' } });
    expect(res.error).toMatchObject({ code: 'actor_add_failed', message: 'invalid runtime', details: { reason: 'invalid_runtime' } });
    expect({ ledger: fx.ledgerLines(gid), yaml: readFileSync(join(groupDir, 'group.yaml'), 'utf8'), files: files() }).toEqual(before);
    // Every catalog runtime (and the default, custom) is still accepted.
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'k', runtime: 'kimi' });
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'd' });
  });
});
