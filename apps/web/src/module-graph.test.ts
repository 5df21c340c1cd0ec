import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The Web process is a daemon client (ARCHITECTURE.md "Every client speaks the op catalog"): it
// must not load the PTY library, whose node-pty native module has no business in an HTTP server.
// Probed on the built server (`dist/index.js`, what `cccc` runs; the test target builds it first)
// in a fresh Node process that records every module it resolves, ESM and CommonJS alike.

const run = promisify(execFile);
const webDir = fileURLToPath(new URL('..', import.meta.url));
const builtServer = join(webDir, 'dist', 'index.js');

/** ESM resolutions are recorded by a loader hook; CommonJS modules are read from require.cache. */
const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;

const PROBE = `
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const esm = [];
port1.on('message', (url) => esm.push(url));
register('data:text/javascript,' + encodeURIComponent(process.env.PROBE_HOOKS), import.meta.url, { data: { port: port2 }, transferList: [port2] });
await import(process.env.PROBE_TARGET);
await new Promise((resolve) => setTimeout(resolve, 100));
port1.close();
const cjs = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(JSON.stringify({ esm, cjs }));`;

/** Every module a fresh Node process loads to import `target`. */
async function modulesLoadedBy(target: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '--no-warnings', '-e', PROBE], {
    cwd: webDir,
    env: { ...process.env, PROBE_HOOKS: HOOKS, PROBE_TARGET: target },
    timeout: 60_000,
  });
  const { esm, cjs } = JSON.parse(stdout) as { esm: string[]; cjs: string[] };
  return [...esm, ...cjs];
}

const ptyModules = (modules: readonly string[]) => modules.filter((m) => /node-pty|pty-runtime/.test(m));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(entry) ? [path] : [];
  });
}

describe('the Web server module graph', () => {
  it('does not load node-pty or @cccc/pty-runtime', async () => {
    expect(existsSync(builtServer), 'build @cccc/web first (npx nx run @cccc/web:build)').toBe(true);
    const modules = await modulesLoadedBy(builtServer);
    expect(modules.some((m) => m.includes('/ipc-protocol/')), 'the probe saw the server load its daemon client').toBe(true);
    expect(ptyModules(modules)).toEqual([]);
  });

  // pty-runtime requires node-pty at its first spawn, not at import (issue 35, memory at rest), so
  // each is probed on its own: the ESM library and the CommonJS native module.
  it('the probe would see them: importing @cccc/pty-runtime, and importing node-pty', async () => {
    expect(ptyModules(await modulesLoadedBy('@cccc/pty-runtime')).some((m) => m.includes('/pty-runtime/'))).toBe(true);
    expect(ptyModules(await modulesLoadedBy('node-pty')).some((m) => m.includes('node-pty'))).toBe(true);
  });

  it('neither the server sources nor the browser app import it; it is a test-only dependency', () => {
    const pkg = JSON.parse(readFileSync(join(webDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.dependencies).not.toHaveProperty('@cccc/pty-runtime');
    // The e2e tests run the scripted fake agent from pty-runtime's testing kit.
    expect(pkg.devDependencies).toHaveProperty('@cccc/pty-runtime');
    const shipped = [...sourceFiles(join(webDir, 'src')), ...sourceFiles(join(webDir, 'app', 'src'))].filter(
      (f) => !/\.test\.tsx?$/.test(f) && !/[/\\](e2e|testing)[/\\]/.test(f),
    );
    expect(shipped.filter((f) => readFileSync(f, 'utf8').includes("'@cccc/pty-runtime"))).toEqual([]);
  });
});
