import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callBash, flood, hang, reply, startFakeModel } from '../fake-model/index.js';
import {
  claudeEnv,
  describeWithRealClis,
  readHookPayloads,
  recordingHookSettings,
  seedClaudeHome,
  startPtyAgent,
  tempAgentHome,
  waitForHook,
} from './index.js';
import { realCliTeardown } from './test-support.js';

// The real interactive Claude Code TUI in a node-pty PTY, against the fake model, with a
// private HOME seeded so that no onboarding, API-key or trust prompt comes first.

const teardown = realCliTeardown();
const { cleanups } = teardown;

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeWithRealClis('real claude TUI in a PTY', (clis) => {
  it('a typed prompt + Enter reaches the model exactly once, the reply renders, and the command hooks fire', async () => {
    const { home, cwd, dispose } = tempAgentHome('real-claude-tui-');
    cleanups.push(dispose);
    seedClaudeHome(home, cwd);
    const hooks = join(home, 'hooks');
    const settings = recordingHookSettings(hooks, ['SessionStart', 'UserPromptSubmit', 'Stop']);
    const model = teardown.model(await startFakeModel({ steps: [reply('Interactive reply 5b1e'), reply('Second reply 0a77')] }));

    const agent = teardown.agent(startPtyAgent({ argv: [clis.bin('claude'), '--settings', settings], cwd, env: claudeEnv(model.url, home, clis.withPath().PATH!) }));
    const started = await waitForHook(hooks, 'SessionStart', 45_000);
    expect(started).toMatchObject({ source: 'startup', cwd });
    await agent.waitForScreen((screen) => screen.includes('❯'), 'input box', 45_000);

    const prompt = 'interactive prompt c4d9 typed into the TUI';
    await agent.submit(prompt);
    const submitted = await waitForHook(hooks, 'UserPromptSubmit');
    expect(submitted).toMatchObject({ prompt, session_id: started.session_id, cwd });
    expect(submitted.prompt_id).toEqual(expect.any(String));
    expect(submitted.transcript_path).toEqual(expect.any(String));

    await agent.waitForScreen((screen) => /● Interactive reply 5b1e/.test(screen), 'rendered reply');
    const stop = await waitForHook(hooks, 'Stop');
    expect(stop).toMatchObject({ session_id: started.session_id });
    expect(String(stop.last_assistant_message ?? '')).toContain('Interactive reply 5b1e');

    expect(model.requests.filter((r) => r.main)).toHaveLength(1);
    expect(model.countOccurrences(prompt)).toBe(1);
    expect(readHookPayloads(hooks).map((p) => p.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop']);
    // The turn is over: the footer no longer offers to interrupt.
    await agent.waitForScreen((screen) => !screen.includes('esc to interrupt'), 'idle footer');

    // A second prompt is a second turn with its own prompt_id.
    const second = 'second prompt 0a77';
    await agent.submit(second);
    await agent.waitForScreen((screen) => screen.includes('● Second reply 0a77'), 'second reply');
    await until(() => readHookPayloads(hooks).filter((p) => p.hook_event_name === 'Stop').length === 2, 'the second Stop');
    const prompts = readHookPayloads(hooks).filter((p) => p.hook_event_name === 'UserPromptSubmit');
    expect(prompts.map((p) => p.prompt)).toEqual([prompt, second]);
    expect(prompts[1]!.prompt_id).toEqual(expect.any(String));
    expect(prompts[1]!.prompt_id).not.toBe(prompts[0]!.prompt_id);
    expect(model.countOccurrences(prompt)).toBe(1);
    expect(model.countOccurrences(second)).toBe(1);
  }, 120_000);

  it('a Bash call in default permission mode waits on the real permission prompt; Enter approves it and the turn completes', async () => {
    const { home, cwd, dispose } = tempAgentHome('real-claude-perm-');
    cleanups.push(dispose);
    seedClaudeHome(home, cwd);
    const hooks = join(home, 'hooks');
    const settings = recordingHookSettings(hooks, ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Notification', 'PostToolUse', 'Stop']);
    const model = teardown.model(await startFakeModel({ steps: [callBash('touch approved-marker', 'Create a marker file'), reply('Marker created')] }));
    const agent = teardown.agent(startPtyAgent({
      argv: [clis.bin('claude'), '--permission-mode', 'default', '--settings', settings],
      cwd,
      env: claudeEnv(model.url, home, clis.withPath().PATH!),
    }));
    await agent.waitForScreen((screen) => screen.includes('❯'), 'input box', 45_000);
    await agent.submit('please create the marker');
    const asking = await agent.waitForScreen((screen) => /Do you want to proceed\?/.test(screen), 'permission prompt');
    expect(asking).toContain('touch approved-marker');
    expect(await waitForHook(hooks, 'PermissionRequest')).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'touch approved-marker' } });
    // Waiting: the tool has not run and the model was not called again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(join(cwd, 'approved-marker'))).toBe(false);
    expect(model.requests.filter((r) => r.main)).toHaveLength(1);
    expect(readHookPayloads(hooks).map((p) => p.hook_event_name)).not.toContain('Stop');

    await agent.session.write('\r'); // "Yes" is the highlighted choice
    await agent.waitForScreen((screen) => screen.includes('● Marker created'), 'reply after approval');
    await waitForHook(hooks, 'Stop');
    expect(existsSync(join(cwd, 'approved-marker'))).toBe(true);
    const main = model.requests.filter((r) => r.main);
    expect(main).toHaveLength(2);
    // The second call carries the tool_result of the very tool_use the hooks reported.
    const preToolUse = readHookPayloads(hooks).find((p) => p.hook_event_name === 'PreToolUse')!;
    expect(preToolUse.tool_use_id).toEqual(expect.stringMatching(/^toolu_/));
    expect(JSON.stringify(main[1]!.body)).toContain(`"tool_use_id":"${String(preToolUse.tool_use_id)}"`);
    const fired = readHookPayloads(hooks)
      .map((p) => p.hook_event_name)
      .filter((name) => name !== 'Notification');
    expect(fired).toEqual(['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']);
    expect(model.countOccurrences('please create the marker')).toBe(1);
  }, 120_000);

  // The daemon's send gate must not wait for a hook here: rejecting the prompt fires none.
  it('Esc at the permission prompt rejects the call: the turn ends as interrupted with no hook at all (no PostToolUse, no Stop)', async () => {
    const { home, cwd, dispose } = tempAgentHome('real-claude-reject-');
    cleanups.push(dispose);
    seedClaudeHome(home, cwd);
    const hooks = join(home, 'hooks');
    const events = ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'StopFailure', 'SessionEnd'];
    const settings = recordingHookSettings(hooks, events);
    const model = teardown.model(await startFakeModel({ steps: [callBash('touch rejected-marker', 'Create a marker file'), reply('after rejection')] }));
    const agent = teardown.agent(startPtyAgent({
      argv: [clis.bin('claude'), '--permission-mode', 'default', '--settings', settings],
      cwd,
      env: claudeEnv(model.url, home, clis.withPath().PATH!),
    }));
    await agent.waitForScreen((screen) => screen.includes('❯'), 'input box', 45_000);
    await agent.submit('please create the marker');
    await agent.waitForScreen((screen) => /Do you want to proceed\?/.test(screen), 'permission prompt');
    const permission = await waitForHook(hooks, 'PermissionRequest');
    // Its payload names the tool, not the tool_use_id (PreToolUse has it).
    expect(permission).toMatchObject({ tool_name: 'Bash' });
    expect(permission.tool_use_id).toBeUndefined();

    await agent.session.write('\x1b');
    await agent.waitForScreen((screen) => screen.includes('Interrupted'), 'the interrupted turn', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(readHookPayloads(hooks).map((p) => p.hook_event_name)).toEqual(['UserPromptSubmit', 'PreToolUse', 'PermissionRequest']);
    expect(existsSync(join(cwd, 'rejected-marker'))).toBe(false);
    expect(model.requests.filter((r) => r.main)).toHaveLength(1);
  }, 120_000);

  // What the pinned claude really does, and what the hook fence must cope with (a delivery the
  // daemon types as soon as Stop arrives lands while the Stop hooks still run): the prompt is
  // queued, its UserPromptSubmit repeats the previous turn's prompt_id, and the Stop of its turn
  // carries a new one. The daemon's fence takes the repeat as a submitted prompt and adopts the
  // new id (libs/hook-fence fence.ts; daemon-claude-queued.test.ts confirms such a delivery).
  it('a prompt typed while the Stop hooks still run: UserPromptSubmit repeats the previous prompt_id, its Stop has a new one', async () => {
    const { home, cwd, dispose } = tempAgentHome('real-claude-queued-');
    cleanups.push(dispose);
    seedClaudeHome(home, cwd);
    const hooks = join(home, 'hooks');
    const settings = recordingHookSettings(hooks, ['SessionStart', 'UserPromptSubmit', 'Stop'], { holdSeconds: 1 });
    const model = teardown.model(await startFakeModel({ steps: [reply('first reply'), reply('second reply')] }));
    const agent = teardown.agent(startPtyAgent({ argv: [clis.bin('claude'), '--settings', settings], cwd, env: claudeEnv(model.url, home, clis.withPath().PATH!) }));
    await waitForHook(hooks, 'SessionStart', 45_000);
    await agent.waitForScreen((screen) => screen.includes('❯'), 'input box', 45_000);
    await agent.submit('first prompt');
    await waitForHook(hooks, 'Stop'); // its hook now holds for 1 s
    await agent.submit('queued prompt');
    await agent.waitForScreen((screen) => screen.includes('● second reply'), 'second reply');
    await until(() => readHookPayloads(hooks).filter((p) => p.hook_event_name === 'Stop').length === 2, 'the second Stop');

    const [first, queued] = readHookPayloads(hooks).filter((p) => p.hook_event_name === 'UserPromptSubmit');
    const [firstStop, queuedStop] = readHookPayloads(hooks).filter((p) => p.hook_event_name === 'Stop');
    expect(queued!.prompt).toBe('queued prompt');
    expect(firstStop!.prompt_id).toBe(first!.prompt_id);
    expect(queued!.prompt_id).toBe(first!.prompt_id); // repeated, not a new turn identity
    expect(queuedStop!.prompt_id).not.toBe(first!.prompt_id);
    expect(queuedStop!.last_assistant_message).toBe('second reply');
    expect(model.countOccurrences('queued prompt')).toBe(1);
  }, 120_000);

  it('a turn that never ends keeps the TUI working; Escape interrupts it and no Stop hook fires; a 300-line flood reply then completes', async () => {
    const { home, cwd, dispose } = tempAgentHome('real-claude-hang-');
    cleanups.push(dispose);
    seedClaudeHome(home, cwd);
    const hooks = join(home, 'hooks');
    const settings = recordingHookSettings(hooks, ['UserPromptSubmit', 'Stop']);
    const model = teardown.model(await startFakeModel({ steps: [hang('partial answer'), flood(300, 80)] }));
    const agent = teardown.agent(startPtyAgent({ argv: [clis.bin('claude'), '--settings', settings], cwd, env: claudeEnv(model.url, home, clis.withPath().PATH!) }));
    await agent.waitForScreen((screen) => screen.includes('❯'), 'input box', 45_000);
    await agent.submit('never-ending turn please');
    await waitForHook(hooks, 'UserPromptSubmit');
    await model.waitForRequest((r) => r.main, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await agent.screen()).join('\n')).toContain('esc to interrupt');
    expect(readHookPayloads(hooks).map((p) => p.hook_event_name)).toEqual(['UserPromptSubmit']);

    await agent.session.write('\x1b');
    const interrupted = await agent.waitForScreen((screen) => !screen.includes('esc to interrupt'), 'the interrupted turn', 15_000);
    expect(interrupted).toContain('Interrupted');
    // An interrupted turn fires no Stop hook: hook-derived working state must not wait for one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(readHookPayloads(hooks).map((p) => p.hook_event_name)).toEqual(['UserPromptSubmit']);

    await agent.submit('now flood');
    await until(() => readHookPayloads(hooks).some((p) => p.hook_event_name === 'Stop' && String(p.last_assistant_message).includes('flood line 300')), 'the flood turn to stop');
    expect(model.countOccurrences('never-ending turn please')).toBe(1);
    expect(model.countOccurrences('now flood')).toBe(1);
  }, 120_000);
});
