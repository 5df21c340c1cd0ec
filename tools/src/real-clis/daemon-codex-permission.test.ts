import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callTool, type FakeModel, type ModelStep, reply, startFakeModel, thinkThenReply } from '../fake-model/index.js';
import { actorProbe, type ActorProbe, type DaemonGroup, hookLog, sendHeld, startDaemonGroup, tempDir, typeAtTerminal } from './daemon-actor.js';
import { codexEnv, describeWithRealClis, type RealClis, writeCodexConfig } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The daemon's send gate with a real codex approval prompt: a real codex actor whose command is
// overridden to ask (`-a on-request -s workspace-write` instead of the catalog's bypass flag; the
// daemon still injects its hooks), whose model calls exec_command with
// `sandbox_permissions: "require_escalated"`. Codex asks "Would you like to run the following
// command?"; its PermissionRequest hook (which names no tool_use_id) turns the actor `waiting`; a
// send made then is held; the prompt is answered at the terminal through term_attach.

const teardown = realCliTeardown();

const CONFIRM_WINDOW_MS = 8_000;
const ESCALATED_TOUCH = callTool('exec_command', { cmd: 'touch gate-marker', sandbox_permissions: 'require_escalated', justification: 'Create a marker file' });

interface Waiting {
  group: DaemonGroup;
  probe: ActorProbe;
  model: FakeModel;
}

/** Daemon, group and an asking codex actor; a first message let settle, then a message whose turn asks to run a command. */
async function actorOnApprovalPrompt(clis: RealClis, afterPrompt: ModelStep[]): Promise<Waiting> {
  const model = teardown.model(await startFakeModel({ steps: [reply('First read')] }));
  const group = await startDaemonGroup(teardown, { title: 'real codex approval', env: { CCCC_DELIVERY_CONFIRM_MS: String(CONFIRM_WINDOW_MS), CCCC_CODEX_MANAGED: '0' } });
  const { client, groupId: group_id } = group;
  const env = codexEnv(tempDir(teardown, 'real-codex-perm-home-'), clis.withPath().PATH!);
  writeCodexConfig(env.CODEX_HOME!, model.url);
  await client.call('actor_add', {
    group_id,
    actor_id: 'peer1',
    runtime: 'codex',
    command: ['codex', '-c', 'shell_environment_policy.inherit=all', '-a', 'on-request', '-s', 'workspace-write'],
    env: { ...env, TERM: 'xterm-256color' },
  });
  await client.call('group_start', { group_id });
  const probe = actorProbe(group, 'peer1', () => `model: ${model.requests.filter((r) => r.main).length} main requests`);

  // As in daemon-codex.test.ts: the first message (with the start-up prompt, one submission)
  // has to arrive; its confirmation is let settle before the turn under test.
  const { event: first } = await client.call('send', { group_id, text: 'first message 7c21', to: ['peer1'], message_mode: 'send' });
  await until(async () => (await probe.status(first.id))?.delivery_confirmation, "the first message's confirmation to settle", 60_000, probe.diagnose);
  await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle before the command turn', 30_000, probe.diagnose);

  // The turn under test takes the next step, however the first turn went.
  model.setScript([ESCALATED_TOUCH, ...afterPrompt]);
  const ask = 'please create the gate marker 0f3b';
  const { event: asked } = await client.call('send', { group_id, text: ask, to: ['peer1'], message_mode: 'send' });
  await until(async () => (await probe.actor())?.effective_working_state === 'waiting', 'waiting on the approval prompt', 60_000, probe.diagnose);
  expect(await probe.actor()).toMatchObject({ input_state: 'waiting_user', effective_working_reason: 'codex_hook_PermissionRequest', state_source: 'hook' });
  // The hook may land before the dialog is drawn.
  await until(async () => /Would you like to run the following command\?[\s\S]*1\. Yes, proceed \(y\)/.test(await probe.screen()), 'the prompt on screen', 15_000, probe.diagnose);
  expect(await probe.status(asked.id)).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
  // The open tool shows as waiting on the approval.
  const { events } = await client.call('runtime_activity_snapshot', { group_id });
  expect(events.filter((e) => e.kind === 'tool')).toEqual([expect.objectContaining({ tool_name: 'Bash', status: 'waiting', event_type: 'PermissionRequest' })]);
  expect(model.countOccurrences(ask)).toBe(1);
  return { group, probe, model };
}

describeWithRealClis('real codex as a daemon actor, on a real approval prompt', (clis) => {
  it('a send while the prompt waits is held; y at the terminal approves it, the command runs, and the held message reaches the model once', async () => {
    // After approval the model takes 5 s to answer the command's output: the held message goes as
    // soon as PostToolUse ends the wait, so it is typed while that turn still runs.
    const { group, probe, model } = await actorOnApprovalPrompt(clis, [thinkThenReply(5_000, 'Marker created'), reply('Held message read')]);
    const held = 'held message 2a6d while codex asks';
    const heldId = await sendHeld(group, probe, model, held);
    expect(existsSync(join(group.scope, 'gate-marker'))).toBe(false);

    const rejectedBefore = hookLog(group.home).length;
    await typeAtTerminal(group, 'peer1', 'y');
    await until(() => existsSync(join(group.scope, 'gate-marker')), 'the approved command to run', 30_000, probe.diagnose);
    await until(async () => (await probe.status(heldId))?.delivery_state === 'accepted', 'the held delivery', 30_000, probe.diagnose);
    await until(async () => (await probe.status(heldId))?.delivery_confirmation, "the held delivery's confirmation", CONFIRM_WINDOW_MS + 10_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle at the end', 30_000, probe.diagnose);

    expect(model.countOccurrences(held)).toBe(1);
    const main = model.requests.filter((r) => r.main);
    const firstWithHeld = main.findIndex((r) => JSON.stringify(r.body).includes(held));
    const firstWithResult = main.findIndex((r) => JSON.stringify(r.body).includes('"function_call_output"'));
    expect(firstWithResult).toBeGreaterThan(-1);
    expect(firstWithHeld).toBeGreaterThan(firstWithResult);
    // Typed into the still-running turn, codex takes it into that turn (its UserPromptSubmit
    // repeats the turn_id): the fence takes a repeat of the current turn's id as a prompt
    // submitted, and the prompt carries the delivery, so it is confirmed.
    expect(await probe.status(heldId)).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
    expect(hookLog(group.home).slice(rejectedBefore)).not.toContain('UserPromptSubmit rejected');
  }, 120_000);

  // "3. No, and tell Codex what to do differently (esc)": codex cancels the command and
  // interrupts the conversation without any hook (no PostToolUse, no Stop). The daemon reads the
  // lone ESC typed at the terminal as an interrupt, and the held message goes to an idle codex.
  it('a send while the prompt waits is held; Esc at the terminal cancels it (no hook fires), the daemon reads the interrupt, and the held message is delivered once and confirmed', async () => {
    const { group, probe, model } = await actorOnApprovalPrompt(clis, [reply('Held message read')]);
    const held = 'held message 6e09 while codex asks';
    const heldId = await sendHeld(group, probe, model, held);

    await typeAtTerminal(group, 'peer1', '\x1b');
    await until(async () => (await probe.status(heldId))?.delivery_confirmation, "the held delivery's confirmation", 30_000, probe.diagnose);
    expect(await probe.status(heldId)).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
    await until(async () => (await probe.screen()).includes('• Held message read'), "the held message's reply", 30_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the held turn', 30_000, probe.diagnose);

    expect(existsSync(join(group.scope, 'gate-marker'))).toBe(false);
    expect(await probe.screen()).toContain('You canceled the request to run touch gate-marker');
    expect(model.countOccurrences(held)).toBe(1);
    const { events } = await group.client.call('runtime_activity_snapshot', { group_id: group.groupId });
    expect(events.filter((e) => e.kind === 'tool' && e.tool_name === 'Bash')).toEqual([expect.objectContaining({ status: 'completed', event_type: 'Interrupt' })]);
  }, 120_000);
});
