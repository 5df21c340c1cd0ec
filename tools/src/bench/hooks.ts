// Hooks section (issue 7): `cccc hook claude-state` wall time per invocation (the agent waits on
// it at every tool call; target <= 60 ms) beside a bare `node -e 0` started the same way in the
// same run, and hook event -> visible in runtime_activity_snapshot (target <= 50 ms), against a
// real daemon process whose fake-agent actor (installed as `claude`) holds a hooked launch.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { startBenchDaemon } from './ping.js';
import { rawCall } from './raw-call.js';
import { fmt, printTable } from './stats.js';

const require = createRequire(import.meta.url);

const pct = (samples: number[], q: number): number => {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** Wall time of one process from spawn to exit, with `stdin` piped in. */
function timedRun(argv: string[], env: NodeJS.ProcessEnv, stdin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - t));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

function firstJson(dir: string): Record<string, unknown> | null {
  if (!existsSync(dir)) return null;
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.json'));
  return file ? (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>) : null;
}

async function until<T>(probe: () => T | null | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (performance.now() > deadline) throw new Error(`hooks bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A Claude PreToolUse / PostToolUse payload as Claude Code sends it (tool input and all). */
function toolPayload(event: 'PreToolUse' | 'PostToolUse', sessionId: string, toolUseId: string, cwd: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: `/home/user/.claude/projects/-bench/${sessionId}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: 'Bash',
    tool_use_id: toolUseId,
    tool_input: { command: 'npm test -- --run src/bench.test.ts', description: 'Run the tests' },
    ...(event === 'PostToolUse' ? { tool_response: { stdout: 'ok\n'.repeat(20), stderr: '', interrupted: false, isImage: false } } : {}),
  });
}

export async function benchHooks(invocations = 40, events = 200): Promise<void> {
  const cli = require.resolve('@cccc/cli/bin/cccc.js');
  const daemon = await startBenchDaemon();
  const client = new DaemonClient({ home: daemon.home });
  try {
    const gid = (await client.call('group_create', { title: 'bench-hooks' })).group_id;
    const scope = join(daemon.home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id: gid });
    const bin = join(daemon.home, 'bin');
    mkdirSync(bin, { recursive: true });
    const [node, script] = fakeAgentArgv();
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec '${node}' '${script}' "$@"\n`);
    chmodSync(join(bin, 'claude'), 0o755);
    await client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: [join(bin, 'claude')] });
    await client.call('actor_start', { group_id: gid, actor_id: 'peer1' });
    const launch = await until(() => firstJson(join(daemon.home, 'daemon', 'runtime-hook-launch')), 30_000, 'the hooked launch');
    const state = await until(() => {
      const s = firstJson(join(daemon.home, 'daemon', 'claude-hook-state'));
      return s?.session_id ? s : null;
    }, 30_000, 'SessionStart');
    const sessionId = String(state.session_id);
    const token = String(launch.launch_token);
    const env = { PATH: process.env.PATH, CCCC_HOME: daemon.home, CCCC_GROUP_ID: gid, CCCC_ACTOR_ID: 'peer1', CCCC_HOOK_LAUNCH_TOKEN: token };
    let seq = 0;

    // 1. Invocation wall time, interleaved with the baseline so both see the same machine load.
    const hook: number[] = [];
    const bare: number[] = [];
    // The same entry without an identity exits right after loading: what loading alone costs.
    const loadOnly: number[] = [];
    const noIdentity = { PATH: process.env.PATH, CCCC_HOME: join(daemon.home, 'none') };
    for (let i = 0; i < invocations + 5; i++) {
      const id = `toolu_bench_${++seq}`;
      const b = await timedRun([process.execPath, '-e', '0'], env, toolPayload('PreToolUse', sessionId, id, scope));
      const pre = await timedRun([process.execPath, cli, 'hook', 'claude-state'], env, toolPayload('PreToolUse', sessionId, id, scope));
      const post = await timedRun([process.execPath, cli, 'hook', 'claude-state'], env, toolPayload('PostToolUse', sessionId, id, scope));
      const load = await timedRun([process.execPath, cli, 'hook', 'claude-state'], noIdentity, toolPayload('PostToolUse', sessionId, id, scope));
      if (i < 5) continue; // warm-up: page cache, daemon JIT
      bare.push(b);
      hook.push(pre, post);
      loadOnly.push(load);
    }
    const hookLog = join(daemon.home, 'daemon', 'hook.log');
    const rejected = existsSync(hookLog) ? readFileSync(hookLog, 'utf8').split('\n').filter(Boolean).length : 0;
    if (rejected > 0) throw new Error(`hooks bench: ${rejected} hook invocations were not accepted (see ${hookLog})`);

    // 2. Event -> visible: the daemon's answer to runtime_hook_event means committed; then the
    //    first snapshot must show it.
    const visible: number[] = [];
    const committed: number[] = [];
    const snapshotted: number[] = [];
    const call = (op: string, args: unknown) => rawCall(daemon.endpoint, JSON.stringify({ v: 1, op, args }) + '\n');
    for (let i = 0; i < events + 10; i++) {
      const id = `toolu_bench_${++seq}`;
      const payload = { hook_event_name: 'PreToolUse', session_id: sessionId, tool_use_id: id, tool_name: 'Bash' };
      const t = performance.now();
      const answer = JSON.parse(await call('runtime_hook_event', { group_id: gid, actor_id: 'peer1', runtime: 'claude', launch_token: token, payload }));
      if (answer.result?.accepted !== true) throw new Error(`hooks bench: event not accepted: ${JSON.stringify(answer)}`);
      const tCommitted = performance.now();
      for (;;) {
        const snap = JSON.parse(await call('runtime_activity_snapshot', { group_id: gid }));
        if ((snap.result?.events as Array<{ operation_id: string | null }>).some((e) => e.operation_id === id)) break;
      }
      const ms = performance.now() - t;
      if (i >= 10) {
        committed.push(tCommitted - t);
        snapshotted.push(performance.now() - tCommitted);
      }
      await call('runtime_hook_event', {
        group_id: gid,
        actor_id: 'peer1',
        runtime: 'claude',
        launch_token: token,
        payload: { ...payload, hook_event_name: 'PostToolUse' },
      });
      if (i >= 10) visible.push(ms);
    }

    const h50 = pct(hook, 0.5);
    const b50 = pct(bare, 0.5);
    printTable('hooks: `cccc hook claude-state` wall time per invocation (spawn to exit, accepted by a real daemon)', [
      { process: 'node -e 0 (baseline, same run)', p50: fmt(b50), p95: fmt(pct(bare, 0.95)), n: bare.length, target: '' },
      { process: 'node cccc.js hook claude-state', p50: fmt(h50), p95: fmt(pct(hook, 0.95)), n: hook.length, target: '<= 60 ms' },
      { process: '  of which loading (no identity: exits before connecting)', p50: fmt(pct(loadOnly, 0.5)), p95: fmt(pct(loadOnly, 0.95)), n: loadOnly.length, target: '' },
      { process: 'hook - baseline (p50)', p50: fmt(h50 - b50), p95: '', n: '', target: '' },
      { process: 'hook / baseline (p50)', p50: `${(h50 / b50).toFixed(2)}x`, p95: '', n: '', target: '' },
    ]);
    printTable('hooks: hook event -> visible in runtime_activity_snapshot (runtime_hook_event + first snapshot showing it)', [
      { path: 'PreToolUse -> tool record in snapshot', p50: fmt(pct(visible, 0.5)), p95: fmt(pct(visible, 0.95)), n: visible.length, target: '<= 50 ms' },
      { path: '  of which runtime_hook_event (answered = committed)', p50: fmt(pct(committed, 0.5)), p95: fmt(pct(committed, 0.95)), n: committed.length, target: '' },
      { path: '  of which runtime_activity_snapshot showing it', p50: fmt(pct(snapshotted, 0.5)), p95: fmt(pct(snapshotted, 0.95)), n: snapshotted.length, target: '' },
    ]);
    await client.call('actor_stop', { group_id: gid, actor_id: 'peer1' });
  } finally {
    await daemon.stop();
  }
}
