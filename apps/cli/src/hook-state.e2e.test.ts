import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpRouter, type OpArgs } from '@cccc/ipc-protocol';
import { IpcServer, daemonPaths } from '@cccc/ipc-protocol/node';
import { BIN } from './e2e-harness.js';

let home: string;
let server: IpcServer | undefined;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cccc-hookstate-'));
});
afterEach(async () => {
  await server?.[Symbol.asyncDispose]();
  server = undefined;
  rmSync(home, { recursive: true, force: true });
});

const identity = () => ({ CCCC_HOME: home, CCCC_GROUP_ID: 'g_1', CCCC_ACTOR_ID: 'peer1', CCCC_HOOK_LAUNCH_TOKEN: 'tok' });
const SECRET = 'PRIVATE-TEXT';
const payload = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 's1',
  prompt_id: 'p1',
  tool_use_id: 'tu1',
  tool_name: 'Bash',
  tool_input: { command: SECRET },
  prompt: SECRET,
  transcript_path: '/x',
});

function hook(runtime: string, stdin: string, env: NodeJS.ProcessEnv, extraArgs: string[] = []) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'hook', `${runtime}-state`, ...extraArgs], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    child.stdin.on('error', () => undefined); // the hook may stop reading (oversized input)
    child.stdin.end(stdin);
  });
}

async function fakeDaemon(answer: (args: OpArgs<'runtime_hook_event'>) => { accepted: boolean; reason?: string }) {
  const seen: OpArgs<'runtime_hook_event'>[] = [];
  const router = new OpRouter().register('runtime_hook_event', (args) => {
    seen.push(args);
    return answer(args);
  });
  mkdirSync(join(home, 'daemon'), { recursive: true });
  server = new IpcServer(router);
  await server.listen({ path: daemonPaths(home).sock });
  return seen;
}

const log = () => (existsSync(join(home, 'daemon', 'hook.log')) ? readFileSync(join(home, 'daemon', 'hook.log'), 'utf8') : '');

describe('cccc hook claude-state|codex-state', () => {
  it('hands identity and labels to runtime_hook_event, never prompts or tool inputs', { timeout: 60_000 }, async () => {
    const seen = await fakeDaemon(() => ({ accepted: true }));
    const r = await hook('claude', payload, identity());
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(seen).toEqual([
      {
        group_id: 'g_1',
        actor_id: 'peer1',
        runtime: 'claude',
        launch_token: 'tok',
        payload: { hook_event_name: 'PreToolUse', session_id: 's1', prompt_id: 'p1', tool_use_id: 'tu1', tool_name: 'Bash' },
        // When the hook ran (its process start), never anything the agent sent.
        fired_at_ms: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(seen)).not.toContain(SECRET);
    expect(log()).toBe('');
  });

  it('a fenced-out event is logged, still exit 0 and silent', { timeout: 60_000 }, async () => {
    await fakeDaemon(() => ({ accepted: false, reason: 'launch_token_mismatch' }));
    const r = await hook('codex', payload, identity(), ['stray', '--unknown-flag']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(log()).toMatch(/codex-state: PreToolUse rejected: launch_token_mismatch/);
  });

  it('no daemon, missing identity, bad or oversized input: exit 0, no output, a log line', { timeout: 120_000 }, async () => {
    for (const [stdin, env, expected] of [
      [payload, identity(), /codex-state: /],
      [payload, { ...identity(), CCCC_HOOK_LAUNCH_TOKEN: '' }, /missing CCCC_HOOK_LAUNCH_TOKEN/],
      ['nope', identity(), /not JSON/],
      [JSON.stringify({ hook_event_name: 'Stop' }), identity(), /bad payload: payload.session_id/],
      ['x'.repeat(1024 * 1024 + 1), identity(), /over 1 MiB/],
    ] as const) {
      const r = await hook('codex', stdin, env);
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(log()).toMatch(expected);
    }
  });
});
