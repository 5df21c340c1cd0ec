import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

// `cccc capability ...` against a real daemon.

const cli = useDaemonHome();

describe('cccc capability', () => {
  it('list, search, enable, state, disable, block, import', async () => {
    const { group_id } = await cli.json(['group', 'create', '--title', 'caps']);
    for (const actor of ['lead', 'p1']) expect((await cli.cccc(['actor', 'add', actor, '--runtime', 'custom', '--command', 'cat', '--group', group_id])).code).toBe(0);
    const g = ['--group', group_id];

    const list = await cli.cccc(['capability', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/pack:diagnostics\s+mcp_toolpack\s+mounted\s+yes/);
    expect(list.stdout).toMatch(/revision al_[0-9a-f]{16}/);

    const search = await cli.cccc(['capability', 'search', 'terminal', '--local', ...g]);
    expect(search.stdout).toMatch(/pack:diagnostics\s+mcp_toolpack\s+enable_now/);

    const on = await cli.cccc(['capability', 'enable', 'pack:diagnostics', '--scope', 'actor', '--actor', 'p1', ...g]);
    expect(on.code).toBe(0);
    expect(on.stdout).toContain('pack:diagnostics (actor, p1): activation_pending');
    const state = await cli.cccc(['capability', 'state', '--actor', 'p1', ...g]);
    expect(state.stdout).toMatch(/enabled: +pack:diagnostics/);
    expect(state.stdout).toContain('cccc_terminal');
    const asJson = await cli.json(['capability', 'state', '--actor', 'p1', ...g]);
    expect(asJson.visible_tools).toContain('cccc_terminal');

    const off = await cli.cccc(['capability', 'disable', 'pack:diagnostics', '--scope', 'actor', '--actor', 'p1', ...g]);
    expect(off.stdout).toContain('disabled');

    const blocked = await cli.cccc(['capability', 'block', 'pack:diagnostics', '--reason', 'quiet please', ...g]);
    expect(blocked.stdout).toContain('pack:diagnostics (group): blocked');
    const refused = await cli.cccc(['capability', 'enable', 'pack:diagnostics', '--actor', 'p1', ...g]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('blocked — blocked_group');
    expect((await cli.cccc(['capability', 'block', 'pack:diagnostics', '--unblock', ...g])).stdout).toContain('unblocked');
    const denied = await cli.cccc(['capability', 'block', 'pack:diagnostics', '--scope', 'global', '--by', 'lead', ...g]);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('permission_denied');

    const file = join(cli.home(), 'record.json');
    writeFileSync(file, JSON.stringify({ capability_id: 'skill:manual:notes', kind: 'skill', name: 'Notes', capsule_text: 'Keep notes.' }));
    const dry = await cli.cccc(['capability', 'import', file, '--dry-run', ...g]);
    expect(dry.stdout).toContain('skill:manual:notes: dry run, enableable');
    const imported = await cli.cccc(['capability', 'import', file, '--enable', '--scope', 'actor', '--actor', 'p1', ...g]);
    expect(imported.stdout).toContain('skill:manual:notes: created, runnable');
    const bad = await cli.cccc(['capability', 'import', join(cli.home(), 'missing.json'), ...g]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('invalid_request');
  });
});
