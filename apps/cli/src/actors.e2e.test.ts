import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

async function activeGroup(): Promise<string> {
  const { group_id } = await cli.json(['group', 'create', '--title', 'actors']);
  await cli.json(['use', group_id]);
  return group_id;
}

describe('cccc actor (real daemon)', () => {
  it('adds, lists, updates and removes actors; argv boundaries survive', async () => {
    await activeGroup();
    const added = await cli.json(['actor', 'add', 'lead', '--runtime', 'custom', '--title', 'Lead', '--command', `my-agent --name "two words" ''`, '--submit', 'newline']);
    expect(added.actor).toMatchObject({ id: 'lead', title: 'Lead', runtime: 'custom', submit: 'newline', command: ['my-agent', '--name', 'two words', ''] });
    const viaArgs = await cli.json(['actor', 'add', 'helper', '--runtime', 'custom', '--arg', 'run', '--arg', 'a b', '--enabled', 'false']);
    expect(viaArgs.actor).toMatchObject({ id: 'helper', command: ['run', 'a b'], enabled: false });

    const list = await cli.cccc(['actor', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+TITLE\s+ROLE\s+RUNTIME\s+ENABLED\s+RUNNING\s+STATE\n/);
    expect(list.stdout).toMatch(/lead\s+Lead\s+foreman\s+custom\s+yes\s+no\s+stopped\n/);
    expect(list.stdout).toMatch(/helper\s+.*peer\s+custom\s+no/);

    const updated = await cli.json(['actor', 'update', 'helper', '--title', 'Helper', '--enabled', 'true']);
    expect(updated.actor).toMatchObject({ id: 'helper', title: 'Helper', enabled: true });
    expect((await cli.cccc(['actor', 'update', 'helper'])).stderr).toMatch(/^error: invalid_patch: /);

    expect((await cli.cccc(['actor', 'remove', 'helper'])).stdout).toContain('removed helper');
    const after = await cli.json(['actor', 'list']);
    expect(after.actors.map((a: { id: string }) => a.id)).toEqual(['lead']);
    const missing = await cli.cccc(['actor', 'remove', 'helper']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: actor_not_found: /);
  });

  it('secrets: prints key names only, never a value given with --set', async () => {
    await activeGroup();
    await cli.json(['actor', 'add', 'lead', '--runtime', 'custom', '--command', 'true']);
    const secret = 'sk-very-secret-value-4242';
    const set = await cli.cccc(['actor', 'secrets', 'lead', '--set', `API_KEY=${secret}`, '--set', 'OTHER=x=y']);
    expect(set.code).toBe(0);
    expect(set.stdout.split('\n').filter(Boolean).sort()).toEqual(['API_KEY', 'OTHER']);
    const list = await cli.cccc(['actor', 'secrets', 'lead', '--json']);
    expect(JSON.parse(list.stdout)).toEqual({ group_id: expect.any(String), actor_id: 'lead', keys: expect.arrayContaining(['API_KEY', 'OTHER']) });
    const unset = await cli.json(['actor', 'secrets', 'lead', '--unset', 'OTHER']);
    expect(unset.keys).toEqual(['API_KEY']);
    // A malformed entry is reported by position, so even a mistyped secret is not echoed.
    const bad = await cli.cccc(['actor', 'secrets', 'lead', '--set', secret]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: invalid_env_entry: /);
    const cleared = await cli.json(['actor', 'secrets', 'lead', '--clear']);
    expect(cleared.keys).toEqual([]);
    for (const out of [set, list, bad]) expect(out.stdout + out.stderr).not.toContain(secret);
  });

  it('a non-user principal may not touch secrets (permission error, exit 1)', async () => {
    await activeGroup();
    await cli.json(['actor', 'add', 'lead', '--runtime', 'custom', '--command', 'true']);
    const res = await cli.cccc(['actor', 'secrets', 'lead'], { CCCC_ACTOR_ID: 'lead' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: permission_denied: /);
  });
});

describe('cccc profile (real daemon)', () => {
  it('upserts, lists, shows, edits secrets of and deletes a profile', async () => {
    const saved = await cli.json(['profile', 'upsert', '--name', 'Claude', '--runtime', 'claude', '--command', 'claude --verbose']);
    const id = saved.profile.id as string;
    expect(saved.profile).toMatchObject({ name: 'Claude', runtime: 'claude', command: ['claude', '--verbose'] });
    const list = await cli.cccc(['profile', 'list']);
    expect(list.stdout).toMatch(/^ID\s+NAME\s+RUNTIME\s+USED_BY/);
    expect(list.stdout).toContain(id);
    expect((await cli.cccc(['profile', 'show', id])).stdout).toContain('name:     Claude');

    const secret = 'profile-secret-9876';
    const set = await cli.cccc(['profile', 'secrets', id, '--set', `TOKEN=${secret}`]);
    expect(set.stdout.trim()).toBe('TOKEN');
    const keys = await cli.cccc(['profile', 'secrets', id, '--json']);
    expect(JSON.parse(keys.stdout)).toEqual({ profile_id: id, keys: ['TOKEN'] });
    for (const out of [set, keys]) expect(out.stdout + out.stderr).not.toContain(secret);

    expect((await cli.json(['profile', 'delete', id])).deleted).toBe(true);
    expect((await cli.cccc(['profile', 'show', id])).stderr).toMatch(/^error: profile_not_found: /);
  });

  it('list shows a hooked agent as "idle", then "waiting for permission" while it asks', async () => {
    const scope = mkdtempSync(join(tmpdir(), 'cccc-cli-actors-'));
    try {
      await cli.json(['attach', scope]);
      // The fake agent installed as `claude`: the daemon version-probes it and injects its hooks.
      const claude = installFakeAgentAs(join(cli.home(), 'bin'), 'claude');
      await cli.json(['actor', 'add', 'lead', '--runtime', 'custom', '--arg', claude]);
      await cli.json(['group', 'start']);
      const stateOf = async () => (await cli.cccc(['actor', 'list'])).stdout.match(/^lead\s.*?\s(?:yes|no)\s+(?:yes|no)\s+(.+)$/m)?.[1];
      await until(async () => (await stateOf()) === 'idle', 'lead idle by its hooks');
      await cli.json(['send', 'fake:permission to run a tool', '--to', 'lead']);
      await until(async () => (await stateOf()) === 'waiting for permission', 'lead waiting for permission');
      const [entry] = (await cli.json(['actor', 'list'])).actors;
      expect(entry).toMatchObject({ effective_working_state: 'waiting', state_source: 'hook', input_state: 'waiting_user' });
    } finally {
      rmSync(scope, { recursive: true, force: true });
    }
  });
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
