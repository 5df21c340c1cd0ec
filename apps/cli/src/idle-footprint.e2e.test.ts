import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { BIN, until } from './e2e-harness.js';

// A daemon at rest must not hold what only some requests need (issue 35, memory at rest): the
// ACP SDK, the headless terminal, node-pty, SQLite, tar and the bzip2 decoder load at their
// first use. The daemon runs as `cccc daemon run` does, with a preload that records every module
// the process loads, CommonJS requires and ESM imports alike.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const LATE = ['@agentclientprotocol/sdk', '@xterm/headless', '@xterm/addon-serialize', 'node-pty', 'better-sqlite3', 'tar', 'unbzip2-stream'];

let root = '';
let daemon: ChildProcess | undefined;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cccc-idle-footprint-'));
});
afterAll(() => {
  if (daemon && daemon.exitCode === null) daemon.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

function recorder(log: string): string {
  const hooks = join(root, 'record-hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(log)}, 'import ' + url + '\\n');\n  return next(url, context);\n}\n`);
  const preload = join(root, 'record.cjs');
  writeFileSync(
    preload,
    `const Module = require('node:module');\nconst { appendFileSync } = require('node:fs');\nconst { pathToFileURL } = require('node:url');\nconst load = Module._load;\nModule._load = function (request, parent, isMain) {\n  appendFileSync(${JSON.stringify(log)}, 'require ' + request + '\\n');\n  return load.apply(this, arguments);\n};\nModule.register(pathToFileURL(${JSON.stringify(hooks)}).href);\n`,
  );
  return preload;
}

/** The package a recorded line names: `require <id>` or `import <url>` under node_modules. */
function packageOf(line: string): string | undefined {
  const [how, what = ''] = line.split(' ');
  if (how === 'require') return what.startsWith('.') || what.startsWith('/') || what.startsWith('node:') ? undefined : what.split('/').slice(0, what.startsWith('@') ? 2 : 1).join('/');
  const at = what.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const parts = what.slice(at + '/node_modules/'.length).split('/');
  return parts.slice(0, parts[0]!.startsWith('@') ? 2 : 1).join('/');
}

describe('a daemon at rest', () => {
  it('has loaded none of the modules that only some requests need', async () => {
    const home = join(root, 'home');
    mkdirSync(home);
    const log = join(root, 'loaded.txt');
    daemon = spawn(process.execPath, ['--require', recorder(log), BIN, 'daemon', 'run'], {
      env: { ...process.env, CCCC_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const client = new DaemonClient({ home });
    await until(async () => (await client.call('ping', {}).catch(() => undefined)) !== undefined, 'the daemon answers ping', 30_000);
    await client.call('groups', {});
    daemon.kill('SIGTERM');
    await until(() => daemon!.exitCode !== null || daemon!.signalCode !== null, 'the daemon exits', 20_000);

    expect(existsSync(log)).toBe(true);
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const loaded = new Set(lines.map(packageOf).filter((p): p is string => p !== undefined));
    // The recorder saw the daemon itself and its dependencies, so an empty answer below means something.
    expect(loaded).toContain('zod');
    expect(lines.some((l) => /@cccc\/daemon\/|apps\/daemon\/dist\//.test(l))).toBe(true);
    expect(LATE.filter((p) => loaded.has(p))).toEqual([]);
  });
});
