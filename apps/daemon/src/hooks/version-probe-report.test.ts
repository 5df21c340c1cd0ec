import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTOR_START_PROBLEM_KIND } from '@cccc/ipc-protocol';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { events, runtimeFixture } from '../../test-support/daemon-fixture.js';
import { hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { probeClaudeHooks } from './hook-launch.js';

/** A `claude` on a PATH whose `--version` runs `versionScript`; anything else is the fake agent. */
function brokenClaude(binDir: string, versionScript: string): string {
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, 'claude');
  const [node, script] = fakeAgentArgv();
  writeFileSync(path, `#!/bin/sh\nif [ "$1" = "--version" ]; then\n${versionScript}\nfi\nexec '${node}' '${script}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('a failed claude version probe is reported, and the actor runs without hooks', () => {
  let fx: Awaited<ReturnType<typeof runtimeFixture>> | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('group_start: start_warning with exit code and output; actor_list and the ledger show it', async () => {
    fx = await hookedRuntimeFixture();
    const claude = brokenClaude(join(fx.home, 'bin'), `echo "Error: Cannot find module '@anthropic-ai/claude-code/cli.js'" >&2\nexit 7`);
    const { group_id } = await fx.client.call('group_create', { title: 'probe' });
    const scope = join(fx.home, 'scope');
    mkdirSync(scope, { recursive: true });
    await fx.client.call('attach', { path: scope, group_id });
    await fx.client.call('actor_add', { group_id, actor_id: 'peer1', runtime: 'custom', command: [claude] });

    const res = await fx.client.call('group_start', { group_id });
    expect(res.failed).toEqual([]);
    const [peer] = res.start_results!;
    expect(peer).toMatchObject({
      actor_id: 'peer1',
      running: true,
      start_warning: { code: 'version_probe_failed', exit_code: 7, signal: null, output_tail: ["Error: Cannot find module '@anthropic-ai/claude-code/cli.js'"] },
    });
    expect(peer!.start_warning!.message).toBe('`claude --version` exited 7; the actor runs without CCCC hooks');
    expect(peer!.start_error).toBeUndefined();

    const listed = (await fx.client.call('actor_list', { group_id })).actors[0]!;
    expect(listed).toMatchObject({ running: true, start_warning: { code: 'version_probe_failed' } });
    expect(listed.start_failure).toBeUndefined();
    const problems = events(fx, group_id).filter((e) => e.kind === ACTOR_START_PROBLEM_KIND);
    expect(problems.map((e) => [e.data['actor_id'], e.data['running'], e.data['code'], e.data['exit_code']])).toEqual([['peer1', true, 'version_probe_failed', 7]]);
    expect(fx.services.runtimes.get(group_id, 'peer1')?.session?.exited).toBe(false);
  });

  it('a probe that hangs is cut off after 3 s and reported as not answering', async () => {
    fx = await hookedRuntimeFixture();
    const claude = brokenClaude(join(fx.home, 'bin'), 'exec sleep 30');
    const outcome = await probeClaudeHooks({ argv: [claude], cwd: fx.home, env: process.env as Record<string, string> });
    expect(outcome.supported).toBe(false);
    expect(outcome.problem).toMatchObject({ code: 'version_probe_failed', exit_code: null, signal: 'SIGTERM' });
    expect(outcome.problem!.message).toBe('`claude --version` did not answer within 3 s; the actor runs without CCCC hooks');
  });
});
