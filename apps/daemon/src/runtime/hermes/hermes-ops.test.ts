import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OpRouter, opCatalog } from '@cccc/ipc-protocol';
import { registerHermesOps } from '../../ops/hermes.js';
import { runFinite } from './finite-command.js';
import { hermesHome } from './hermes-status.js';

// The runtime_hermes_* ops against real files and processes: no Hermes CLI (what this machine
// has: the npm bridge cannot download its Python runtime), a Hermes profile whose config names
// the cccc MCP server, and a scripted `hermes` on PATH that mcp_test really runs.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(options: { hermesScript?: string } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'hermes-ops-'));
  dirs.push(root);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  if (options.hermesScript) {
    writeFileSync(join(bin, 'hermes'), `#!/bin/sh\n${options.hermesScript}\n`);
    chmodSync(join(bin, 'hermes'), 0o755);
  }
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: join(root, 'user') };
  const cli = { node: '/usr/bin/node', cliEntry: '/opt/cccc/bin/cccc.js' };
  const router = new OpRouter();
  registerHermesOps(router, { home: join(root, 'cccc-home'), cli, env });
  const call = async <O extends 'runtime_hermes_status' | 'runtime_hermes_prepare' | 'runtime_hermes_mcp_test'>(op: O, args: Record<string, unknown> = {}) => {
    const { response } = await router.dispatch({ v: 1, op, args });
    expect(response.ok).toBe(true);
    // Every answer is the spec's shape.
    expect(opCatalog[op].result.safeParse(response.result).error).toBeUndefined();
    return response.result as Record<string, any>;
  };
  return { root, env, call };
}

describe('runtime_hermes_* without a Hermes CLI', () => {
  it('status reports the CLI unavailable and the default profile under ~/.hermes; prepare and mcp_test fail hermes_cli_missing and write nothing', async () => {
    const { env, call } = setup();
    const status = await call('runtime_hermes_status');
    expect(status).toMatchObject({
      runtime: 'hermes',
      setup_ready: false,
      auth_ready: false,
      launch_ready: false,
      hermes_cli: { available: false },
      hermes_home: join(env.HOME, '.hermes'),
      profile: { name: 'default', dir: join(env.HOME, '.hermes'), exists: false, config_exists: false },
    });
    expect(status.issues).toEqual(['hermes_cli_missing', 'profile_missing', 'config_missing', 'cccc_mcp_config_not_ready', 'auth_missing']);
    const prepared = await call('runtime_hermes_prepare', { yes: true });
    expect(prepared).toMatchObject({ ok: false, error: { code: 'hermes_cli_missing' }, status: { hermes_cli: { available: false } } });
    expect(prepared.commands_run).toBeUndefined();
    expect(await call('runtime_hermes_mcp_test')).toEqual({ ok: false, argv: ['hermes', 'mcp', 'test', 'cccc'], error: expect.objectContaining({ code: 'hermes_cli_missing' }) });
    expect((await call('runtime_hermes_status')).profile.exists).toBe(false);
  });
});

describe('runtime_hermes_* with a Hermes profile and a scripted hermes', () => {
  const ready = (root: string) =>
    [
      'mcp_servers:',
      '  cccc:',
      '    command: /usr/bin/node',
      '    args: [/opt/cccc/bin/cccc.js, mcp]',
      '    env:',
      "      CCCC_HOME: '${CCCC_HOME}'",
      "      CCCC_GROUP_ID: '${CCCC_GROUP_ID}'",
      "      CCCC_ACTOR_ID: '${CCCC_ACTOR_ID}'",
      `# ${root}`,
    ].join('\n');

  it('HERMES_HOME selects the profile; a cccc entry with the actor placeholders is ready, one with concrete values is stale', async () => {
    const { root, env, call } = setup({ hermesScript: 'echo "Hermes Agent v0.21.5"' });
    const home = join(root, 'hermes-home');
    mkdirSync(home);
    env.HOME = join(root, 'nobody');
    Object.assign(env, { HERMES_HOME: home });
    expect(hermesHome(env)).toBe(home);
    writeFileSync(join(home, 'config.yaml'), ready(root));
    writeFileSync(join(home, 'auth.json'), '{}');
    const status = await call('runtime_hermes_status');
    expect(status).toMatchObject({ setup_ready: true, auth_ready: true, launch_ready: true, hermes_cli: { available: true, path: join(root, 'bin', 'hermes'), version: '0.21.5' } });
    expect(status.mcp).toMatchObject({ status: 'ready', configured: true, env_placeholders_match: true });
    expect(status.issues).toEqual([]);
    // Already ready: prepare runs nothing.
    expect(await call('runtime_hermes_prepare', {})).toMatchObject({ ok: true, commands_run: [] });

    writeFileSync(join(home, 'config.yaml'), ready(root).replace("'${CCCC_GROUP_ID}'", 'g_probe'));
    const stale = await call('runtime_hermes_status');
    expect(stale.mcp).toMatchObject({ status: 'stale', env_placeholders_match: false });
    expect(JSON.stringify(stale.mcp)).not.toContain('g_probe'); // saved values are not echoed
    expect(stale.issues).toEqual(['cccc_mcp_config_not_ready']);
    // The discovery flow is not claimed: prepare says so rather than pretend.
    expect(await call('runtime_hermes_prepare', { yes: true })).toMatchObject({ ok: false, error: { code: 'hermes_prepare_unverified' } });
  });

  it('mcp_test runs `hermes mcp test cccc` with the probe actor env (or the given ids) and reports its exit and output', async () => {
    const { root, call } = setup({ hermesScript: 'echo "args=$*"; echo "id=$CCCC_HOME|$CCCC_GROUP_ID|$CCCC_ACTOR_ID"; echo warn >&2; [ "$CCCC_ACTOR_ID" = "peer9" ] && exit 3; exit 0' });
    const probe = await call('runtime_hermes_mcp_test');
    expect(probe).toMatchObject({ ok: true, argv: [join(root, 'bin', 'hermes'), 'mcp', 'test', 'cccc'], result: { returncode: 0, stderr: 'warn\n' } });
    expect(probe.result.stdout).toBe(`args=mcp test cccc\nid=${join(root, 'cccc-home')}|g_probe|hermes-probe\n`);
    const failing = await call('runtime_hermes_mcp_test', { group_id: 'g_1', actor_id: 'peer9' });
    expect(failing).toMatchObject({ ok: false, result: { returncode: 3 } });
  });
});

describe('runFinite', () => {
  it('kills a command that outlives its deadline (its whole group) and refuses oversized output', async () => {
    const started = Date.now();
    expect(await runFinite(['/bin/sh', '-c', 'sleep 30 & sleep 30'], { env: process.env, timeoutMs: 300 })).toMatchObject({ ok: false, code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await runFinite(['/bin/sh', '-c', 'head -c 5000 /dev/zero'], { env: process.env, timeoutMs: 5_000, limit: 1000 })).toMatchObject({ ok: false, code: 'output_too_large' });
    expect(await runFinite(['/bin/sh', '-c', 'cat'], { env: process.env, timeoutMs: 5_000, input: 'Y\n' })).toEqual({ ok: true, returncode: 0, stdout: 'Y\n', stderr: '' });
    expect(await runFinite(['/nonexistent/hermes'], { env: process.env, timeoutMs: 5_000 })).toMatchObject({ ok: false, code: 'spawn_failed' });
  });
});
