import { afterEach, expect, it } from 'vitest';
import { type FakeModel, reply, startFakeModel } from '../fake-model/index.js';
import { codexEnv, codexProviderArgs, describeWithRealClis, type PtyAgent, startPtyAgent, tempAgentHome } from './index.js';

// The real interactive Codex TUI in a node-pty PTY against the fake Responses API.

let model: FakeModel | undefined;
let agent: PtyAgent | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await agent?.kill();
  agent = undefined;
  await model?.close();
  model = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describeWithRealClis('real codex TUI in a PTY', (clis) => {
  it('starts with no prompt first; a typed prompt + Enter reaches the model exactly once and the reply renders', async () => {
    const { home, cwd, dispose } = tempAgentHome('real-codex-tui-');
    cleanups.push(dispose);
    model = await startFakeModel({ steps: [reply('Codex TUI reply 77aa')] });
    agent = startPtyAgent({ argv: [clis.bin('codex'), ...codexProviderArgs(model.url)], cwd, env: { ...codexEnv(home, clis.withPath().PATH!), TERM: 'xterm-256color' } });
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
