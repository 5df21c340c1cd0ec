import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeIpcContract, socketContractConnection } from '@cccc/ipc-protocol/testing';
import { DaemonClient, daemonPaths } from '@cccc/ipc-protocol/node';
import { startDaemon, type RunningDaemon } from './daemon.js';
import { daemonConfigFromEnv, DaemonConfigError } from './config.js';
import { HomeLockedError } from './lifecycle/home-lock.js';

function withDaemon(transport: 'unix' | 'tcp') {
  const state: { daemon?: RunningDaemon; home?: string } = {};
  beforeAll(async () => {
    state.home = mkdtempSync(join(tmpdir(), `cccc-daemon-${transport}-`));
    state.daemon = await startDaemon(daemonConfigFromEnv({ CCCC_HOME: state.home, CCCC_DAEMON_TRANSPORT: transport }));
  });
  afterAll(async () => {
    await state.daemon?.stop();
    rmSync(state.home!, { recursive: true, force: true });
  });
  return state;
}

for (const transport of ['unix', 'tcp'] as const) {
  describe(`real daemon over ${transport}`, () => {
    const state = withDaemon(transport);
    describeIpcContract({
      name: `daemon (${transport})`,
      connect: () => socketContractConnection(state.daemon!.endpoint),
      expectedPid: process.pid,
    });

    it('publishes its endpoint in ccccd.addr.json and ccccd.pid', () => {
      const paths = daemonPaths(state.home!);
      const addr = JSON.parse(readFileSync(paths.addr, 'utf8'));
      expect(addr).toMatchObject({ v: 1, transport, pid: process.pid, version: expect.any(String), ts: expect.any(String) });
      if (transport === 'tcp') expect(addr).toMatchObject({ host: '127.0.0.1', port: expect.any(Number) });
      else expect(addr.path).toBe(paths.sock);
      expect(readFileSync(paths.pid, 'utf8').trim()).toBe(String(process.pid));
    });

    it('serves many concurrent clients', async () => {
      const client = new DaemonClient({ home: state.home! });
      const results = await Promise.all(Array.from({ length: 64 }, () => client.call('ping', {})));
      expect(results.every((r) => r.implementation === 'cccc-ts')).toBe(true);
    });

    it('is not stalled by a half-open client or one that never reads', async () => {
      const { endpoint } = state.daemon!;
      const connect = () =>
        endpoint.transport === 'unix' ? createConnection({ path: endpoint.path }) : createConnection(endpoint.port, endpoint.host);
      const halfOpen = connect();
      halfOpen.on('error', () => {});
      halfOpen.write('{"v":1,"op":"ping"'); // never finished
      const greedy = connect();
      greedy.on('error', () => {});
      greedy.pause(); // never reads its responses
      const burst = '{"v":1,"op":"ping"}\n'.repeat(20_000);
      greedy.write(burst);
      await new Promise((r) => setTimeout(r, 100));
      const started = performance.now();
      const ping = await new DaemonClient({ home: state.home!, timeoutMs: 2000 }).call('ping', {});
      expect(ping.ipc_v).toBe(1);
      expect(performance.now() - started).toBeLessThan(1000);
      halfOpen.destroy();
      greedy.destroy();
    });
  });
}

describe('daemon lifecycle in-process', () => {
  it('refuses a second daemon on the same home and changes no file', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-daemon-lock-'));
    const first = await startDaemon(daemonConfigFromEnv({ CCCC_HOME: home }));
    try {
      const paths = daemonPaths(home);
      const before = [paths.addr, paths.pid, paths.log].map((p) => readFileSync(p, 'utf8'));
      await expect(startDaemon(daemonConfigFromEnv({ CCCC_HOME: home }))).rejects.toBeInstanceOf(HomeLockedError);
      const after = [paths.addr, paths.pid, paths.log].map((p) => readFileSync(p, 'utf8'));
      expect(after).toEqual(before);
      expect(existsSync(paths.sock)).toBe(true);
    } finally {
      await first.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('stops on the shutdown op and removes its socket and descriptor', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-daemon-stop-'));
    const daemon = await startDaemon(daemonConfigFromEnv({ CCCC_HOME: home }));
    const paths = daemonPaths(home);
    const result = await new DaemonClient({ home }).call('shutdown', { expected_pid: process.pid });
    expect(result).toEqual({ message: 'shutting down' });
    await daemon.stopped;
    expect(existsSync(paths.sock)).toBe(false);
    expect(existsSync(paths.addr)).toBe(false);
    // the home can be taken again at once
    const again = await startDaemon(daemonConfigFromEnv({ CCCC_HOME: home }));
    await again.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('refuses non-loopback TCP hosts and bad transport settings before binding', () => {
    for (const host of ['0.0.0.0', '192.168.1.4', '::', 'example.com', '10.0.0.1']) {
      expect(() => daemonConfigFromEnv({ CCCC_DAEMON_TRANSPORT: 'tcp', CCCC_DAEMON_HOST: host })).toThrow(DaemonConfigError);
    }
    for (const host of ['127.0.0.1', '127.5.0.1', 'localhost', '::1', '[::1]']) {
      expect(daemonConfigFromEnv({ CCCC_DAEMON_TRANSPORT: 'tcp', CCCC_DAEMON_HOST: host }).transport).toMatchObject({ kind: 'tcp' });
    }
    expect(() => daemonConfigFromEnv({ CCCC_DAEMON_TRANSPORT: 'pigeon' })).toThrow(DaemonConfigError);
    expect(() => daemonConfigFromEnv({ CCCC_DAEMON_TRANSPORT: 'tcp', CCCC_DAEMON_PORT: '99999' })).toThrow(DaemonConfigError);
  });

  it('codex actors run managed by default; CCCC_CODEX_MANAGED=0 is the escape to the native PTY', () => {
    expect(daemonConfigFromEnv({}).runtime.codexManaged).toBe(true);
    expect(daemonConfigFromEnv({}).runtime.grokManaged).toBe(false);
    expect(daemonConfigFromEnv({ CCCC_GROK_MANAGED: '1' }).runtime.grokManaged).toBe(true);
    expect(daemonConfigFromEnv({ CCCC_CODEX_MANAGED: '1' }).runtime.codexManaged).toBe(true);
    for (const off of ['0', 'false', 'off', ' no ']) expect(daemonConfigFromEnv({ CCCC_CODEX_MANAGED: off }).runtime.codexManaged).toBe(false);
  });
});

describe('ping.capabilities', () => {
  it('advertises exactly the optional ops the daemon serves', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-daemon-caps-'));
    const daemon = await startDaemon(daemonConfigFromEnv({ CCCC_HOME: home }));
    try {
      const client = new DaemonClient({ home });
      const { capabilities } = await client.call('ping', {});
      expect(capabilities).toMatchObject({
        events_stream: true,
        global_events_stream: true,
        ledger_tail: true,
        ledger_search: true,
        ledger_statuses: true,
        term_attachment_status: true,
        term_attach_snapshot_v1: true,
        presentation_browser_attach: false,
        web_model_browser_attach: false,
        remote_access: true,
      });
      // Every op named true is recognized (never unknown_op); every one named false is not served.
      for (const [name, value] of Object.entries(capabilities)) {
        if (!/^[a-z_]+$/.test(name) || name.startsWith('term_attach') || name === 'remote_access') continue;
        if (name === 'events_stream' || name === 'global_events_stream' || name.endsWith('_attach')) {
          // streaming upgrades are probed with args that fail validation, so no stream opens
          const res = await client.request({ v: 1, op: name, args: { group_id: '' } });
          expect(res.error?.code === 'unknown_op', name).toBe(value === false);
          continue;
        }
        const res = await client.request({ v: 1, op: name, args: {} });
        expect(res.error?.code === 'unknown_op', name).toBe(value === false);
      }
    } finally {
      await daemon.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('ping identity and the CLI entry', () => {
  it('names the configured CLI entry as executable, and the compatibility it promises', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-daemon-entry-'));
    const cliEntry = join(home, 'cli', 'bin', 'cccc.js');
    const daemon = await startDaemon({ ...daemonConfigFromEnv({ CCCC_HOME: home }), cliEntry });
    try {
      const ping = await new DaemonClient({ home }).call('ping', {});
      expect(ping).toMatchObject({ implementation: 'cccc-ts', compatibility: 'cccc-ipc-v1', executable: cliEntry, ipc_v: 1 });
      expect(readFileSync(daemonPaths(home).log, 'utf8')).not.toContain('no CLI entry');
    } finally {
      await daemon.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('without one (in-process, library use): executable is null and one warning says hooks and MCP are left out', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-daemon-noentry-'));
    const daemon = await startDaemon(daemonConfigFromEnv({ CCCC_HOME: home }));
    try {
      const ping = await new DaemonClient({ home }).call('ping', {});
      expect(ping.executable).toBeNull();
      expect(ping.compatibility).toBe('cccc-ipc-v1');
      const warnings = readFileSync(daemonPaths(home).log, 'utf8').split('\n').filter((l) => l.includes('no CLI entry'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/warn.*without CCCC hooks and MCP wiring/);
    } finally {
      await daemon.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
