import { afterEach, describe, expect, it } from 'vitest';
import { claudeGroup, hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { events, waitFor, type runtimeFixture } from '../../test-support/daemon-fixture.js';

// The gap after the preamble (issue 19): a hooked agent shows when it took the preamble up (its
// prompt hook), and the first delivery goes then, not after the whole configured gap.

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;
const GAP_MS = 4_000;

describe('the preamble gap ends at the preamble prompt hook (real daemon, real hooks)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  async function firstClaimAfter(env: Record<string, string>): Promise<number> {
    fx = await hookedRuntimeFixture({ CCCC_PREAMBLE_GAP_MS: String(GAP_MS), CCCC_SUBMIT_DELAY_MS: '300', ...env });
    const gid = await claudeGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const sent = Date.now();
    const { event } = await fx.client.call('send', { group_id: gid, text: 'first of the session', to: ['peer1'], message_mode: 'send' });
    const claimed = await waitFor(
      () => events(fx!, gid).find((e) => e.kind === 'runtime.delivery' && e.data['source_event_id'] === event.id && e.data['state'] === 'claimed'),
      30_000,
      'the first delivery claimed',
    );
    await waitFor(
      () => events(fx!, gid).find((e) => e.kind === 'x.cccc.delivery_confirmation' && e.data['source_event_id'] === event.id && e.data['state'] === 'confirmed'),
      30_000,
      'confirmed',
    );
    return Date.parse(claimed.ts) - sent;
  }

  it('the first delivery of a hooked session is typed long before the configured gap has passed', async () => {
    // The preamble went first (its own submit), and its prompt hook ended the gap.
    expect(await firstClaimAfter({})).toBeLessThan(GAP_MS - 1_000);
  }, 60_000);

  it('CCCC_SUBMIT_EVIDENCE=0: the whole gap, as the reference waits', async () => {
    expect(await firstClaimAfter({ CCCC_SUBMIT_EVIDENCE: '0' })).toBeGreaterThanOrEqual(GAP_MS);
  }, 60_000);
});
