import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../../test-support/claude-fixture.js';
import { FAST_ENV, isAlive, startDaemonFixture, waitFor } from '../../test-support/daemon-fixture.js';

// §8.4 Grok through a real daemon (CCCC_GROK_MANAGED=1), against the scripted ACP agent's "grok"
// flavour installed as an executable named `grok`: built against the spec; no real Grok CLI here.

const FAKE_ACP = join(import.meta.dirname, '..', '..', '..', '..', 'libs', 'pty-runtime', 'src', 'managed', 'acp', 'fixtures', 'fake-acp-agent.mjs');
type LogEntry = { pid: number; request?: string; params?: Record<string, any>; text?: string; notification?: string };

describe('grok managed actor through the daemon', () => {
  it('opt-in, delivery settled by the correlated turn_completed, cancellation, and a kill -9 resume whose replay admits nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-grok-'));
    const fakeState = join(home, 'fake-acp-state');
    mkdirSync(fakeState, { recursive: true });
    mkdirSync(join(home, 'bin'));
    const grok = join(home, 'bin', 'grok');
    writeFileSync(grok, `#!/bin/sh\nexec '${process.execPath}' '${FAKE_ACP}' "$@"\n`);
    chmodSync(grok, 0o755);
    const log = (): LogEntry[] => (existsSync(join(fakeState, 'log.jsonl')) ? readFileSync(join(fakeState, 'log.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogEntry) : []);
    const env = { ...FAST_ENV, CCCC_GROK_MANAGED: '1' };
    const daemon = spawn(process.execPath, [BUILT_CLI, 'daemon', 'run'], { env: { ...process.env, ...env, CCCC_HOME: home }, stdio: 'ignore' });
    try {
      const client = new DaemonClient({ home });
      await waitFor(async () => (await client.request({ v: 1, op: 'ping', args: {} }).catch(() => undefined))?.ok, 15_000, 'daemon up');
      const { group_id } = await client.call('group_create', { title: 'grok' });
      const project = join(home, 'project');
      mkdirSync(project);
      await client.call('attach', { path: project, group_id });
      await client.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
      await client.call('actor_add', { group_id, actor_id: 'gk', runtime: 'grok', command: [grok, '--always-approve'], env: { FAKE_ACP_STATE_DIR: fakeState, FAKE_ACP_FLAVOR: 'grok' } });
      await client.call('actor_start', { group_id, actor_id: 'gk' });
      const listed = (await client.call('actor_list', { group_id })).actors.find((a) => a.id === 'gk')!;
      expect(listed).toMatchObject({ running: true, runner_effective: 'grok_acp', runtime_state_source: 'managed_session' });
      // The echo opt-in on initialize and on the session request; --always-approve reaches `grok agent`.
      expect(log().find((e) => e.request === 'initialize')?.params?.clientCapabilities?._meta).toEqual({ 'x.ai/userMessageEcho': true });
      expect(log().find((e) => e.request === 'session/new')?.params?._meta).toEqual({ clientUserMessageEcho: true });
      const ledger = join(home, 'groups', group_id, 'ledger.jsonl');
      const evs = () => (existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { kind: string; data: Record<string, any> }) : []);
      const turns = (kind: string) => evs().filter((e) => e.kind === kind && e.data.actor_id === 'gk');

      // Delivery: accepted, and the turn settled by the correlated turn_completed long before the late RPC answer.
      const { event } = await client.call('send', { group_id, text: 'acp-script:late 8000', to: ['gk'], message_mode: 'send' });
      await waitFor(() => evs().some((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id && e.data.state === 'accepted'), 20_000, 'delivery accepted');
      await waitFor(() => turns('headless.turn.completed').length === 1, 6_000, 'turn settled by turn_completed');
      expect(turns('headless.turn.completed')[0]!.data).toMatchObject({ status: 'completed', transport: 'grok_acp' });

      // send_now cancellation: the old turn is settled interrupted; the next delivery is its own turn.
      await client.call('send', { group_id, text: 'acp-script:hang', to: ['gk'], message_mode: 'send' });
      await waitFor(() => turns('headless.turn.started').length === 2, 20_000, 'hang started');
      const generation = ((await client.call('headless_control_state', { group_id, actor_id: 'gk' })).state as { generation: string }).generation;
      const cancelled = await client.request({ v: 1, op: 'headless_control', args: { group_id, actor_id: 'gk', by: 'user', generation, action: 'cancel' } });
      expect(cancelled.ok).toBe(true);
      await waitFor(() => turns('headless.turn.completed').length === 2, 10_000, 'cancel settled');
      expect(turns('headless.turn.completed')[1]!.data.status).toBe('interrupted');
      await client.call('send', { group_id, text: 'acp-script:after-cancel', to: ['gk'], message_mode: 'send' });
      await waitFor(() => turns('headless.turn.completed').length === 3, 20_000, 'next turn settled');
      expect(turns('headless.turn.completed').map((e) => e.data.status)).toEqual(['completed', 'interrupted', 'completed']);
      expect(new Set(turns('headless.turn.completed').map((e) => e.data.turn_id)).size).toBe(3);

      // kill -9 of the daemon: the next one retires the orphan, loads the same session, and the
      // replayed records start no turn and admit nothing.
      const before = (await client.call('headless_status', { group_id, actor_id: 'gk' })).state as Record<string, unknown>;
      const record = JSON.parse(readFileSync(join(home, 'groups', group_id, 'state', 'runners', 'pty', 'gk.grok_acp.json'), 'utf8')) as { pid: number };
      daemon.kill('SIGKILL');
      await waitFor(() => daemon.exitCode !== null || daemon.signalCode !== null, 5_000, 'daemon death');
      const prompts = log().filter((e) => e.request === 'session/prompt').length;
      const started = turns('headless.turn.started').length;
      const next = await startDaemonFixture({ home, env, cliEntry: BUILT_CLI });
      try {
        await waitFor(() => !isAlive(record.pid), 10_000, 'orphaned agent retired');
        const after = await waitFor(async () => (await next.client.request({ v: 1, op: 'headless_status', args: { group_id, actor_id: 'gk' } })).result?.state as Record<string, unknown> | undefined, 20_000, 'running again');
        expect(after.session_id).toBe(before.session_id);
        expect(log().filter((e) => e.request === 'session/load').at(-1)?.params).toMatchObject({ sessionId: before.session_id, _meta: { clientUserMessageEcho: true } });
        await new Promise((r) => setTimeout(r, 1_000));
        expect(turns('headless.turn.started').length).toBe(started);
        expect(log().filter((e) => e.request === 'session/prompt').length).toBe(prompts);
        expect(after.status).toBe('idle');
      } finally {
        await next[Symbol.asyncDispose]();
      }
    } finally {
      if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});
