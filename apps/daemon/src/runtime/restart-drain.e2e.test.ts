import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { claudeGroup, hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { events, waitFor, type runtimeFixture } from '../../test-support/daemon-fixture.js';

// A restart while a delivery is in flight (issue 19): the stop first lets the agent take up what
// was already submitted into it (its prompt hook), bounded by CCCC_STOP_DRAIN_MS, so a restart
// never kills an agent between Enter and the prompt being taken. The fake agent installed as
// `claude` "thinks" FAKE_AGENT_THINKING_MS before its UserPromptSubmit hook runs.

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;

const sessionIdOf = (fx: Fx, gid: string) => {
  const path = join(fx.home, 'daemon', 'claude-hook-state', `${actorHookKey(gid, 'peer1')}.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { session_id?: string }).session_id : undefined;
};

async function restartWhen(fx: Fx, gid: string, text: string, state: 'claimed' | 'accepted') {
  await fx.client.call('group_start', { group_id: gid });
  await waitFor(() => sessionIdOf(fx, gid), 15_000, 'SessionStart');
  const { event } = await fx.client.call('send', { group_id: gid, text, to: ['peer1'], message_mode: 'send' });
  const of = (kind: string) => events(fx, gid).filter((e) => e.kind === kind && e.data['source_event_id'] === event.id);
  await waitFor(() => of('runtime.delivery').some((e) => e.data['state'] === state), 20_000, state);
  const started = Date.now();
  await fx.client.call('actor_restart', { group_id: gid, actor_id: 'peer1' });
  return { restartMs: Date.now() - started, confirmation: () => of('x.cccc.delivery_confirmation') };
}

describe('restart mid-delivery (real daemon, real hooks)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('waits for the submitted delivery to be taken up before the agent goes: confirmed, typed once', async () => {
    fx = await hookedRuntimeFixture({ CCCC_STOP_DRAIN_MS: '10000' });
    const gid = await claudeGroup(fx, { env: { FAKE_AGENT_THINKING_MS: '1500' } });
    const { restartMs, confirmation } = await restartWhen(fx, gid, 'restart me not yet', 'accepted');
    // Without the drain the agent is killed before its prompt hook, and the delivery is unconfirmed.
    expect(confirmation()).toEqual([expect.objectContaining({ data: expect.objectContaining({ state: 'confirmed', evidence: 'claude_hook_UserPromptSubmit' }) })]);
    expect(restartMs).toBeGreaterThan(500);
  }, 60_000);

  it('restarted while the delivery is still being typed (before Enter): no Enter into the dying agent; the next session gets it, confirmed once', async () => {
    // The fake agent draws no echo of a paste, so claude's rule waits its full 8 s for one: the
    // restart comes in the middle of that wait.
    fx = await hookedRuntimeFixture({ CCCC_STOP_DRAIN_MS: '10000' });
    const gid = await claudeGroup(fx, { env: { FAKE_AGENT_THINKING_MS: '300' } });
    const { restartMs, confirmation } = await restartWhen(fx, gid, 'typed while restarting', 'claimed');
    // The submit gave up its wait for the echo at once instead of typing Enter seconds later.
    expect(restartMs).toBeLessThan(2_500);
    const [record] = await waitFor(() => (confirmation().length > 0 ? confirmation() : undefined), 30_000, 'confirmation');
    expect(record!.data).toMatchObject({ state: 'confirmed' });
    const states = () => events(fx!, gid).filter((e) => e.kind === 'runtime.delivery').map((e) => [e.data['state'], e.data['reason'] ?? null]);
    expect(states()).toEqual([
      ['claimed', null],
      ['failed', 'session_ending'],
      ['claimed', null],
      ['accepted', null],
    ]);
    expect(confirmation()).toHaveLength(1);
  }, 60_000);

  it('an agent that takes nothing up within the bound is restarted anyway, and the delivery is flagged unconfirmed at once', async () => {
    fx = await hookedRuntimeFixture({ CCCC_STOP_DRAIN_MS: '800', CCCC_DELIVERY_CONFIRM_MS: '60000' });
    const gid = await claudeGroup(fx, { env: { FAKE_AGENT_THINKING_MS: '30000' } });
    const { restartMs, confirmation } = await restartWhen(fx, gid, 'never taken up', 'accepted');
    expect(restartMs).toBeLessThan(20_000);
    // Flagged when the session ended, not 60 s later at the window's end.
    const [record] = await waitFor(() => (confirmation().length > 0 ? confirmation() : undefined), 5_000, 'unconfirmed record');
    expect(record!.data).toMatchObject({ state: 'unconfirmed', evidence: 'session_ended_before_UserPromptSubmit', latency_ms: null });
    expect(events(fx, gid).filter((e) => e.kind === 'runtime.delivery').map((e) => e.data['state'])).toEqual(['claimed', 'accepted']);
  }, 60_000);
});
