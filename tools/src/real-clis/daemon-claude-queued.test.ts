import { expect, it } from 'vitest';
import { reply, startFakeModel } from '../fake-model/index.js';
import { addClaudeActor } from './claude-actor.js';
import { hookLog, startDaemonGroup } from './daemon-actor.js';
import { describeWithRealClis, readHookPayloads } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// Issue 19's stale_turn bug, end to end with the real claude: a delivery typed while the previous
// turn's Stop hooks still run is queued by claude, and its UserPromptSubmit repeats the previous
// turn's prompt_id. It must still be confirmed, and by its own prompt hook: the next delivery is
// sent at once, without waiting for anything to settle, and is confirmed too.

const teardown = realCliTeardown();
const CONFIRM_WINDOW_MS = 15_000;

describeWithRealClis('real claude: a delivery typed while the previous turn\'s Stop hooks run', (clis) => {
  it('is queued by claude with a repeated prompt_id, and still confirmed; the delivery right after it is confirmed by its own prompt hook', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('First read'), reply('Queued read'), reply('Next read')] }));
    const group = await startDaemonGroup(teardown, { title: 'real claude queued', env: { CCCC_DELIVERY_CONFIRM_MS: String(CONFIRM_WINDOW_MS) } });
    // Each Stop hook runs 12 s after it fires: a delivery made on Stop lands while they run.
    // Claude draws no echo of a paste while its Stop hooks run, so claude's submit rule waits its
    // full 8 s for one and then types Enter anyway: into the running hooks, where claude queues it.
    const { probe, hookDir } = await addClaudeActor(teardown, clis, group, model, { stopHoldSeconds: 12 });
    const { client, groupId: group_id } = group;
    await client.call('group_start', { group_id });
    const send = async (text: string) => (await client.call('send', { group_id, text, to: ['peer1'], message_mode: 'send' })).event.id;
    const confirmation = (id: string, what: string) =>
      until(async () => (await probe.status(id))?.delivery_confirmation, what, CONFIRM_WINDOW_MS + 30_000, probe.diagnose);
    const stops = () => readHookPayloads(hookDir).filter((p) => p.hook_event_name === 'Stop');

    const first = await send('first message 5d1a');
    await until(() => stops().some((p) => String(p.last_assistant_message).includes('First read')), "the first turn's Stop", 90_000, probe.diagnose);
    const queued = await send('queued message 7c3e');
    // Sent as soon as the queued one is typed, so it is a submit of its own, not one batch with it.
    await until(async () => (await probe.status(queued))?.delivery_state === 'accepted', 'the queued delivery', 30_000, probe.diagnose);
    const next = await send('next message 2f9b');

    expect(await confirmation(first, "the first message's confirmation")).toBe('confirmed');
    expect(await confirmation(queued, "the queued message's confirmation")).toBe('confirmed');
    expect(await confirmation(next, "the next message's confirmation")).toBe('confirmed');
    // Claude may merge prompts it queued into one model request: wait for the text, not a reply.
    await model.waitForRequest((r) => r.main && JSON.stringify(r.body).includes('next message 2f9b'), 60_000);
    for (const text of ['first message 5d1a', 'queued message 7c3e', 'next message 2f9b']) expect(model.countOccurrences(text)).toBe(1);

    // The case under test did happen: the queued message's prompt hook repeated the id of the
    // turn whose Stop hooks were running (the first message carried the start-up prompt, in one
    // submission).
    const payloads = readHookPayloads(hookDir);
    const trail = JSON.stringify(payloads.map((p) => [p.hook_event_name, p.prompt_id, String(p.prompt ?? p.last_assistant_message ?? '').slice(0, 24)]));
    const queuedAt = payloads.findIndex((p) => p.hook_event_name === 'UserPromptSubmit' && String(p.prompt).includes('queued message 7c3e'));
    const queuedPrompt = payloads[queuedAt];
    const firstStop = payloads.slice(0, queuedAt).findLast((p) => p.hook_event_name === 'Stop');
    expect(queuedPrompt?.prompt_id, trail).toBe(firstStop?.prompt_id);
    expect(hookLog(group.home)).not.toMatch(/UserPromptSubmit rejected|Stop rejected/);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle at the end', 60_000, probe.diagnose);
    expect(hookLog(group.home)).not.toMatch(/rejected/);
  }, 300_000);
});
