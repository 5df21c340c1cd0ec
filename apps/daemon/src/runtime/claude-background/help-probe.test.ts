import { chmodSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeHelpProbe, resolveExecutable } from './help-probe.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A `claude` on a temp PATH that appends a line to `count` on every run. */
function scriptedClaude(help: string): { dir: string; count: () => number; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'cccc-help-probe-'));
  dirs.push(dir);
  const exe = join(dir, 'claude');
  writeFileSync(exe, `#!/bin/sh\necho run >> "${dir}/count"\ncat <<'HELP'\n${help}\nHELP\n`);
  chmodSync(exe, 0o755);
  return { dir, env: { PATH: `${dir}:/usr/bin:/bin` }, count: () => readFileSync(join(dir, 'count'), 'utf8').split('\n').filter(Boolean).length };
}

describe('ClaudeHelpProbe', () => {
  it('runs --help once per executable identity and again after the file changes', async () => {
    const c = scriptedClaude('  --bg, --background  x');
    const probe = new ClaudeHelpProbe();
    expect(await probe.help('claude', c.dir, c.env)).toContain('--bg');
    expect(await probe.help('claude', c.dir, c.env)).toContain('--bg');
    expect(c.count()).toBe(1);
    // An upgrade in place: new mtime, so the cached answer no longer describes the file.
    utimesSync(join(c.dir, 'claude'), new Date(), new Date(Date.now() + 5_000));
    await probe.help('claude', c.dir, c.env);
    expect(c.count()).toBe(2);
  });
  it('answers undefined for an executable that is not on PATH', async () => {
    const c = scriptedClaude('');
    expect(resolveExecutable('claude', c.dir, { PATH: '/nonexistent' })).toBeUndefined();
    expect(await new ClaudeHelpProbe().help('claude', c.dir, { PATH: '/nonexistent' })).toBeUndefined();
  });
});
