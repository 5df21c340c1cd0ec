import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { readLocalRegistry, type LocalRegistryState } from '../../local-registry/install.mjs';
import { freePort } from '../free-port.js';
import { isCi } from '../real-clis/index.js';

export { readLocalRegistry, installLocalRegistry, localRegistryDir, LOCAL_REGISTRY_PINS } from '../../local-registry/install.mjs';

/** A running Verdaccio on 127.0.0.1 with its storage and config in a folder of the caller's. */
export interface LocalRegistry extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** An npmrc holding only this registry and a publish token for it (npm_config_userconfig). */
  readonly publishUserconfig: string;
  /** What Verdaccio printed (warnings and errors). */
  output(): string;
  close(): Promise<void>;
}

export interface LocalRegistryOptions {
  /** Verdaccio's bin script (readLocalRegistry().bin). */
  readonly bin: string;
  /** An empty folder for the config, the storage and the user file. */
  readonly dir: string;
  /**
   * Where packages that are not ours come from (zod, better-sqlite3, …): the registry this
   * machine's npm is configured with, read at run time by the caller. `@cccc/*` has no uplink:
   * those are only what was published here.
   */
  readonly upstream: string;
  /** npm's `cafile` for that registry, if any: Verdaccio then trusts it too (NODE_EXTRA_CA_CERTS). */
  readonly caFile?: string | undefined;
}

/**
 * Start Verdaccio on a free loopback port (it binds 127.0.0.1 only), wait until it answers, and
 * create a user whose token publishes.
 */
export async function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistry> {
  const port = await freePort();
  const listen = `127.0.0.1:${port}`;
  const url = `http://${listen}/`;
  mkdirSync(join(options.dir, 'storage'), { recursive: true });
  // JSON is YAML: Verdaccio reads this as its config.yaml.
  const config = {
    storage: join(options.dir, 'storage'),
    auth: { htpasswd: { file: join(options.dir, 'htpasswd'), max_users: 10 } },
    uplinks: { upstream: { url: options.upstream, timeout: '60s', max_fails: 5 } },
    packages: {
      '@cccc/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated', proxy: 'upstream' },
    },
    listen: [listen],
    web: { enable: false },
    max_body_size: '64mb',
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  };
  const configPath = join(options.dir, 'config.yaml');
  writeFileSync(configPath, JSON.stringify(config, null, 2));

  let output = '';
  const env = options.caFile && !process.env.NODE_EXTRA_CA_CERTS ? { ...process.env, NODE_EXTRA_CA_CERTS: options.caFile } : process.env;
  const child: ChildProcess = spawn(process.execPath, [options.bin, '--config', configPath, '--listen', listen], {
    cwd: options.dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${output}`);
      const ok = await fetch(`${url}-/ping`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`verdaccio did not answer on ${url} within 60 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const user = 'cccc-release';
    const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: user, password: `${user}-${process.pid}` }),
    });
    const body = (await response.json()) as { token?: string };
    if (!response.ok || !body.token) throw new Error(`verdaccio refused to create a user: ${response.status} ${JSON.stringify(body)}`);
    const publishUserconfig = join(options.dir, 'publish.npmrc');
    writeFileSync(publishUserconfig, `registry=${url}\n//${listen}/:_authToken=${body.token}\n`, { mode: 0o600 });
    return { url, publishUserconfig, output: () => output, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A describe block for tests that need the pinned Verdaccio (tools/local-registry). Without a
 * complete install it is reported as skipped with the reason, and under CI=true it holds one
 * failing test instead, so CI never passes by skipping (as the real-CLI suites do).
 */
export function describeWithLocalRegistry(title: string, body: (registry: Extract<LocalRegistryState, { ok: true }>) => void): void {
  const state = readLocalRegistry();
  if (state.ok) {
    describe(title, () => body(state));
    return;
  }
  if (isCi()) {
    describe(title, () => {
      it('has the pinned local registry (CI=true: a skip is a failure)', () => {
        throw new Error(`the local registry is unavailable under CI=true: ${state.reason}`);
      });
    });
    return;
  }
  console.warn(`SKIPPED ${title}: ${state.reason}`);
  describe.skip(`${title} (SKIPPED: ${state.reason})`, () => {
    it.skip(`needs the pinned local registry: ${state.reason}`, () => {});
  });
}
