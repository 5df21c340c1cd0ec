import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callBash, type FakeModel, type ModelStep, reply, startFakeModel, thinkThenReply } from '../fake-model/index.js';
import { actorProbe, type ActorProbe, type DaemonGroup, hookLog, sendHeld, startDaemonGroup, tempDir, typeAtTerminal } from './daemon-actor.js';
import { claudeEnv, describeWithRealClis, readHookPayloads, recordingHookSettings, type RealClis, seedClaudeHome } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The daemon's send gate with a real permission prompt: a real claude actor that is NOT in
// bypass mode (the catalog's claude runtime with its command overridden to
// `claude --permission-mode default`, so the daemon still injects its hooks), whose model calls
// Bash. Claude asks; its PermissionRequest hook turns the actor's working state to `waiting`
// (input_state `waiting_user`); a send made then is held (nothing claimed, nothing typed, the
// model asked nothing new); the prompt is answered at the actor's terminal through term_attach,
// as a user in the Web terminal answers it; the held message then goes, once.

const teardown = realCliTeardown();

const CONFIRM_WINDOW_MS = 8_000;

interface Waiting {
  group: DaemonGroup;
  probe: ActorProbe;
  model: FakeModel;
  hookDir: string;
}

/**
 * Daemon, group and a default-permission claude actor; a first message (carrying the start-up
 * prompt, one turn), whose turn is let end so the model's next step is the Bash turn's, then a message whose
 * turn calls Bash: resolves once the actor waits on that permission prompt.
 */
async function actorOnPermissionPrompt(clis: RealClis, afterApproval: ModelStep[]): Promise<Waiting> {
  const model = teardown.model(await startFakeModel({ steps: [reply('First read')] }));
  const group = await startDaemonGroup(teardown, { title: 'real claude permission', env: { CCCC_DELIVERY_CONFIRM_MS: String(CONFIRM_WINDOW_MS) } });
  const { client, groupId: group_id } = group;
  const agentHome = tempDir(teardown, 'real-claude-perm-home-');
  seedClaudeHome(agentHome, group.scope);
  // The agent's user settings record every hook payload too, beside the daemon's injected hooks.
  const hookDir = join(agentHome, 'hook-payloads');
  mkdirSync(join(agentHome, '.claude'), { recursive: true });
  writeFileSync(
    join(agentHome, '.claude', 'settings.json'),
    recordingHookSettings(hookDir, ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Notification', 'PostToolUse', 'Stop']),
  );
  await client.call('actor_add', {
    group_id,
    actor_id: 'peer1',
    runtime: 'claude',
    command: ['claude', '--permission-mode', 'default'],
    env: claudeEnv(model.url, agentHome, clis.withPath().PATH!),
  });
  await client.call('group_start', { group_id });
  const probe = actorProbe(group, 'peer1', () =>
    `hooks: ${JSON.stringify(readHookPayloads(hookDir).map((p) => [p.hook_event_name, p.prompt_id, p.tool_use_id ?? p.notification_type]))}\n` +
    `model: ${model.requests.filter((r) => r.main).length} main requests`,
  );

  const { event: first } = await client.call('send', { group_id, text: 'first message 4b7e', to: ['peer1'], message_mode: 'send' });
  await until(async () => (await probe.status(first.id))?.delivery_confirmation, "the first message's confirmation to settle", 60_000, probe.diagnose);
  await until(async () => !/esc to interrupt|running stop hook/i.test(await probe.screen()), 'the Stop hooks to finish', 30_000, probe.diagnose);
  await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle before the Bash turn', 30_000, probe.diagnose);

  // The turn under test takes the next step, however the start-up turns went.
  model.setScript([callBash('touch gate-marker', 'Create a marker file'), ...afterApproval]);
  const ask = 'please create the gate marker 6a1c';
  const { event: asked } = await client.call('send', { group_id, text: ask, to: ['peer1'], message_mode: 'send' });
  await until(async () => (await probe.actor())?.effective_working_state === 'waiting', 'waiting on the permission prompt', 60_000, probe.diagnose);
  expect(await probe.actor()).toMatchObject({ input_state: 'waiting_user', effective_working_reason: 'claude_hook_PermissionRequest', state_source: 'hook' });
  // The hook may land before the dialog is drawn.
  await until(async () => /Do you want to proceed\?[\s\S]*1\. Yes/.test(await probe.screen()), 'the prompt on screen', 15_000, probe.diagnose);
  expect(await probe.status(asked.id)).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
  // The Bash tool is the open activity (PermissionRequest carries no tool_use_id, so it stays `started`).
  const { events } = await client.call('runtime_activity_snapshot', { group_id });
  expect(events).toEqual([expect.objectContaining({ actor_id: 'peer1', kind: 'tool', tool_name: 'Bash', status: 'started', event_type: 'PreToolUse' })]);
  expect(model.countOccurrences(ask)).toBe(1);
  return { group, probe, model, hookDir };
}

describeWithRealClis('real claude as a daemon actor, on a real permission prompt', (clis) => {
  it('a send while the prompt waits is held; Enter at the terminal approves it, the command runs, and the held message is then typed and reaches the model once', async () => {
    // After approval the model takes 5 s to answer the tool result: the held message goes as
    // soon as PostToolUse ends the wait, so it is typed while that turn still runs.
    const waiting = await actorOnPermissionPrompt(clis, [thinkThenReply(5_000, 'Marker created'), reply('Held message read')]);
    const { group, probe, model } = waiting;
    const held = 'held message 8d2f while the prompt waits';
    const heldId = await sendHeld(group, probe, model, held);
    expect(existsSync(join(group.scope, 'gate-marker'))).toBe(false);

    const rejectedBefore = hookLog(group.home).length;
    await typeAtTerminal(group, 'peer1', '\r'); // "1. Yes" is the highlighted choice
    await until(() => existsSync(join(group.scope, 'gate-marker')), 'the approved command to run', 30_000, probe.diagnose);
    await until(async () => (await probe.status(heldId))?.delivery_state === 'accepted', 'the held delivery', 30_000, probe.diagnose);
    await until(async () => (await probe.screen()).includes('● Held message read'), "the held message's reply", 30_000, probe.diagnose);
    await until(async () => (await probe.status(heldId))?.delivery_confirmation, "the held delivery's confirmation", CONFIRM_WINDOW_MS + 10_000, probe.diagnose);

    expect(model.countOccurrences(held)).toBe(1);
    // It reached the model after the tool result of the approved call, never before.
    const main = model.requests.filter((r) => r.main);
    const firstWithHeld = main.findIndex((r) => JSON.stringify(r.body).includes(held));
    const firstWithResult = main.findIndex((r) => JSON.stringify(r.body).includes('"tool_result"'));
    expect(firstWithResult).toBeGreaterThan(-1);
    expect(firstWithHeld).toBeGreaterThan(firstWithResult);
    // Typed into the still-running turn, claude queues it and its UserPromptSubmit repeats the
    // running turn's prompt_id: the fence takes a repeat of the current turn's id as a prompt
    // submitted, and the prompt carries the delivery, so it is confirmed.
    expect(await probe.status(heldId)).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
    expect(hookLog(group.home).slice(rejectedBefore)).not.toContain('UserPromptSubmit rejected');
  }, 120_000);

  // Rejecting the prompt (Esc, "Esc to cancel") ends claude's turn without any hook: no
  // PostToolUse, no Stop, no idle Notification (claude-tui.test.ts). The daemon sees the
  // lone ESC typed at the terminal as an interrupt (the reference's input observer): the actor is
  // idle again, and the held message goes to an idle claude, as its own turn, confirmed.
  it('a send while the prompt waits is held; Esc at the terminal rejects it (no hook fires), the daemon reads the interrupt, and the held message is delivered once and confirmed', async () => {
    const waiting = await actorOnPermissionPrompt(clis, [reply('Held message read')]);
    const { group, probe, model, hookDir } = waiting;
    const held = 'held message 51c0 while the prompt waits';
    const heldId = await sendHeld(group, probe, model, held);
    expect(existsSync(join(group.scope, 'gate-marker'))).toBe(false);
    const hooksBefore = readHookPayloads(hookDir).length;

    await typeAtTerminal(group, 'peer1', '\x1b');
    await until(async () => (await probe.status(heldId))?.delivery_confirmation, "the held delivery's confirmation", 30_000, probe.diagnose);
    expect(await probe.status(heldId)).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
    await until(async () => (await probe.screen()).includes('● Held message read'), "the held message's reply", 30_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the held turn', 30_000, probe.diagnose);

    expect(existsSync(join(group.scope, 'gate-marker'))).toBe(false);
    expect(await probe.screen()).toContain('Interrupted');
    expect(model.countOccurrences(held)).toBe(1);
    // Between the rejection and the held message's turn claude fired no hook (a permission_prompt
    // Notification may still land from the time the prompt was up).
    const after = readHookPayloads(hookDir).slice(hooksBefore).map((p) => p.hook_event_name).filter((name) => name !== 'Notification');
    expect(after[0]).toBe('UserPromptSubmit');
    // The Bash tool's activity was closed by the interrupt.
    const { events } = await group.client.call('runtime_activity_snapshot', { group_id: group.groupId });
    expect(events.filter((e) => e.tool_name === 'Bash')).toEqual([expect.objectContaining({ status: 'completed', event_type: 'Interrupt' })]);
  }, 120_000);
});
