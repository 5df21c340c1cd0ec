import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run demo` (= `node tools/start.mjs --demo`): a working team without a real agent CLI.
// Run with --no-build: a build here would rewrite the dist/ every other test is reading.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'apps', 'cli', 'bin', 'cccc.js');

let dir = '';
let home = '';
afterEach(() => {
  spawnSync(process.execPath, [CLI, 'daemon', 'stop'], { env: { ...process.env, CCCC_HOME: home } });
  rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('npm run demo', () => {
  it('starts the Web on a team of two running fake agents, and again on the same team', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cccc-demo-test-'));
    home = join(dir, 'home'); // made by the demo itself
    const port = await freePort();
    const env = { ...process.env, CCCC_HOME: home, CCCC_WEB_PORT: String(port) };
    for (const round of [1, 2]) {
      const demo = spawn(process.execPath, [join(ROOT, 'tools', 'start.mjs'), '--demo', '--no-build'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      demo.stdout.on('data', (d: Buffer) => (out += d));
      demo.stderr.on('data', (d: Buffer) => (out += d));
      const deadline = Date.now() + 120_000;
      while (!out.includes(`http://127.0.0.1:${port}/\n`)) {
        if (demo.exitCode !== null || Date.now() > deadline) throw new Error(`round ${round}: demo did not come up (exit ${demo.exitCode}):\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const group = /in (g_[0-9a-f]+)\./.exec(out)?.[1];
      expect(out).toContain(`/?group=${group}`);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      const list = spawnSync(process.execPath, [CLI, 'actor', 'list', '--group', group!, '--json'], { env, encoding: 'utf8' });
      const actors = (JSON.parse(list.stdout) as { actors: Array<{ id: string; running: boolean }> }).actors;
      expect(actors.map((a) => [a.id, a.running])).toEqual([['lead', true], ['peer1', true]]);
      demo.kill('SIGTERM');
      expect((await new Promise((r) => demo.once('exit', r))), out).toBe(0);
    }
  }, 300_000);
});
