import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { BIN, until } from './e2e-harness.js';

// The CLI entry agents run, through every way a user starts the daemon. Each mode is a real,
// separate daemon process in its own CCCC_HOME with a `claude` and a `codex` actor (the scripted
// fake agent installed under those names); the launches must carry the hook settings and the MCP
// wiring, both naming the CLI's bin shim, and the hooks must really run (SessionStart reaches the
// daemon). Before the CLI handed its entry over, a daemon run through an npm bin symlink
// (`node_modules/.bin/cccc`, a global `cccc`, `npx cccc`) saw argv[1] = the link, failed the
// `cccc.js|cli.js` match and launched both agents without hooks and MCP, silently; and ping's
// `executable` was the node binary in every mode.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const REPO = resolve(dirname(BIN), '../../..');
const CLI_PKG = dirname(dirname(BIN));
/** What the daemon must hand its agents and report: the shim, symlinks resolved. */
const ENTRY = realpathSync(BIN);

let root = '';
const children: ChildProcess[] = [];
const daemonPids: number[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cccc-entry-'));
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) killGroup(child.pid!);
  for (const pid of daemonPids) killGroup(pid);
  rmSync(root, { recursive: true, force: true });
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** A fresh CCCC_HOME and the environment a user's shell would give the CLI. */
function modeEnv(name: string, pathFirst: string[] = []): { home: string; env: NodeJS.ProcessEnv } {
  const home = join(root, name, 'home');
  mkdirSync(home, { recursive: true });
  const { CCCC_ACTOR_ID: _a, CCCC_GROUP_ID: _g, ...rest } = process.env;
  const path = [...pathFirst, dirname(process.execPath), rest.PATH ?? ''].join(delimiter);
  return { home, env: { ...rest, PATH: path, CCCC_HOME: home, CCCC_STOP_GRACE_MS: '500', CCCC_CODEX_MANAGED: '0' } };
}

/** A long-running CLI process in its own process group (killed with the group after the file). */
function launch(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = root): ChildProcess & { output: () => string } {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  return Object.assign(child, { output: () => output });
}

async function pingOf(home: string, what: string) {
  const client = new DaemonClient({ home, timeoutMs: 2000, connectAttempts: 1 });
  return until(() => client.call('ping', {}).catch(() => undefined), `${what}: daemon ping`);
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const argvOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);

type HookGroups = Record<string, Array<{ hooks: Array<{ command: string }> }>>;

/**
 * Start a `claude` and a `codex` actor on the daemon of `home`, wait until both agents' hooks
 * have reported SessionStart, and check what their launches carried.
 */
async function expectHookedAndWired(home: string): Promise<void> {
  const client = new DaemonClient({ home });
  const { group_id: gid } = await client.call('group_create', { title: 'entry' });
  const scope = join(home, 'scope');
  mkdirSync(scope, { recursive: true });
  await client.call('attach', { path: scope, group_id: gid });
  const bin = join(home, 'agents');
  await client.call('actor_add', { group_id: gid, actor_id: 'cl', runtime: 'claude', command: [installFakeAgentAs(bin, 'claude')] });
  await client.call('actor_add', {
    group_id: gid,
    actor_id: 'cx',
    runtime: 'codex',
    command: [installFakeAgentAs(bin, 'codex')],
    env: { FAKE_AGENT_AS: 'codex' },
  });
  await client.call('group_start', { group_id: gid });

  for (const [aid, rt] of [['cl', 'claude'], ['cx', 'codex']] as const) {
    const key = actorHookKey(gid, aid);
    const launchFile = join(home, 'daemon', 'runtime-hook-launch', `${key}.json`);
    const record = await until(() => existsSync(launchFile) && readJson(launchFile), `${rt} launch record`);
    expect(record, `${rt} launch record`).toMatchObject({ runtime: rt, hook_enabled: true });
    // The hook command really runs through the handed-over entry: SessionStart reached the daemon.
    const stateFile = join(home, 'daemon', `${rt}-hook-state`, `${key}.json`);
    await until(() => existsSync(stateFile) && readJson(stateFile).session_id, `${rt} SessionStart through the hook`);

    const argv = argvOf(record.pid);
    if (rt === 'claude') {
      const settings = JSON.parse(argv[argv.indexOf('--settings') + 1]!) as { hooks: HookGroups };
      const hook = settings.hooks['SessionStart']!.at(-1)!.hooks[0]!.command;
      expect(hook).toBe(`'${process.execPath}' '${ENTRY}' hook claude-state`);
      const mcp = JSON.parse(argv[argv.indexOf('--mcp-config') + 1]!) as { mcpServers: Record<string, { command: string; args: string[] }> };
      expect(mcp.mcpServers['cccc']).toMatchObject({ command: process.execPath, args: [ENTRY, 'mcp'] });
    } else {
      const overrides = argv.filter((_, i) => argv[i - 1] === '-c');
      const sessionStart = overrides.find((o) => o.startsWith('hooks.SessionStart='));
      expect(sessionStart, 'codex -c hooks.SessionStart').toContain(`hook codex-state`);
      expect(sessionStart).toContain(ENTRY);
      expect(overrides).toContain(`mcp_servers.cccc.args=[${JSON.stringify(ENTRY)}, "mcp"]`);
      expect(overrides).toContain(`mcp_servers.cccc.command=${JSON.stringify(process.execPath)}`);
    }
  }
}

async function expectPingNamesEntry(home: string, what: string): Promise<number> {
  const ping = await pingOf(home, what);
  expect(ping.implementation).toBe('cccc-ts');
  expect(ping.compatibility).toBe('cccc-ipc-v1');
  expect(ping.executable).toBe(ENTRY);
  daemonPids.push(ping.pid);
  return ping.pid;
}

async function shutdown(home: string, pid: number): Promise<void> {
  await new DaemonClient({ home }).call('shutdown', { expected_pid: pid });
  await until(() => !existsSync(`/proc/${pid}`), 'daemon exit', 20_000);
}

describe('the CLI entry a daemon hands its agents, by how the daemon was started', () => {
  it('node_modules/.bin/cccc, linked exactly as npm links a workspace bin', async () => {
    const { home, env } = modeEnv('npm-bin');
    const modules = join(root, 'npm-bin', 'project', 'node_modules');
    mkdirSync(join(modules, '.bin'), { recursive: true });
    mkdirSync(join(modules, '@cccc'), { recursive: true });
    symlinkSync(CLI_PKG, join(modules, '@cccc', 'cli'));
    symlinkSync('../@cccc/cli/bin/cccc.js', join(modules, '.bin', 'cccc'));
    const daemon = launch(join(modules, '.bin', 'cccc'), ['daemon', 'run'], env, dirname(modules));
    const pid = await expectPingNamesEntry(home, 'npm bin');
    expect(pid).toBe(daemon.pid);
    await expectHookedAndWired(home);
    await shutdown(home, pid);
  });

  it('a global `cccc` on PATH (<prefix>/bin/cccc -> ../lib/node_modules/@cccc/cli/bin/cccc.js)', async () => {
    const prefix = join(root, 'global', 'prefix');
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    mkdirSync(join(prefix, 'lib', 'node_modules', '@cccc'), { recursive: true });
    symlinkSync(CLI_PKG, join(prefix, 'lib', 'node_modules', '@cccc', 'cli'));
    symlinkSync('../lib/node_modules/@cccc/cli/bin/cccc.js', join(prefix, 'bin', 'cccc'));
    const { home, env } = modeEnv('global', [join(prefix, 'bin')]);
    launch('cccc', ['daemon', 'run'], env);
    const pid = await expectPingNamesEntry(home, 'global bin');
    await expectHookedAndWired(home);
    await shutdown(home, pid);
  });

  it('npx --no-install cccc daemon run, from the repository root', async () => {
    const { home, env } = modeEnv('npx');
    launch('npx', ['--no-install', 'cccc', 'daemon', 'run'], env, REPO);
    const pid = await expectPingNamesEntry(home, 'npx');
    await expectHookedAndWired(home);
    await shutdown(home, pid);
  });

  it('node apps/cli/bin/cccc.js daemon run', async () => {
    const { home, env } = modeEnv('node-bin');
    const daemon = launch(process.execPath, ['apps/cli/bin/cccc.js', 'daemon', 'run'], env, REPO);
    const pid = await expectPingNamesEntry(home, 'node bin');
    expect(pid).toBe(daemon.pid);
    await expectHookedAndWired(home);
    await shutdown(home, pid);
  });

  it('cccc daemon start (a detached `daemon run`)', async () => {
    const { home, env } = modeEnv('start');
    const start = launch(process.execPath, [BIN, 'daemon', 'start'], env);
    await until(() => start.exitCode !== null, 'daemon start to return');
    expect(start.exitCode, start.output()).toBe(0);
    const pid = await expectPingNamesEntry(home, 'daemon start');
    await expectHookedAndWired(home);
    await shutdown(home, pid);
  });

  it('bare `cccc` (daemon + Web), run in the background', async () => {
    const { home, env } = modeEnv('bare');
    // The Web on a free port of its own (CCCC_WEB_PORT), so this never contends for 8848.
    const port = await freeTcpPort();
    const bare = launch(process.execPath, [BIN], { ...env, CCCC_WEB_PORT: String(port) });
    await until(() => bare.output().includes(`CCCC is running. Web: http://127.0.0.1:${port}/`), 'bare cccc to start its daemon and Web');
    expect(bare.output()).toMatch(/daemon {2}pid \d+ \(started\)/);
    const pid = await expectPingNamesEntry(home, 'bare cccc');
    await expectHookedAndWired(home);
    if (bare.exitCode === null) bare.kill('SIGTERM');
    await shutdown(home, pid);
  });
});

/** A TCP port nothing listens on right now (the kernel's pick, released at once). */
function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
