import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { MARKER_FILE, LOCAL_REGISTRY_PINS, installLocalRegistry, localRegistryCacheRoot, localRegistryDir, pinsKey, readLocalRegistry } from '../../local-registry/install.mjs';
import { describeWithLocalRegistry, startLocalRegistry } from './local-registry.js';

const scratch: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-registry-'));
  scratch.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('local-registry install: pins, cache location and state', () => {
  it('pins verdaccio 6.8.0 with node-fetch overridden to 2.7.0 (the Node 20 line)', () => {
    expect(LOCAL_REGISTRY_PINS).toEqual({ dependencies: { verdaccio: '6.8.0' }, overrides: { 'node-fetch': '2.7.0' } });
  });

  it('keys the cache folder by the pins: same pins, same key; any bump, another key', () => {
    expect(pinsKey()).toMatch(/^[0-9a-f]{16}$/);
    expect(pinsKey({ overrides: { 'node-fetch': '2.7.0' }, dependencies: { verdaccio: '6.8.0' } })).toBe(pinsKey());
    expect(pinsKey({ ...LOCAL_REGISTRY_PINS, overrides: {} })).not.toBe(pinsKey());
    expect(pinsKey({ ...LOCAL_REGISTRY_PINS, dependencies: { verdaccio: '6.9.0' } })).not.toBe(pinsKey());
  });

  it('lives under XDG_CACHE_HOME, else ~/.cache, unless CCCC_LOCAL_REGISTRY_CACHE names it', () => {
    expect(localRegistryCacheRoot({ HOME: '/h' })).toBe('/h/.cache/cccc-local-registry');
    expect(localRegistryCacheRoot({ HOME: '/h', XDG_CACHE_HOME: '/x' })).toBe('/x/cccc-local-registry');
    expect(localRegistryDir({ CCCC_LOCAL_REGISTRY_CACHE: '/c' })).toBe(`/c/${pinsKey()}`);
  });

  it('reports absent, incomplete and foreign-pin installs with a reason; a complete one with its bin', () => {
    const env = { CCCC_LOCAL_REGISTRY_CACHE: tempDir() };
    const dir = localRegistryDir(env);
    expect(readLocalRegistry(env)).toMatchObject({ ok: false, reason: expect.stringMatching(/not installed.*npm run local-registry:install/) });
    mkdirSync(join(dir, 'node_modules', 'verdaccio', 'bin'), { recursive: true });
    expect(readLocalRegistry(env)).toMatchObject({ ok: false, reason: expect.stringContaining(`no ${MARKER_FILE}`) });
    writeFileSync(join(dir, MARKER_FILE), JSON.stringify({ pins: { dependencies: { verdaccio: '1.0.0' } } }));
    expect(readLocalRegistry(env)).toMatchObject({ ok: false, reason: expect.stringContaining('other pins') });
    writeFileSync(join(dir, MARKER_FILE), JSON.stringify({ pins: LOCAL_REGISTRY_PINS, version: 'v6.8.0' }));
    expect(readLocalRegistry(env)).toMatchObject({ ok: false, reason: expect.stringMatching(/bin\/verdaccio is missing/) });
    writeFileSync(join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio'), '');
    expect(readLocalRegistry(env)).toEqual({ ok: true, dir, bin: join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio'), version: 'v6.8.0' });
  });

  it('an install that cannot reach the registry leaves no folder that looks installed, and says why', () => {
    const root = tempDir();
    const env = { ...process.env, CCCC_LOCAL_REGISTRY_CACHE: root, npm_config_registry: 'http://127.0.0.1:9/' };
    expect(installLocalRegistry({ env })).toMatchObject({ ok: false, reason: expect.stringContaining('the npm registry did not answer') });
    expect(readdirSync(root)).toEqual([`${pinsKey()}.failure.txt`]);
    expect(existsSync(localRegistryDir(env))).toBe(false);
    expect(readLocalRegistry(env)).toMatchObject({ ok: false, reason: expect.stringContaining('the last install failed') });
  });
});

describeWithLocalRegistry('a started local registry', (verdaccio) => {
  it('listens on 127.0.0.1 only, never proxies @cccc/*, and its user token publishes', async () => {
    const dir = tempDir();
    // The upstream is never asked for @cccc/*; a dead one shows that no other name is needed here.
    await using registry = await startLocalRegistry({ bin: verdaccio.bin, dir, upstream: 'http://127.0.0.1:9/' });
    const { hostname, port } = new URL(registry.url);
    expect(hostname).toBe('127.0.0.1');
    // /proc/net/tcp: the listening socket (state 0A) of that port is bound to 127.0.0.1 (0100007F).
    const hexPort = Number(port).toString(16).toUpperCase().padStart(4, '0');
    const listening = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A')
      .map((cols) => cols[1]);
    expect(listening).toEqual([`0100007F:${hexPort}`]);
    expect(readFileSync('/proc/net/tcp6', 'utf8')).not.toMatch(new RegExp(`:${hexPort} [0-9A-F]+:0000 0A `));

    expect((await fetch(`${registry.url}@cccc%2fcli`)).status).toBe(404);

    // Publish a tiny package with the token, as changesets' `npm publish` does.
    const pkg = join(dir, 'pkg');
    mkdirSync(pkg);
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@cccc/registry-probe', version: '1.0.0' }));
    await promisify(execFile)('npm', ['publish', '--access', 'public'], {
      cwd: pkg,
      env: { ...process.env, npm_config_registry: registry.url, npm_config_userconfig: registry.publishUserconfig },
    });
    const packument = (await (await fetch(`${registry.url}@cccc%2fregistry-probe`)).json()) as { 'dist-tags': { latest: string } };
    expect(packument['dist-tags'].latest).toBe('1.0.0');
  }, 120_000);
});
