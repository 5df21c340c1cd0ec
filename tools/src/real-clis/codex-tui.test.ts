import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callTool, reply, startFakeModel } from '../fake-model/index.js';
import { codexEnv, codexProviderArgs, describeWithRealClis, readHookPayloads, recordingCodexHookArgs, startPtyAgent, tempAgentHome, waitForHook } from './index.js';
import { realCliTeardown } from './test-support.js';

// The real interactive Codex TUI in a node-pty PTY against the fake Responses API.

const teardown = realCliTeardown();
const { cleanups } = teardown;

describeWithRealClis('real codex TUI in a PTY', (clis) => {
  it('starts with no prompt first; a typed prompt + Enter reaches the model exactly once and the reply renders', async () => {
    const { home, cwd, dispose } = tempAgentHome('real-codex-tui-');
    cleanups.push(dispose);
    const model = teardown.model(await startFakeModel({ steps: [reply('Codex TUI reply 77aa')] }));
    const agent = teardown.agent(startPtyAgent({ argv: [clis.bin('codex'), ...codexProviderArgs(model.url)], cwd, env: { ...codexEnv(home, clis.withPath().PATH!), TERM: 'xterm-256color' } }));
    await agent.waitForScreen((screen) => screen.includes('Ask Codex to do anything'), 'the input prompt', 45_000);
    const prompt = 'hello codex tui 4b2c';
    await agent.submit(prompt);
    await agent.waitForScreen((screen) => screen.includes('• Codex TUI reply 77aa'), 'the rendered reply');
    const main = model.requests.filter((r) => r.main);
    expect(main).toHaveLength(1);
    expect(main[0]).toMatchObject({ api: 'responses', path: '/v1/responses', body: { model: 'fake-model', stream: true } });
    expect(model.countOccurrences(prompt)).toBe(1);
  }, 90_000);

  // Codex 0.169.0 no longer accepts approval_policy "untrusted"; with `-a on-request` the model
  // asks for an unsandboxed run (exec_command with sandbox_permissions "require_escalated") and
  // codex puts that question to the user.
  for (const [answer, key] of [['y approves it', 'y'], ['Esc cancels it', '\x1b']] as const) {
    it(`an escalated exec_command waits on the real approval prompt (PermissionRequest without a tool_use_id); ${answer}`, async () => {
      const { home, cwd, dispose } = tempAgentHome('real-codex-approval-');
      cleanups.push(dispose);
      const hooks = join(home, 'hooks');
      const hookArgs = recordingCodexHookArgs(hooks, ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']);
      const escalated = callTool('exec_command', { cmd: 'touch approved-marker', sandbox_permissions: 'require_escalated', justification: 'Create a marker file' });
      const model = teardown.model(await startFakeModel({ steps: [escalated, reply('Marker created')] }));
      const agent = teardown.agent(startPtyAgent({
        argv: [clis.bin('codex'), ...codexProviderArgs(model.url), '-a', 'on-request', '-s', 'workspace-write', ...hookArgs],
        cwd,
        env: { ...codexEnv(home, clis.withPath().PATH!), TERM: 'xterm-256color' },
      }));
      await agent.waitForScreen((screen) => screen.includes('Ask Codex to do anything'), 'the input prompt', 45_000);
      await agent.submit('please create the marker');
      const asking = await agent.waitForScreen((screen) => /Would you like to run the following command\?/.test(screen), 'the approval prompt');
      expect(asking).toMatch(/\$ touch approved-marker[\s\S]*1\. Yes, proceed \(y\)[\s\S]*No, and tell Codex what to do differently \(esc\)/);
      const preToolUse = await waitForHook(hooks, 'PreToolUse');
      const permission = await waitForHook(hooks, 'PermissionRequest');
      expect(preToolUse).toMatchObject({ tool_name: 'Bash', tool_use_id: expect.stringMatching(/^call_/), tool_input: { command: 'touch approved-marker' } });
      expect(permission).toMatchObject({ tool_name: 'Bash', turn_id: preToolUse.turn_id, tool_input: { command: 'touch approved-marker', description: 'Create a marker file' } });
      expect(permission.tool_use_id).toBeUndefined();
      // Waiting: the command has not run and the model was not called again.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(existsSync(join(cwd, 'approved-marker'))).toBe(false);
      expect(model.requests.filter((r) => r.main)).toHaveLength(1);

      await agent.session.write(key);
      if (key === 'y') {
        await agent.waitForScreen((screen) => screen.includes('• Marker created'), 'the reply after approval');
        await waitForHook(hooks, 'Stop');
        expect(existsSync(join(cwd, 'approved-marker'))).toBe(true);
        expect(readHookPayloads(hooks).map((p) => p.hook_event_name)).toEqual(['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']);
        expect(readHookPayloads(hooks).find((p) => p.hook_event_name === 'PostToolUse')).toMatchObject({ tool_use_id: preToolUse.tool_use_id });
        expect(model.requests.filter((r) => r.main)).toHaveLength(2);
      } else {
        // Cancelled: the conversation is interrupted and no hook fires (no PostToolUse, no Stop).
        await agent.waitForScreen((screen) => screen.includes('Conversation interrupted'), 'the interrupted conversation', 15_000);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect(readHookPayloads(hooks).map((p) => p.hook_event_name)).toEqual(['UserPromptSubmit', 'PreToolUse', 'PermissionRequest']);
        expect(existsSync(join(cwd, 'approved-marker'))).toBe(false);
        expect(model.requests.filter((r) => r.main)).toHaveLength(1);
      }
    }, 90_000);
  }
});
