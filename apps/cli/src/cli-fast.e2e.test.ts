import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, useDaemonHome, type CliRun } from './e2e-harness.js';

// The `cccc ping|send|reply` fast path (bin/cccc.js → dist/cli-fast.cjs) against the full CLI
// (dist/cli.cjs, commander) on the same inputs and the same real daemon: stdout, stderr and exit
// code must match byte for byte once what differs between two calls anyway is masked (event ids
// and timestamps, the measured ping time).

const run = promisify(execFile);
const FULL = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
const REPO = resolve(dirname(BIN), '../../..');
const h = useDaemonHome();

async function exec(argv: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<CliRun> {
  const { CCCC_ACTOR_ID: _ignored, ...rest } = process.env;
  try {
    const { stdout, stderr } = await run(argv[0]!, argv.slice(1), { env: { ...rest, CCCC_HOME: h.home(), ...env }, cwd, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr };
  }
}

/** What two identical calls print differently: ids, timestamps, the measured round trip. */
function mask(text: string): string {
  return text
    .replace(/[0-9a-f]{32}/g, '<id>')
    .replace(/\[[0-9a-f]{8}\]/g, '[<id8>]')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<ts>')
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, '<ts>')
    .replace(/ in \d+\.\d ms$/gm, ' in <ms> ms');
}

/** Run `args` through the full CLI and through the bin shim; they must print the same. */
async function same(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const full = await exec([process.execPath, FULL, ...args], env);
  const fast = await exec([process.execPath, BIN, ...args], env);
  const masked = (r: CliRun) => ({ code: r.code, stdout: mask(r.stdout), stderr: mask(r.stderr) });
  expect(masked(fast), `cccc ${args.join(' ')}`).toEqual(masked(full));
  return fast;
}

async function newGroup(): Promise<string> {
  const { group_id } = await h.json<{ group_id: string }>(['group', 'create', '--title', 'fast']);
  await h.json(['actor', 'add', 'peer1', '--group', group_id, '--runtime', 'custom', '--command', '/bin/cat']);
  await h.json(['actor', 'add', 'peer2', '--group', group_id, '--runtime', 'custom', '--command', '/bin/cat']);
  return group_id;
}

const scratch = mkdtempSync(join(tmpdir(), 'cccc-fast-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('cccc ping|send|reply fast path = full CLI', () => {
  it('ping, text and JSON', async () => {
    expect((await same(['ping'])).stdout).toMatch(/^pong from cccc-ts /);
    expect(JSON.parse((await same(['ping', '--json'])).stdout).implementation).toBe('cccc-ts');
  });

  it('send and reply: every option, defaults from active.json and CCCC_ACTOR_ID, daemon errors', async () => {
    const gid = await newGroup();
    expect((await same(['send', 'hello'])).stderr).toMatch(/^error: no_active_group: /);
    await same(['send', 'hello', '--json']);
    const sent = await same(['send', 'hi there\nsecond line', '--group', gid, '--to', 'peer1, peer2', '--to=@foreman']);
    expect(sent.stdout).toContain('user → peer1,peer2,@foreman (send)');
    await same(['send', '--group=' + gid, 'mail me', '--mode', 'mail', '--insight=because', '--by', 'peer1', '--json']);
    await same(['send', 'ask', '--group', gid, '--mode=request-reply', '--to', 'peer1']);
    await same(['send', 'mixed', '--group', gid, '--to', 'user,@all']);
    await same(['send', 'mixed', '--group', gid, '--to', 'user,@all', '--json']);
    await same(['send', 'no such group', '--group', 'g_000000000000']);
    await same(['send', 'as agent', '--group', gid, '--to', 'user'], { CCCC_ACTOR_ID: 'peer2' });
    await same(['send', 'blank by', '--group', gid, '--by=', '--to', 'peer1'], { CCCC_ACTOR_ID: ' peer1 ' });
    await h.cccc(['use', gid]);
    await same(['send', 'to the active group', '--to', 'peer1']);
    await same(['send', 'blank group means active', '--group=', '--json']);

    const first = (await h.json<{ event: { id: string } }>(['send', 'question', '--group', gid, '--to', 'peer1'])).event.id;
    await same(['reply', first, 'answer']);
    await same(['reply', first, 'answer by mail', '--mode', 'mail', '--to', 'peer2', '--insight', 'x', '--json']);
    await same(['reply', 'nope', 'answer']);
    await same(['reply', 'nope', 'answer', '--json']);
  });

  it('a broken active.json and an unreachable daemon fail alike', async () => {
    writeFileSync(join(h.home(), 'active.json'), '{"active_group_id": ');
    await same(['send', 'hi']);
    writeFileSync(join(h.home(), 'active.json'), '{"v": 1.5, "active_group_id": "g_x"}');
    await same(['send', 'hi']);
    writeFileSync(join(h.home(), 'active.json'), '[]');
    await same(['send', 'hi', '--json']);
    const nowhere = { CCCC_HOME: join(scratch, 'no-daemon') };
    expect((await same(['ping'], nowhere)).stderr).toMatch(/cannot connect to the CCCC daemon/);
    await same(['ping', '--json'], nowhere);
    await same(['send', 'hi', '--group', 'g_1', '--json'], nowhere);
  });

  it('command lines the fast path does not take still get the full CLI', async () => {
    for (const args of [['send'], ['send', 'hi', '--mode', 'loud'], ['ping', 'extra'], ['reply', 'x', 'y', '--mode', 'request-reply'], ['send', '--', '-dash']]) {
      const r = await same(args);
      expect(r.code, args.join(' ')).not.toBe(0);
    }
    expect((await same(['send', '--help'])).stdout).toMatch(/^Usage: cccc send/);
    expect((await same(['ping', '-h'])).stdout).toMatch(/^Usage: cccc ping/);
  });

  it('runs through the npm bin symlink (npx --no-install cccc)', async () => {
    const npx = join(dirname(process.execPath), 'npx');
    const viaNpx = await exec([npx, '--no-install', 'cccc', 'ping'], {}, REPO);
    const full = await exec([process.execPath, FULL, 'ping'], {});
    expect(viaNpx.code).toBe(0);
    expect(mask(viaNpx.stdout)).toBe(mask(full.stdout));
    const gid = await newGroup();
    const sendNpx = await exec([npx, '--no-install', 'cccc', 'send', 'via npx', '--group', gid, '--to', 'peer1'], {}, REPO);
    const sendFull = await exec([process.execPath, FULL, 'send', 'via npx', '--group', gid, '--to', 'peer1'], {});
    expect({ ...sendNpx, stdout: mask(sendNpx.stdout) }).toEqual({ ...sendFull, stdout: mask(sendFull.stdout) });
  });
});
