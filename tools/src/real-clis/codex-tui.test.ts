import { expect, it } from 'vitest';
import { reply, startFakeModel } from '../fake-model/index.js';
import { codexEnv, codexProviderArgs, describeWithRealClis, startPtyAgent, tempAgentHome } from './index.js';
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
});
