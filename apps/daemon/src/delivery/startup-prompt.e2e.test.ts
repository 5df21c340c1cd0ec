import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { events, screenOf, waitFor, type runtimeFixture } from '../../test-support/daemon-fixture.js';

// Spec §8.4: an agent TUI never gets a standalone start-up turn; the CCCC start-up prompt goes
// with the first task, in one submission (issue 19: the first delivery then costs one turn, not
// two). Custom programs keep the separate preamble (delivery.test.ts, preamble-gap.e2e.test.ts).

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;

/** A `claude`-runtime actor whose binary is the fake agent installed as `claude` (hooks injected). */
async function claudeRuntimeGroup(fx: Fx): Promise<{ gid: string; typed: () => string[] }> {
  const { group_id } = await fx.client.call('group_create', { title: 'startup' });
  const scope = join(fx.home, 'scopes', group_id);
  mkdirSync(scope, { recursive: true });
  await fx.client.call('attach', { path: scope, group_id });
  const command = [installFakeAgentAs(join(fx.home, 'bin'), 'claude')];
  const log = join(fx.home, 'typed.jsonl');
  await fx.client.call('actor_add', { group_id, actor_id: 'peer1', runtime: 'claude', command, env: { FAKE_AGENT_INPUT_LOG: log } });
  const typed = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text) : []);
  return { gid: group_id, typed };
}

describe('the start-up prompt goes with the first task (agent runtimes)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('one submission carries the start-up prompt and the first message; the next carries the message only', async () => {
    fx = await hookedRuntimeFixture();
    const { gid, typed } = await claudeRuntimeGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const first = await fx.client.call('send', { group_id: gid, text: 'first task', to: ['peer1'], message_mode: 'send' });
    const confirmedOf = (id: string) => () =>
      events(fx!, gid).find((e) => e.kind === 'x.cccc.delivery_confirmation' && e.data['source_event_id'] === id && e.data['state'] === 'confirmed');
    await waitFor(confirmedOf(first.event.id), 30_000, 'the first delivery confirmed by its prompt hook');
    const second = await fx.client.call('send', { group_id: gid, text: 'second task', to: ['peer1'], message_mode: 'send' });
    await waitFor(confirmedOf(second.event.id), 30_000, 'the second delivery confirmed');

    const lines = typed();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('You are peer1');
    expect(lines[0]).toContain(`[event_id=${first.event.id}]: first task`);
    expect(lines[0]!.indexOf('You are peer1')).toBeLessThan(lines[0]!.indexOf('first task'));
    expect(lines[1]).not.toContain('You are peer1');
    expect(lines[1]).toContain('second task');
    // Nothing was typed before the first task: no standalone start-up turn, no prompt hook for it.
    const prompts = events(fx, gid).filter((e) => e.kind === 'x.cccc.delivery_confirmation');
    expect(prompts.map((e) => e.data['source_event_id'])).toEqual([first.event.id, second.event.id]);
  }, 60_000);

  it('starting an actor types nothing until there is a task', async () => {
    fx = await hookedRuntimeFixture();
    const { gid, typed } = await claudeRuntimeGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    await waitFor(async () => (await screenOf(fx!, gid, 'peer1')).includes('fake-agent'), 10_000, 'the agent up');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(typed()).toEqual([]);
  }, 30_000);

  it('CCCC_PREAMBLE_SEPARATE=1: the start-up prompt is a submission of its own, before the first task', async () => {
    fx = await hookedRuntimeFixture({ CCCC_PREAMBLE_SEPARATE: '1', CCCC_PREAMBLE_GAP_MS: '300' });
    const { gid, typed } = await claudeRuntimeGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const first = await fx.client.call('send', { group_id: gid, text: 'first task', to: ['peer1'], message_mode: 'send' });
    await waitFor(() => typed().length >= 2, 30_000, 'two submissions');
    const lines = typed();
    expect(lines[0]).toContain('You are peer1');
    expect(lines[0]).not.toContain('first task');
    expect(lines[1]).toContain(`[event_id=${first.event.id}]: first task`);
  }, 60_000);
});
