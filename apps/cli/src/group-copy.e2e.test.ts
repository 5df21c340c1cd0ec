import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();
const out = mkdtempSync(join(tmpdir(), 'cccc-copy-out-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('cccc group export | import (real daemon)', () => {
  it('exports a package, previews it, imports it as a new stopped group, and refuses a bad one', async () => {
    const { group_id } = await cli.json(['group', 'create', '--title', 'cli copy']);
    await cli.json(['actor', 'add', 'lead', '--group', group_id, '--runtime', 'custom', '--command', 'cat', '--env', 'OPENAI_API_KEY=sk-cli-secret-91ab', '--env', 'MODE=x']);
    const pkg = join(out, 'team.zip');
    const exp = await cli.cccc(['group', 'export', group_id, '--out', pkg]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).toMatch(new RegExp(`^exported ${group_id} to ${pkg} \\(\\d+ bytes; group state only, no secrets\\)\\n$`));
    expect(readFileSync(pkg).subarray(0, 2).toString()).toBe('PK');
    expect(readFileSync(pkg).toString('latin1')).not.toContain('sk-cli-secret-91ab');
    // Never overwrites.
    const again = await cli.cccc(['group', 'export', group_id, '--out', pkg]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: invalid_request: refusing to overwrite/);

    const preview = await cli.cccc(['group', 'import', pkg, '--preview']);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain(`package of ${group_id} (cli copy), 1 actor(s): lead`);
    expect(preview.stdout).toContain('group id conflict: yes (a new id will be allocated)');
    expect(preview.stdout).toMatch(/warning: .*new group id/);

    const imported = await cli.json(['group', 'import', pkg, '--title', 'cli copy 2']);
    expect(imported).toMatchObject({ source_group_id: group_id, group_id_conflict: true });
    expect(imported.group_id).not.toBe(group_id);
    const shown = await cli.json(['group', 'show', imported.group_id]);
    expect(shown.group).toMatchObject({ title: 'cli copy 2', running: false, state: 'idle' });
    expect(shown.group.actors[0].env).toEqual({ MODE: 'x' });

    const bad = join(out, 'bad.zip');
    writeFileSync(bad, 'not a zip');
    const refused = await cli.cccc(['group', 'import', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: invalid_group_copy: /);
    expect(existsSync(join(cli.home(), 'state', 'group_copy', 'staging'))).toBe(false);
  });
});
