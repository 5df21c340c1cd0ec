import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

// A missing executable and an agent that exits at once (status 3, after printing why).
const QUICK = `sh -c 'X=file; echo "quick: config $X is broken"; exit 3'`;

async function brokenTeam(): Promise<string> {
  const { group_id } = await cli.json(['group', 'create', '--title', 'honest']);
  await cli.json(['use', group_id]);
  const scope = join(cli.home(), 'scope');
  mkdirSync(scope, { recursive: true });
  await cli.json(['attach', scope, '--group', group_id]);
  await cli.json(['actor', 'add', 'ghost', '--runtime', 'custom', '--command', 'cccc-test-no-such-agent']);
  await cli.json(['actor', 'add', 'quick', '--runtime', 'custom', '--command', QUICK]);
  await cli.json(['actor', 'add', 'fine', '--runtime', 'custom', '--command', 'cat']);
  return group_id;
}

describe('cccc group start / actor start report actors that did not start', () => {
  it('group start names who runs and why the others do not, and exits 1', async () => {
    const gid = await brokenTeam();
    const res = await cli.cccc(['group', 'start']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`started ${gid}: fine\n`);
    expect(res.stdout).toMatch(/not started: ghost: executable_not_found: .*cccc-test-no-such-agent/);
    expect(res.stdout).toContain('not started: quick: exited_early: exited with code 3 within 1.5 s of starting\n');
    expect(res.stdout).toContain('    | quick: config file is broken');

    const list = await cli.cccc(['actor', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('not started: quick: exited_early');
    expect(list.stdout).toContain('not started: ghost: executable_not_found');

    const json = await cli.cccc(['group', 'start', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).failed).toEqual(['ghost', 'quick']);
  });

  it('actor start prints the exit status and output of an agent that exited at once, and exits 1', async () => {
    await brokenTeam();
    const res = await cli.cccc(['actor', 'start', 'quick']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: runtime_start_failed: quick did not start: exited with code 3');
    expect(res.stderr).toContain('    | quick: config file is broken');
    const ghost = await cli.cccc(['actor', 'start', 'ghost']);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toContain('not started: ghost: executable_not_found');
    expect((await cli.cccc(['actor', 'start', 'fine'])).code).toBe(0);
  });
});
