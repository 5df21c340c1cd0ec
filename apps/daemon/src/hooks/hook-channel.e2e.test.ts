import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { claudeGroup, hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { startDaemonFixture, waitFor } from '../../test-support/daemon-fixture.js';

// The hook channel's live state has one owner in memory (ARCHITECTURE.md): the daemon writes hook
// state, launch records and runtime activity through to the files the spec names, and never reads
// its own write back to learn its state. Every `readFile` of the daemon's sources is recorded.

const reads = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const { recordingReads } = await import('../../test-support/read-recorder.js');
  return recordingReads(await importOriginal<typeof import('node:fs/promises')>(), reads);
});

const HOOK_FILES = /\/(claude-hook-state|codex-hook-state|runtime-hook-launch|runtime-activity)\//;
const hookFileReads = () => reads.filter((p) => HOOK_FILES.test(p));

type Fx = Awaited<ReturnType<typeof hookedRuntimeFixture>>;
const statePath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'claude-hook-state', `${actorHookKey(gid, 'peer1')}.json`);
const launchPath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'runtime-hook-launch', `${actorHookKey(gid, 'peer1')}.json`);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('the hook channel owns its state in memory (real daemon, real hooks)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('hook events, actor_list and snapshots never read the hook files back; a restarted daemon reads them from disk', { timeout: 90_000 }, async () => {
    fx = await hookedRuntimeFixture({ CCCC_WORKING_STATE_TICK_MS: '100' });
    const gid = await claudeGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const sessionId = await waitFor(() => (existsSync(statePath(fx!, gid)) ? readJson(statePath(fx!, gid)) : null)?.session_id, 15_000, 'SessionStart');
    const token = readJson(launchPath(fx, gid)).launch_token as string;

    reads.length = 0;
    const event = (hook_event_name: string, tool_use_id: string) =>
      fx!.client.call('runtime_hook_event', {
        group_id: gid,
        actor_id: 'peer1',
        runtime: 'claude',
        launch_token: token,
        payload: { hook_event_name, session_id: sessionId, tool_use_id, tool_name: 'Bash' },
      });
    const N = 10;
    for (let i = 0; i < N; i++) {
      expect(await event('PreToolUse', `toolu_own_${i}`)).toEqual({ accepted: true });
      const snap = await fx.client.call('runtime_activity_snapshot', { group_id: gid });
      expect(snap.events.find((e) => e.operation_id === `toolu_own_${i}`)).toMatchObject({ status: 'started' });
      const peer = (await fx.client.call('actor_list', { group_id: gid })).actors.find((a) => a.id === 'peer1');
      expect(peer).toMatchObject({ state_source: 'hook', running: true });
      if (i < N - 1) expect(await event('PostToolUse', `toolu_own_${i}`)).toEqual({ accepted: true });
    }
    await new Promise((r) => setTimeout(r, 300)); // a few working-state ticks as well
    expect(hookFileReads()).toEqual([]);
    // Written through: the files hold what memory holds.
    expect(readJson(statePath(fx, gid))).toMatchObject({ event: 'PreToolUse', operation_id: `toolu_own_${N - 1}`, session_id: sessionId });
    const before = (await fx.client.call('runtime_activity_snapshot', { group_id: gid })).events;

    // A new daemon on the same home learns the activity from the durable record, once.
    await fx.daemon.stop();
    const again = await startDaemonFixture({ home: fx.home });
    try {
      reads.length = 0;
      const after = (await again.client.call('runtime_activity_snapshot', { group_id: gid })).events;
      expect(after.find((e) => e.operation_id === `toolu_own_${N - 1}`)).toEqual(before.find((e) => e.operation_id === `toolu_own_${N - 1}`));
      await again.client.call('runtime_activity_snapshot', { group_id: gid });
      expect(hookFileReads().map((p) => p.slice(fx!.home.length))).toEqual([`/groups/${gid}/state/runtime-activity/events.json`]);
    } finally {
      await again.daemon.stop();
    }
  });
});
