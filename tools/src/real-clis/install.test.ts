import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installRealClis, MARKER_FILE, pinsKey, REAL_CLI_PINS, readRealClis, realClisCacheRoot, realClisDir } from '../../real-clis/install.mjs';

const scratch: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'real-clis-'));
  scratch.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('real-clis install: cache location and state', () => {
  it('keys the cache folder by the pins: same pins, same key; any bump, another key', () => {
    expect(pinsKey(REAL_CLI_PINS)).toMatch(/^[0-9a-f]{16}$/);
    expect(pinsKey({ ...REAL_CLI_PINS })).toBe(pinsKey(REAL_CLI_PINS));
    const reordered = Object.fromEntries(Object.entries(REAL_CLI_PINS).reverse());
    expect(pinsKey(reordered)).toBe(pinsKey(REAL_CLI_PINS));
    expect(pinsKey({ ...REAL_CLI_PINS, '@openai/codex': '0.0.1' })).not.toBe(pinsKey(REAL_CLI_PINS));
  });

  it('lives under XDG_CACHE_HOME, else ~/.cache, unless CCCC_REAL_CLIS_CACHE names it', () => {
    expect(realClisCacheRoot({ HOME: '/h' })).toBe('/h/.cache/cccc-real-clis');
    expect(realClisCacheRoot({ HOME: '/h', XDG_CACHE_HOME: '/x' })).toBe('/x/cccc-real-clis');
    expect(realClisCacheRoot({ HOME: '/h', CCCC_REAL_CLIS_CACHE: '/c' })).toBe('/c');
    expect(realClisDir({ CCCC_REAL_CLIS_CACHE: '/c' })).toBe(`/c/${pinsKey()}`);
  });

  it('reports absent, incomplete and foreign-pin installs with a reason; complete ones with their .bin', () => {
    const env = { CCCC_REAL_CLIS_CACHE: tempDir() };
    const dir = realClisDir(env);
    expect(readRealClis(env)).toMatchObject({ ok: false, reason: expect.stringMatching(/not installed.*npm run real-clis:install/) });
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    expect(readRealClis(env)).toMatchObject({ ok: false, reason: expect.stringContaining(`no ${MARKER_FILE}`) });
    writeFileSync(join(dir, MARKER_FILE), JSON.stringify({ pins: { ...REAL_CLI_PINS, 'opencode-ai': '0.0.0' } }));
    expect(readRealClis(env)).toMatchObject({ ok: false, reason: expect.stringContaining('other pins') });
    writeFileSync(join(dir, MARKER_FILE), JSON.stringify({ pins: REAL_CLI_PINS, versions: {} }));
    expect(readRealClis(env)).toMatchObject({ ok: false, reason: expect.stringMatching(/\.bin\/claude is missing/) });
    for (const bin of ['claude', 'codex', 'opencode', 'kilo', 'copilot']) writeFileSync(join(dir, 'node_modules', '.bin', bin), '');
    expect(readRealClis(env)).toEqual({ ok: true, dir, binDir: join(dir, 'node_modules', '.bin'), versions: {} });
  });

  it('an install that cannot reach the registry leaves no folder that looks installed, and says why', () => {
    const root = tempDir();
    const env = { ...process.env, CCCC_REAL_CLIS_CACHE: root, npm_config_registry: 'http://127.0.0.1:9/' };
    const result = installRealClis({ env });
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('the npm registry did not answer') });
    expect(readdirSync(root)).toEqual([`${pinsKey()}.failure.txt`]);
    expect(existsSync(realClisDir(env))).toBe(false);
    expect(readRealClis(env)).toMatchObject({ ok: false, reason: expect.stringContaining('the last install failed: the npm registry did not answer') });
  });

  it("the README's development section lists every pin and says how to bump them", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Real agent CLIs'));
    for (const [pkg, version] of Object.entries(REAL_CLI_PINS)) expect(section).toContain(`| \`${pkg}\` | ${version} |`);
    expect(section).toMatch(/To bump a pin: edit `pins\.json` and the table above, run `npm run real-clis:install`/);
  });
});
