import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityLimitsFromEnv } from './limits.js';
import { NodeExternalRuntime } from './node-runtime.js';
import { CapabilityPaths } from './store.js';
import { CapabilityService } from './service.js';
import { CONTRACT_GROUP as g } from './testing.js';

// The npm package path for real: @modelcontextprotocol/server-everything installed from the npm
// registry into the capability cache, run over stdio with the MCP SDK client, called by name.

const EVERYTHING = 'mcp:npm:@modelcontextprotocol/server-everything';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('NodeExternalRuntime (real npm install, real stdio server)', () => {
  let home: string;
  let svc: CapabilityService;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'cccc-caps-npm-'));
    const paths = new CapabilityPaths(home);
    svc = new CapabilityService({ home, limits: { ...capabilityLimitsFromEnv({}), remoteFallback: false }, external: new NodeExternalRuntime({ cacheDir: paths.cacheDir }) });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('installs, exposes and calls the server; uninstall removes its cache', { timeout: 240_000 }, async () => {
    const on = await svc.enable({ group_id: g.group_id, capability_id: EVERYTHING, scope: 'actor', actor_id: 'p1' }, g);
    expect(on, JSON.stringify(on)).toMatchObject({ enabled: true, state: 'activation_pending', install_state: 'installed' });
    const cache = join(home, 'state', 'capabilities', 'cache');
    expect(readdirSync(cache)).toHaveLength(1);

    const st = svc.state({ group_id: g.group_id, actor_id: 'p1' }, g);
    const echo = st.dynamic_tools!.find((t) => t.real_tool_name === 'echo')!;
    expect(echo.name).toMatch(/^cccc_ext_[0-9a-f]{8}_echo$/);
    expect(st.visible_tools).toContain(echo.name);
    expect(st.external_binding_states?.[EVERYTHING]).toMatchObject({ mode: 'mcp', state: 'runnable', install_state: 'installed' });

    const called = await svc.toolCall({ group_id: g.group_id, actor_id: 'p1', tool_name: echo.name, arguments: { message: 'hello from cccc' } }, g);
    expect(JSON.stringify(called.result)).toContain('hello from cccc');

    // Another actor enabling it reuses the cached artifact (no second install).
    const again = await svc.enable({ group_id: g.group_id, capability_id: EVERYTHING, scope: 'actor', actor_id: 'p2' }, g);
    expect(again.install_state).toBe('installed');
    expect(readdirSync(cache)).toHaveLength(1);

    // The command path: the same server started from a command line.
    const bin = join(cache, readdirSync(cache)[0]!, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    await svc.import({ group_id: g.group_id, record: { capability_id: 'mcp:t:cmd-everything', kind: 'mcp_toolpack', install_mode: 'command', install_spec: { command: [process.execPath, bin, 'stdio'] } } }, g);
    expect(await svc.enable({ group_id: g.group_id, capability_id: 'mcp:t:cmd-everything', scope: 'actor', actor_id: 'p1' }, g)).toMatchObject({ install_state: 'installed' });
    const cmdEcho = svc.state({ group_id: g.group_id, actor_id: 'p1' }, g).dynamic_tools!.find((t) => t.capability_id === 'mcp:t:cmd-everything' && t.real_tool_name === 'echo')!;
    expect(JSON.stringify((await svc.toolCall({ group_id: g.group_id, actor_id: 'p1', tool_name: cmdEcho.name, arguments: { message: 'by command' } }, g)).result)).toContain('by command');

    // The remote_only path: the same server over streamable HTTP on a loopback port.
    const port = await freePort();
    const remote = spawn(process.execPath, [bin, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        remote.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
        remote.once('exit', () => reject(new Error('the HTTP server exited')));
      });
      await svc.import({ group_id: g.group_id, record: { capability_id: 'mcp:t:remote-everything', kind: 'mcp_toolpack', install_mode: 'remote_only', install_spec: { url: `http://127.0.0.1:${port}/mcp` } } }, g);
      expect(await svc.enable({ group_id: g.group_id, capability_id: 'mcp:t:remote-everything', scope: 'actor', actor_id: 'p1' }, g)).toMatchObject({ install_state: 'installed' });
      const remoteEcho = svc.state({ group_id: g.group_id, actor_id: 'p1' }, g).dynamic_tools!.find((t) => t.capability_id === 'mcp:t:remote-everything' && t.real_tool_name === 'echo')!;
      expect(JSON.stringify((await svc.toolCall({ group_id: g.group_id, actor_id: 'p1', tool_name: remoteEcho.name, arguments: { message: 'over http' } }, g)).result)).toContain('over http');
      await svc.uninstall({ group_id: g.group_id, capability_id: 'mcp:t:remote-everything' }, g);
    } finally {
      remote.kill('SIGKILL');
    }
    await svc.uninstall({ group_id: g.group_id, capability_id: 'mcp:t:cmd-everything' }, g);
    // A remote URL nobody answers: the install fails with its reason, nothing is bound.
    await svc.import({ group_id: g.group_id, record: { capability_id: 'mcp:t:remote-down', kind: 'mcp_toolpack', install_mode: 'remote_only', install_spec: { url: `http://127.0.0.1:${port}/mcp` } } }, g);
    expect(await svc.enable({ group_id: g.group_id, capability_id: 'mcp:t:remote-down', scope: 'actor', actor_id: 'p1' }, g)).toMatchObject({ state: 'blocked', reason: 'install_failed:remote_unreachable' });

    const off = await svc.enable({ group_id: g.group_id, capability_id: EVERYTHING, scope: 'actor', actor_id: 'p1', enabled: false, cleanup: true }, g);
    expect(off).toMatchObject({ removed_binding_count: 1, removed_installation: false, cleanup_skipped_reason: 'cleanup_skipped_capability_still_bound' });
    const un = await svc.uninstall({ group_id: g.group_id, capability_id: EVERYTHING }, g);
    expect(un).toMatchObject({ removed_bindings: 1, removed_installation: true });
    expect(readdirSync(cache)).toHaveLength(0);
  });

  it('an npm package that does not exist fails the install with a reason, binding nothing', { timeout: 120_000 }, async () => {
    await svc.import({ group_id: g.group_id, record: { capability_id: 'mcp:t:missing-pkg', kind: 'mcp_toolpack', install_mode: 'package', install_spec: { registry: 'npm', package: '@cccc-ts-does-not-exist/nothing-here-42' } } }, g);
    const on = await svc.enable({ group_id: g.group_id, capability_id: 'mcp:t:missing-pkg', scope: 'actor', actor_id: 'p1' }, g);
    expect(on).toMatchObject({ enabled: false, state: 'blocked', reason: 'install_failed:npm_install_failed', install_state: 'install_failed', retryable: true });
    expect(svc.state({ group_id: g.group_id, actor_id: 'p1' }, g).enabled_capabilities).not.toContain('mcp:t:missing-pkg');
    expect(existsSync(join(home, 'state', 'capabilities', 'catalog.json'))).toBe(true);
  });
});
