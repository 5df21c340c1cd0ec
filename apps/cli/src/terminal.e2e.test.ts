import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { daemonConfigFromEnv, startDaemon, type RunningDaemon } from '@cccc/daemon';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { ActorTerminal, defaultPtySpawner, stopPtySession, type PtySession } from '@cccc/pty-runtime';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { BIN } from './e2e-harness.js';

// `cccc terminal tail` and `cccc term` against an in-process daemon whose actor terminal the test
// starts itself (a real node-pty fake agent), with the built CLI as a real process.

const run = promisify(execFile);
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let home: string;
let daemon: RunningDaemon;
let terminal: ActorTerminal;
let gid: string;

const env = () => {
  const { CCCC_ACTOR_ID: _ignored, ...rest } = process.env;
  return { ...rest, CCCC_HOME: home } as Record<string, string>;
};

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'cccc-term-e2e-'));
  daemon = await startDaemon(daemonConfigFromEnv({ CCCC_HOME: home }));
  const client = new DaemonClient({ home });
  gid = (await client.call('group_create', { title: 'term-e2e' })).group_id;
  await client.call('attach', { path: mkdtempSync(join(tmpdir(), 'cccc-scope-')), group_id: gid });
  await client.call('actor_add', { group_id: gid, actor_id: 'a1', runtime: 'custom', command: ['sh'] });
  terminal = new ActorTerminal({ actorId: 'a1', spawner: defaultPtySpawner() });
  const session = terminal.start({ argv: fakeAgentArgv(['--no-alt-screen']), env: env(), cwd: tmpdir() });
  daemon.services.runtimes.set(gid, 'a1', terminal);
  await until(() => session.ring.slice(0).toString().includes('fake-agent> '), 'agent prompt');
});

afterAll(async () => {
  const session = terminal?.session;
  if (session && !session.exited) await stopPtySession(session.pty, { graceMs: 500 });
  terminal?.[Symbol.dispose]();
  await daemon?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('cccc terminal tail', () => {
  it("prints the actor's rendered screen; --json is the op result", async () => {
    const { stdout } = await run(process.execPath, [BIN, 'terminal', 'tail', 'a1', '--group', gid], { env: env() });
    expect(stdout).toContain('fake-agent ready');
    expect(stdout).not.toContain('\x1b');
    const json = JSON.parse((await run(process.execPath, [BIN, 'terminal', 'tail', 'a1', '--group', gid, '--max-chars', '12', '--json'], { env: env() })).stdout);
    expect(json).toMatchObject({ group_id: gid, actor_id: 'a1' });
    expect(json.text.length).toBeLessThanOrEqual(12);
    const raw = await run(process.execPath, [BIN, 'terminal', 'tail', 'a1', '--group', gid, '--raw'], { env: env() });
    expect(raw.stdout).toContain('\x1b[');
  });

  it('reports actor_not_running for an actor without a terminal', async () => {
    await new DaemonClient({ home }).call('actor_add', { group_id: gid, actor_id: 'idle', runtime: 'custom', command: ['sh'] });
    const err = await run(process.execPath, [BIN, 'terminal', 'tail', 'idle', '--group', gid], { env: env() }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('actor_not_running');
  });
});

describe('cccc term', () => {
  it('attaches the local terminal in raw mode: input reaches the agent, Ctrl-] detaches with exit 0', async () => {
    const pty: PtySession = defaultPtySpawner()({
      argv: [process.execPath, BIN, 'term', 'a1', '--group', gid],
      env: { ...env(), TERM: 'xterm-256color' },
      cwd: tmpdir(),
      cols: 100,
      rows: 30,
    });
    let out = '';
    pty.onData((d) => (out += Buffer.from(d).toString()));
    const exited = new Promise<number | null>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    await until(() => out.includes('attached to a1') && out.includes('fake-agent>'), 'attach banner and snapshot', 30_000);
    // Resize followed the window through term_resize on a separate connection.
    await until(() => terminal.session!.cols === 100 && terminal.session!.rows === 30, 'PTY resized to the window');
    await pty.write('hello from term\r');
    await until(() => out.includes('received: hello from term'), 'agent echo');
    pty.resize(90, 25);
    await until(() => terminal.session!.cols === 90 && terminal.session!.rows === 25, 'resize follows the window');
    await pty.write('\x1d');
    expect(await exited).toBe(0);
    expect(out).toContain('detached');
    await until(() => terminal.attachments.size === 0, 'attachment released');
  });

  it('gives the terminal back on SIGTERM and releases the attachment', async () => {
    const pty: PtySession = defaultPtySpawner()({ argv: [process.execPath, BIN, 'term', 'a1', '--group', gid, '--viewer'], env: env(), cwd: tmpdir(), cols: 80, rows: 24 });
    let out = '';
    pty.onData((d) => (out += Buffer.from(d).toString()));
    const exited = new Promise<number | null>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    await until(() => out.includes('read-only'), 'viewer banner', 30_000);
    await until(() => terminal.attachments.size === 1, 'attached');
    expect(terminal.session!.cols).not.toBe(80); // a viewer never resizes the shared PTY
    pty.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('\x1b[?2004l');
    await until(() => terminal.attachments.size === 0, 'attachment released');
  });
});
