import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

async function team(): Promise<string> {
  const { group_id } = await cli.json(['group', 'create', '--title', 'maint']);
  await cli.json(['use', group_id]);
  for (const id of ['lead', 'peer1']) await cli.json(['actor', 'add', id, '--runtime', 'custom', '--command', 'true']);
  return group_id;
}

describe('cccc runtime list', () => {
  it('lists every catalog runtime with installed yes/no', async () => {
    const dir = join(cli.home(), 'bin');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'claude'), '#!/bin/sh\n', { mode: 0o755 });
    const env = { PATH: `${dir}:/usr/bin:/bin` };
    const table = await cli.cccc(['runtime', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^claude\s+yes\s+pty/m);
    expect(table.stdout).toMatch(/^codex\s+no\s+pty/m);
    expect(table.stdout).toMatch(/^custom\s+-\s+pty/m);
    const json = await cli.json(['runtime', 'list'], env);
    expect(json.runtimes.find((r: { runtime: string }) => r.runtime === 'claude')).toMatchObject({ installed: true, path: join(dir, 'claude') });
  });
});

describe('cccc doctor', () => {
  it('reports node, runtimes, a healthy daemon and private home permissions', async () => {
    const res = await cli.cccc(['doctor']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^ok\s+node\s+v\d+/m);
    expect(res.stdout).toMatch(/^ok\s+daemon\s+.*pid \d+/m);
    const json = await cli.json(['doctor']);
    expect(json.ok).toBe(true);
    expect(json.checks.map((c: { check: string }) => c.check)).toEqual(['node', 'runtimes', 'daemon', 'home', 'state', 'secrets', 'secret files']);
  });

  it('fails on a secret readable by others and warns about a loose home', async () => {
    const secrets = join(cli.home(), 'state', 'secrets', 'actors', 'g_x');
    mkdirSync(secrets, { recursive: true });
    writeFileSync(join(secrets, 'peer1.json'), '{}', { mode: 0o644 });
    chmodSync(join(secrets, 'peer1.json'), 0o644);
    chmodSync(cli.home(), 0o755);
    const res = await cli.cccc(['doctor']);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^fail\s+secret files\s+readable by others: .*peer1\.json/m);
    expect(res.stdout).toMatch(/^warn\s+home\s+.*mode 755/m);
  });

  it('warns when no daemon answers', async () => {
    await cli.cccc(['daemon', 'stop']);
    const json = await cli.json(['doctor']);
    expect(json.checks.find((c: { check: string }) => c.check === 'daemon')).toMatchObject({ status: 'warn' });
  });
});

describe('cccc ledger, deliver, cancel-reply', () => {
  it('ledger snapshot counts events; compact rotates', async () => {
    await team();
    await cli.json(['send', 'hello', '--to', 'peer1']);
    const snap = await cli.json(['ledger', 'snapshot', '--reason', 'e2e']);
    expect(snap.snapshot.event_count).toBeGreaterThan(1);
    const text = await cli.cccc(['ledger', 'snapshot']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^event_count: \d+$/m);
    const compact = await cli.cccc(['ledger', 'compact', '--force']);
    expect(compact.code).toBe(0);
  });

  it('deliver refuses an unknown event with the daemon error, and requires --to', async () => {
    await team();
    const unknown = await cli.cccc(['deliver', '0'.repeat(32), '--to', 'peer1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: [a-z_]+: /);
    const json = await cli.cccc(['deliver', '0'.repeat(32), '--to', 'peer1', '--json']);
    expect(JSON.parse(json.stdout).ok).toBe(false);
    const noTo = await cli.cccc(['deliver', '0'.repeat(32)]);
    expect(noTo.code).toBe(1);
    expect(noTo.stderr).toContain('--to');
  });

  it('cancel-reply cancels an open request_reply', async () => {
    await team();
    const sent = await cli.json(['send', 'please answer', '--to', 'peer1', '--mode', 'request-reply']);
    const res = await cli.json(['cancel-reply', sent.event.id]);
    expect(res.event.kind).toBe('chat.reply_request.cancelled');
  });
});

describe('cccc actor start|restart|stop, group start|stop (real PTY actors)', () => {
  it('starts a fake agent, tails its terminal, restarts and stops it', async () => {
    const { fakeAgentArgv } = await import('@cccc/pty-runtime/testing');
    const { group_id } = await cli.json(['group', 'create', '--title', 'life']);
    await cli.json(['use', group_id]);
    const scope = join(cli.home(), 'scope');
    mkdirSync(scope, { recursive: true });
    await cli.json(['attach', scope, '--group', group_id]);
    await cli.json(['actor', 'add', 'agent', '--runtime', 'custom', '--command', fakeAgentArgv(['--no-alt-screen']).join(' ')]);
    const started = await cli.cccc(['actor', 'start', 'agent']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('actor.start agent');
    let tail = '';
    for (let i = 0; i < 100 && !tail.includes('fake-agent>'); i++) {
      tail = (await cli.cccc(['terminal', 'tail', 'agent'])).stdout;
      if (!tail.includes('fake-agent>')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(tail).toContain('fake-agent ready');
    expect((await cli.cccc(['actor', 'restart', 'agent'])).code).toBe(0);
    const stopped = await cli.cccc(['actor', 'stop', 'agent']);
    expect(stopped.stdout).toContain('actor.stop agent (disabled)');
    const after = await cli.cccc(['terminal', 'tail', 'agent']);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('actor_not_running');
    const groupStart = await cli.json(['group', 'start']);
    expect(groupStart.group_id).toBe(group_id);
    const groupStop = await cli.cccc(['group', 'stop']);
    expect(groupStop.code).toBe(0);
    expect(groupStop.stdout).toContain(`stopped ${group_id}`);
  });
});
