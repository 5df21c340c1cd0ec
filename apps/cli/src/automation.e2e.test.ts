import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

// `cccc automation` against a real daemon started by the CLI.

const cli = useDaemonHome();

async function team(): Promise<string> {
  const { group_id } = await cli.json(['group', 'create', '--title', 'auto']);
  await cli.json(['use', group_id]);
  for (const id of ['lead', 'peer1']) await cli.json(['actor', 'add', id, '--runtime', 'custom', '--command', 'true']);
  return group_id;
}

describe('cccc automation (real daemon)', () => {
  it('lists the baseline, sets, enables, disables and deletes rules, shows the run state', async () => {
    await team();
    const listed = await cli.cccc(['automation', 'list']);
    expect(listed.stdout).toContain('version 1');
    expect(listed.stdout).toMatch(/off standup: every 900s → notify snippet:standup to @foreman/);

    const created = await cli.json(['automation', 'set', 'daily', '--cron', '0 9 * * 1-5', '--tz', 'Europe/Berlin', '--message', 'Plan the day, {{group_title}}', '--to', '@all']);
    expect(created).toMatchObject({ changed: true, version: 2, applied_actions: [{ type: 'create_rule', rule_id: 'daily' }] });
    const updated = await cli.cccc(['automation', 'set', 'daily', '--title', 'Morning']);
    expect(updated.stdout).toContain('updated daily (version 3)');
    const state = await cli.json(['automation', 'list']);
    expect(state.ruleset.rules.find((r: { id: string }) => r.id === 'daily')).toMatchObject({
      enabled: true,
      to: ['@all'],
      trigger: { kind: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
      action: { kind: 'notify', message: 'Plan the day, {{group_title}}', title: 'Morning' },
    });

    expect((await cli.cccc(['automation', 'enable', 'standup'])).stdout).toContain('standup enabled (version 4)');
    expect((await cli.cccc(['automation', 'enable', 'standup'])).stdout).toContain('standup already enabled');
    expect((await cli.cccc(['automation', 'disable', 'daily'])).stdout).toContain('daily disabled');
    const run = await cli.cccc(['automation', 'run-state']);
    expect(run.stdout).toMatch(/^now \d{4}-/);
    expect(run.stdout).toMatch(/standup: next \d{4}-\d\d-\d\dT/);
    expect(run.stdout).toContain('daily: next -, last -');
    expect((await cli.cccc(['automation', 'delete', 'daily'])).stdout).toContain('deleted daily');

    const bad = await cli.cccc(['automation', 'set', 'broken', '--cron', '0 9 * *']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('invalid_rule');
    const missing = await cli.cccc(['automation', 'enable', 'ghost']);
    expect(missing.stderr).toContain('rule_not_found');
  });

  it('a peer sets only its own personal rule; it sees group rules and its own', async () => {
    await team();
    const denied = await cli.cccc(['automation', 'set', 'nag', '--every', '600', '--message', 'stretch', '--by', 'peer1']);
    expect(denied.stderr).toContain('permission_denied');
    const mine = await cli.json(['automation', 'set', 'nag', '--every', '600', '--message', 'stretch', '--personal', '--by', 'peer1']);
    expect(mine.ruleset.rules.find((r: { id: string }) => r.id === 'nag')).toMatchObject({ scope: 'personal', owner_actor_id: 'peer1', to: ['peer1'] });
    const view = await cli.json(['automation', 'list', '--by', 'peer1']);
    expect(view.ruleset.rules.map((r: { id: string }) => r.id)).toEqual(['standup', 'nag']);
  });
});
