import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

// A home holds the daemon socket, access tokens and actor secrets: whichever process creates it
// creates it owner-only (0700), and `cccc doctor` then finds nothing to warn about. Each test
// points CCCC_HOME at a path that does not exist yet (two levels deep, so parents are new too).

const cli = useDaemonHome({ startDaemon: false });
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const freshHome = () => join(cli.home(), 'fresh', 'home');

/** The doctor's verdict on the home's permissions (the other checks depend on the machine). */
async function homeChecks(env: NodeJS.ProcessEnv) {
  const doctor = await cli.cccc(['doctor', '--json'], env);
  const { checks } = JSON.parse(doctor.stdout) as { checks: Array<{ check: string; status: string; detail: string }> };
  return checks.filter((c) => ['home', 'state', 'secrets', 'secret files'].includes(c.check));
}

describe('a fresh CCCC_HOME is owner-only (0700)', () => {
  it('made by `cccc daemon start`; after a team with secrets and a profile, doctor has no warning', async () => {
    const home = freshHome();
    const env = { CCCC_HOME: home };
    try {
      expect((await cli.cccc(['daemon', 'start'], env)).code).toBe(0);
      expect(mode(home)).toBe('700');
      expect(mode(join(home, '..'))).toBe('700');
      const scope = join(cli.home(), 'scope');
      mkdirSync(scope);
      for (const args of [
        ['attach', scope],
        ['actor', 'add', 'lead', '--runtime', 'custom', '--command', 'true'],
        ['actor', 'secrets', 'lead', '--set', 'API_KEY=x'],
        ['profile', 'upsert', '--name', 'p', '--runtime', 'custom', '--command', 'true'],
        ['web', 'token', 'create', '--admin'],
      ]) {
        const run = await cli.cccc(args, env);
        expect(run.code, `cccc ${args.join(' ')}: ${run.stderr}`).toBe(0);
      }
      const checks = await homeChecks(env);
      expect(checks.map((c) => c.check)).toEqual(['home', 'state', 'secrets', 'secret files']);
      for (const c of checks) expect(c.status, `${c.check}: ${c.detail}`).toBe('ok');
      expect(mode(join(home, 'state'))).toBe('700');
    } finally {
      await cli.cccc(['daemon', 'stop'], env);
    }
  });

  it('made by the daemon itself (`cccc daemon run`)', async () => {
    const home = freshHome();
    const env = { CCCC_HOME: home };
    const daemon = cli.spawn(['daemon', 'run'], env);
    try {
      const deadline = Date.now() + 60_000;
      while ((await cli.cccc(['daemon', 'status'], env)).code !== 0) {
        if (Date.now() > deadline || daemon.child.exitCode !== null) throw new Error(`daemon did not start: ${daemon.stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(mode(home)).toBe('700');
      for (const c of await homeChecks(env)) expect(c.status, `${c.check}: ${c.detail}`).toBe('ok');
    } finally {
      await cli.cccc(['daemon', 'stop'], env);
    }
  });

  it('made by a CLI command that needs no daemon (`cccc web token create`)', async () => {
    const home = freshHome();
    const created = await cli.cccc(['web', 'token', 'create', '--admin'], { CCCC_HOME: home });
    expect(created.code, created.stderr).toBe(0);
    expect(mode(home)).toBe('700');
    expect(mode(join(home, 'access_tokens.yaml'))).toBe('600');
  });
});
