import { afterEach, expect, it } from 'vitest';
import { callBash, reply, startFakeModel, type FakeModel, userInputsOf } from '../fake-model/index.js';
import { claudeEnv, codexEnv, codexProviderArgs, describeWithRealClis, opencodeEnv, runBounded, tempAgentHome, writeOpencodeConfig } from './index.js';

// One turn each of the real `claude -p`, `codex exec` and `opencode run` against the fake model.

let model: FakeModel | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await model?.close();
  model = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setUp() {
  const dirs = tempAgentHome();
  cleanups.push(dirs.dispose);
  return dirs;
}

describeWithRealClis('real claude -p against the fake Messages API', (clis) => {
  it('prints the scripted reply; the model received the prompt exactly once', async () => {
    const { home, cwd } = setUp();
    model = await startFakeModel({ steps: [reply('Scripted answer from the fake model')] });
    const prompt = 'one-shot prompt 7f3a';
    const run = await runBounded(clis.bin('claude'), ['-p', prompt], { cwd, env: claudeEnv(model.url, home, clis.withPath().PATH!), timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('Scripted answer from the fake model');
    const main = model.requests.filter((r) => r.main);
    expect(main).toHaveLength(1);
    expect(main[0]).toMatchObject({ api: 'anthropic', path: '/v1/messages', query: '?beta=true', body: { stream: true } });
    expect(main[0]!.headers['x-api-key']).toBe('<redacted>');
    expect(model.countOccurrences(prompt)).toBe(1);
  }, 90_000);

  it('runs a scripted Bash call and sends its output back as a tool_result', async () => {
    const { home, cwd } = setUp();
    model = await startFakeModel({ steps: [callBash('echo bash-ran-$((6*7))', 'Print a marker'), reply('The command printed 42')] });
    const run = await runBounded(clis.bin('claude'), ['-p', 'run the marker command', '--allowedTools', 'Bash(echo:*)'], {
      cwd,
      env: claudeEnv(model.url, home, clis.withPath().PATH!),
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('The command printed 42');
    const main = model.requests.filter((r) => r.main);
    expect(main).toHaveLength(2);
    expect(userInputsOf(main[1]!).join('\n')).toContain('bash-ran-42');
    expect(model.countOccurrences('run the marker command')).toBe(1);
  }, 90_000);
});

describeWithRealClis('real codex exec against the fake Responses API', (clis) => {
  it('prints the scripted reply; the model received the prompt exactly once', async () => {
    const { home, cwd } = setUp();
    model = await startFakeModel({ steps: [reply('Scripted answer for Codex')] });
    const prompt = 'codex one-shot prompt 91c2';
    const run = await runBounded(clis.bin('codex'), ['exec', '--skip-git-repo-check', ...codexProviderArgs(model.url), prompt], {
      cwd,
      env: codexEnv(home, clis.withPath().PATH!),
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('Scripted answer for Codex');
    const main = model.requests.filter((r) => r.main);
    expect(main).toHaveLength(1);
    expect(main[0]).toMatchObject({ api: 'responses', path: '/v1/responses', body: { model: 'fake-model', stream: true } });
    expect(model.countOccurrences(prompt)).toBe(1);
  }, 90_000);
});

describeWithRealClis('real opencode run against fake chat completions (custom OpenAI-compatible provider)', (clis) => {
  it('prints the scripted reply; the model received the prompt exactly once; the title request is a side request', async () => {
    const { home, cwd } = setUp();
    model = await startFakeModel({ steps: [reply('Scripted answer for opencode')] });
    writeOpencodeConfig(cwd, model.url);
    const prompt = 'opencode one-shot prompt 5d0e';
    const run = await runBounded(clis.bin('opencode'), ['run', prompt], { cwd, env: opencodeEnv(home, clis.withPath().PATH!), timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('Scripted answer for opencode');
    const main = model.requests.filter((r) => r.main);
    expect(main).toHaveLength(1);
    expect(main[0]).toMatchObject({ api: 'chat', path: '/v1/chat/completions', body: { model: 'fake-model', stream: true } });
    // The session title is a side request opencode makes in the background: a run that ends
    // first (a loaded machine) never sends it, so it is checked only for what it is when sent.
    for (const side of model.requests.filter((r) => !r.main)) expect(side).toMatchObject({ api: 'chat', path: '/v1/chat/completions' });
    expect(model.countOccurrences(prompt)).toBe(1);
  }, 120_000);
});
