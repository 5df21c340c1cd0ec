import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { reply, startFakeModel } from '../fake-model/index.js';
import { actorProbe, type DaemonGroup, killProcessesWithHome } from './daemon-actor.js';
import { daemonUp, isAlive, ledgerOf, runDaemon } from './daemon-child.js';
import { claudeEnv, describeWithRealClis, readHookPayloads, recordingHookSettings, seedClaudeHome } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// A claude actor as a CCCC-owned Agent View background session (issue 25, spec §8.4): the daemon
// starts `claude --bg`, records the job and provider session in a version-2 receipt, runs
// `claude attach <job>` in the actor's PTY, and delivers by typing into that attached TUI with
// the hook channel (which fires for background turns) confirming the delivery. A kill -9 of the
// daemon leaves the job running; the next daemon resumes the same session; daemon stop leaves
// no Agent View job or process behind. A second case proves the deliberate native fallback.

const teardown = realCliTeardown();

describeWithRealClis('real claude as a background-session daemon actor (Agent View)', (clis) => {
  async function claudeGroup(modelUrl: string, daemonEnv: NodeJS.ProcessEnv) {
    const home = teardown.home(mkdtempSync(join(tmpdir(), 'cccc-claude-bg-')));
    teardown.cleanups.push(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }));
    const daemon = runDaemon(teardown, home, daemonEnv);
    const client = await daemonUp(home);
    const { group_id } = await client.call('group_create', { title: 'claude background' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id });
    const agentHome = join(home, 'agent');
    mkdirSync(agentHome, { recursive: true });
    seedClaudeHome(agentHome, scope, { acceptBypassPermissions: true });
    const hookDir = join(agentHome, 'hook-payloads');
    const recording = JSON.parse(recordingHookSettings(hookDir, ['SessionStart', 'UserPromptSubmit', 'Stop'])) as object;
    writeFileSync(join(agentHome, '.claude', 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true, ...recording }));
    const env: Record<string, string> = { ...claudeEnv(modelUrl, agentHome, clis.withPath().PATH!), ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) };
    // Whatever the test leaves, no Agent View supervisor of this private config dir outlives it:
    // asked to stop, then whatever still runs with this home ended (a supervisor busy with a job
    // the test left behind did not always stop when asked).
    teardown.cleanups.push(() => {
      try {
        execFileSync(clis.bin('claude'), ['daemon', 'stop', '--any'], { env, cwd: scope, timeout: 15_000, stdio: 'ignore' });
      } catch {
        // none running
      }
      killProcessesWithHome(agentHome);
    });
    const jobs = () => JSON.parse(execFileSync(clis.bin('claude'), ['agents', '--json'], { env, cwd: scope, timeout: 15_000, encoding: 'utf8' })) as Array<{ id: string; sessionId: string; kind: string }>;
    return { home, daemon, client, group_id, scope, env, agentHome, hookDir, jobs, group: { home, client, groupId: group_id, scope } as DaemonGroup };
  }

  it('starts a background session, attaches the PTY to it, confirms a delivery once, resumes the same session after kill -9, and leaves nothing behind', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('Background reply one'), reply('Background reply two')] }));
    const g = await claudeGroup(model.url, { CCCC_CLAUDE_BACKGROUND: '1' });
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'claude', env: g.env });
    await g.client.call('group_start', { group_id: g.group_id });
    const hooks = () => readHookPayloads(g.hookDir);
    const daemonLog = () => {
      try {
        return readFileSync(join(g.home, 'daemon', 'ccccd.log'), 'utf8').split('\n').filter((l) => /claude|actor start/i.test(l)).slice(-8).join('\n');
      } catch {
        return '';
      }
    };
    const probe = actorProbe(g.group, 'peer1', () => `hooks: ${JSON.stringify(hooks().map((p) => [p.hook_event_name, p.session_id]))}\nmodel: ${model.requests.filter((r) => r.main).length} main\nlog:\n${daemonLog()}`);
    await until(async () => (await probe.actor())?.runner_effective === 'claude_background', 'the actor on its background session', 90_000, probe.diagnose);

    // The receipt names the exact job and provider session; Agent View lists that job as a background session.
    const receiptPath = join(g.home, 'groups', g.group_id, 'state', 'runners', 'claude-background', 'peer1.json');
    const receipt = JSON.parse(readFileSync(receiptPath, 'utf8')) as { v: number; runtime: string; session_id: string; job_id: string };
    expect(receipt).toMatchObject({ v: 2, runtime: 'claude' });
    expect(g.jobs()).toContainEqual(expect.objectContaining({ id: receipt.job_id, sessionId: receipt.session_id, kind: 'background' }));
    // The settings file holds the launch environment, owner-only; the job record names only its path.
    const settingsPath = join(g.home, 'groups', g.group_id, 'state', 'runners', 'claude-background', 'peer1.settings.json');
    expect(statSync(settingsPath).mode & 0o777).toBe(0o600);
    const jobState = readFileSync(join(g.agentHome, '.claude', 'jobs', receipt.job_id, 'state.json'), 'utf8');
    expect(jobState).toContain(settingsPath);
    expect(jobState).not.toContain(g.env.ANTHROPIC_API_KEY);
    // The actor's PTY runs `claude attach <job>`.
    const tuiPid = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.json'), 'utf8')).pid as number;
    expect(readFileSync(`/proc/${tuiPid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['attach', receipt.job_id]));
    // The background worker fired SessionStart for the receipt's session (the recording hook sees it).
    await until(() => hooks().some((p) => p.hook_event_name === 'SessionStart' && p.session_id === receipt.session_id), 'SessionStart of the background session', 30_000, probe.diagnose);

    const text = 'background delivery 5d2a';
    const { event } = await g.client.call('send', { group_id: g.group_id, text, to: ['peer1'], message_mode: 'send' });
    const confirmed = await until(async () => {
      const s = await probe.status(event.id);
      return s?.delivery_confirmation ? s : undefined;
    }, 'the delivery confirmation', 90_000, probe.diagnose);
    expect(confirmed).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
    await until(() => hooks().some((p) => p.hook_event_name === 'Stop' && p.session_id === receipt.session_id), 'the turn to end', 60_000, probe.diagnose);
    expect(model.countOccurrences(text)).toBe(1);
    expect(hooks().filter((p) => p.hook_event_name === 'UserPromptSubmit').map((p) => p.session_id)).toEqual([receipt.session_id]);
    await until(async () => (await probe.screen()).includes('Background reply one'), 'the reply in the attached TUI', 30_000, probe.diagnose);
    const started = ledgerOf(g.home, g.group_id).filter((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id);
    expect(started.map((e) => e.data.state)).toContain('accepted');

    // kill -9 of the daemon: Agent View keeps the job (it is not the daemon's child); the next daemon
    // retires the orphaned attach TUI and resumes the same session under the same job.
    g.daemon.kill('SIGKILL');
    await until(() => g.daemon.exitCode !== null || g.daemon.signalCode !== null, 'the daemon to die', 10_000);
    expect(g.jobs().map((j) => j.id)).toContain(receipt.job_id);
    runDaemon(teardown, g.home, { CCCC_CLAUDE_BACKGROUND: '1' });
    const client = await daemonUp(g.home);
    await until(() => !isAlive(tuiPid), 'the orphaned attach TUI retired', 30_000);
    const probe2 = actorProbe({ ...g.group, client }, 'peer1', () => `hooks: ${JSON.stringify(hooks().map((p) => [p.hook_event_name, p.session_id]))}`);
    await until(async () => (await probe2.actor())?.runner_effective === 'claude_background', 'the actor back on its background session', 90_000, probe2.diagnose);
    expect(JSON.parse(readFileSync(receiptPath, 'utf8'))).toMatchObject({ session_id: receipt.session_id, job_id: receipt.job_id });
    expect(g.jobs().filter((j) => j.kind === 'background').map((j) => [j.id, j.sessionId])).toEqual([[receipt.job_id, receipt.session_id]]);
    const tui2 = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.json'), 'utf8')).pid as number;
    expect(tui2).not.toBe(tuiPid);

    const second = 'after restart background 8c1e';
    const { event: event2 } = await client.call('send', { group_id: g.group_id, text: second, to: ['peer1'], message_mode: 'send' });
    await until(async () => (await probe2.status(event2.id))?.delivery_confirmation === 'confirmed', 'the second delivery confirmed', 90_000, probe2.diagnose);
    // The prompt hook confirms before the model is asked: wait for the request itself.
    await until(() => model.countOccurrences(second) === 1, 'the resumed session asking the model', 60_000, probe2.diagnose);
    // Same conversation: the resumed session sends the first turn as history.
    const last = model.requests.filter((r) => r.main && JSON.stringify(r.body).includes(second)).at(-1);
    expect(JSON.stringify(last?.body)).toContain(text);
    expect(new Set(hooks().filter((p) => p.hook_event_name === 'UserPromptSubmit').map((p) => p.session_id))).toEqual(new Set([receipt.session_id]));

    // daemon stop: the job is confirmed absent, the attach TUI is gone, and Agent View's own
    // supervisor (which exits once no session runs) leaves no process behind.
    const supervisorPid = (JSON.parse(readFileSync(join(g.agentHome, '.claude', 'daemon.status.json'), 'utf8')) as { supervisorPid: number }).supervisorPid;
    await teardown.cccc(['daemon', 'stop']);
    expect(g.jobs()).toEqual([]);
    await until(() => !isAlive(tui2), 'the attach TUI gone', 20_000);
    await until(() => !isAlive(supervisorPid), 'the Agent View supervisor gone', 30_000);
    const leftovers = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(join(g.agentHome)) || l.includes(receipt.job_id));
    expect(leftovers).toEqual([]);
    expect(existsSync(receiptPath)).toBe(true); // the receipt stays resumable after an ordinary stop
  }, 360_000);

  it('by default (no CCCC_CLAUDE_BACKGROUND) the attached terminal is only an attachment: a killed claude attach is re-opened on the same job, which keeps the actor and takes the next delivery', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('Reattached reply 3f7a')] }));
    const g = await claudeGroup(model.url, {});
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'claude', env: g.env });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1', () => `hooks: ${JSON.stringify(readHookPayloads(g.hookDir).map((p) => [p.hook_event_name, p.session_id]))}`);
    await until(async () => (await probe.actor())?.runner_effective === 'claude_background', 'the actor on its background session (the default)', 90_000, probe.diagnose);
    const receipt = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'claude-background', 'peer1.json'), 'utf8')) as { session_id: string; job_id: string };
    const ptyPid = () => {
      try {
        return JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.json'), 'utf8')).pid as number;
      } catch {
        return undefined;
      }
    };
    const attachOf = (pid: number | undefined) => (pid !== undefined && isAlive(pid) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') : []);

    for (let round = 1; round <= 2; round++) {
      const tui = ptyPid()!;
      expect(attachOf(tui)).toEqual(expect.arrayContaining(['attach', receipt.job_id]));
      process.kill(tui, 'SIGKILL');
      const reopened = await until(() => {
        const pid = ptyPid();
        return pid !== undefined && pid !== tui && attachOf(pid).includes(receipt.job_id) ? pid : undefined;
      }, `the attachment re-opened (round ${round})`, 30_000, probe.diagnose);
      expect(reopened).not.toBe(tui);
      expect(g.jobs()).toContainEqual(expect.objectContaining({ id: receipt.job_id, sessionId: receipt.session_id, kind: 'background' }));
      expect(await probe.actor()).toMatchObject({ running: true, runner_effective: 'claude_background' });
    }
    // No actor.stop: the actor never ended; the same job serves the next delivery.
    expect(ledgerOf(g.home, g.group_id).filter((e) => e.kind === 'actor.stop')).toEqual([]);
    const text = 'after reattach 6b0d';
    const { event } = await g.client.call('send', { group_id: g.group_id, text, to: ['peer1'], message_mode: 'send' });
    await until(async () => (await probe.status(event.id))?.delivery_confirmation === 'confirmed', 'the delivery through the re-opened attachment confirmed', 90_000, probe.diagnose);
    await until(() => model.countOccurrences(text) === 1, 'the model asked once', 60_000, probe.diagnose);
    await until(async () => (await probe.screen()).includes('Reattached reply 3f7a'), 'the reply in the re-opened TUI', 30_000, probe.diagnose);
    expect(readHookPayloads(g.hookDir).filter((p) => p.hook_event_name === 'UserPromptSubmit').map((p) => p.session_id)).toEqual([receipt.session_id]);
    await teardown.cccc(['daemon', 'stop']);
    expect(g.jobs()).toEqual([]);
  }, 240_000);

  it('a receipt naming a session that cannot be resumed: claude_resume_failed, runtime_session_status resume_failed, the receipt kept, automatic startup paused, no fresh session; actor_new_session clears it', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('Fresh after new session')] }));
    const g = await claudeGroup(model.url, {});
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'claude', env: g.env });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1');
    await until(async () => (await probe.actor())?.runner_effective === 'claude_background', 'the actor on its background session', 90_000, probe.diagnose);
    // daemon stop keeps the actor enabled and its receipt; the job is confirmed gone.
    await teardown.cccc(['daemon', 'stop']);
    expect(g.jobs()).toEqual([]);
    // The saved conversation now names a provider session that never existed (same launch identity).
    const receiptPath = join(g.home, 'groups', g.group_id, 'state', 'runners', 'claude-background', 'peer1.json');
    const missing = '00000000-0000-4000-8000-0000000000a5';
    const receipt = { ...(JSON.parse(readFileSync(receiptPath, 'utf8')) as Record<string, unknown>), session_id: missing };
    writeFileSync(receiptPath, JSON.stringify(receipt));
    const mainRequests = model.requests.filter((r) => r.main).length;

    // The next daemon's automatic start tries the resume, which fails: recorded, nothing fresh.
    runDaemon(teardown, g.home, {});
    let client = await daemonUp(g.home);
    let probe2 = actorProbe({ ...g.group, client }, 'peer1');
    await until(async () => (await probe2.actor())?.start_failure?.code === 'claude_resume_failed', 'the failed resume reported', 90_000, probe2.diagnose);
    const listed = await probe2.actor();
    expect(listed).toMatchObject({ running: false, runtime_session_status: 'resume_failed', runtime_session_resume_eligible: false });
    expect((listed as { runtime_session_last_resume_error?: string }).runtime_session_last_resume_error).toContain(missing);
    // What the failed resume started is stopped; Agent View may list it a little longer under load.
    const noJob = (label: string) => until(() => (g.jobs().length === 0 ? true : undefined), label, 30_000, async () => JSON.stringify(g.jobs()));
    await noJob('no job left by the failed automatic resume');
    expect(JSON.parse(readFileSync(receiptPath, 'utf8'))).toMatchObject({ session_id: missing });
    const failurePath = receiptPath.replace(/\.json$/, '.resume-failure.json');
    expect(JSON.parse(readFileSync(failurePath, 'utf8'))).toMatchObject({ session_id: missing, count: 1 });

    // An explicit actor_start retries the same saved conversation (and fails the same way).
    const refused = await client.call('actor_start', { group_id: g.group_id, actor_id: 'peer1' }).then(
      () => undefined,
      (error: { code?: string }) => error,
    );
    expect(refused).toMatchObject({ code: 'claude_resume_failed' });
    expect(JSON.parse(readFileSync(failurePath, 'utf8'))).toMatchObject({ session_id: missing, count: 2 });
    await noJob('no job left by the failed explicit resume');

    // Automatic startup is now paused: a restarted daemon does not try again.
    await teardown.cccc(['daemon', 'stop']);
    runDaemon(teardown, g.home, {});
    client = await daemonUp(g.home);
    probe2 = actorProbe({ ...g.group, client }, 'peer1');
    await until(async () => (await probe2.actor())?.start_failure?.code === 'claude_resume_failed', 'the paused automatic start reported', 60_000, probe2.diagnose);
    expect((await probe2.actor())?.start_failure?.message).toContain('automatic start paused');
    expect(JSON.parse(readFileSync(failurePath, 'utf8'))).toMatchObject({ count: 2 });
    expect(g.jobs()).toEqual([]);
    expect(model.requests.filter((r) => r.main).length).toBe(mainRequests);

    // actor_new_session selects a fresh conversation and clears the failure.
    await client.call('actor_new_session', { group_id: g.group_id, actor_id: 'peer1' });
    await until(async () => (await probe2.actor())?.runner_effective === 'claude_background', 'the fresh background session', 90_000, probe2.diagnose);
    const after = (await probe2.actor()) as Record<string, unknown>;
    expect(after.runtime_session_status).toBeUndefined();
    const fresh = JSON.parse(readFileSync(receiptPath, 'utf8')) as { session_id: string; job_id: string };
    expect(fresh.session_id).not.toBe(missing);
    expect(g.jobs()).toContainEqual(expect.objectContaining({ id: fresh.job_id, sessionId: fresh.session_id }));
    await teardown.cccc(['daemon', 'stop']);
  }, 300_000);

  it('an untrusted workspace: claude --bg refuses at once, and the start fails with what to do (no hang, no job, the trust decision never written)', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('never')] }));
    const g = await claudeGroup(model.url, {});
    // The same home without the scope's accepted trust prompt.
    const claudeJson = join(g.agentHome, '.claude.json');
    const seeded = JSON.parse(readFileSync(claudeJson, 'utf8')) as Record<string, unknown>;
    writeFileSync(claudeJson, JSON.stringify({ ...seeded, projects: {} }));
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'claude', env: g.env });
    const began = Date.now();
    const refused = await g.client.call('actor_start', { group_id: g.group_id, actor_id: 'peer1' }).then(
      () => undefined,
      (error: { code?: string; message?: string }) => error,
    );
    expect(Date.now() - began).toBeLessThan(60_000);
    expect(refused).toMatchObject({ code: 'runtime_start_failed' });
    expect(refused?.message).toContain('is not trusted');
    expect(refused?.message).toContain('accept the trust prompt');
    expect(await actorProbe(g.group, 'peer1').actor()).toMatchObject({ running: false });
    expect(g.jobs()).toEqual([]);
    expect((JSON.parse(readFileSync(claudeJson, 'utf8')) as { projects: object }).projects).toEqual({});
    expect(model.requests.filter((r) => r.main)).toEqual([]);
  }, 120_000);

  it('below the version floor it is a deliberate native-PTY fallback: runner_effective pty and a start caveat naming the version', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('Native reply')] }));
    const g = await claudeGroup(model.url, { CCCC_CLAUDE_BACKGROUND: '1' });
    // A claude whose --version says 2.1.200 (the real one runs everything else).
    const shim = join(g.home, 'old-claude');
    mkdirSync(shim);
    writeFileSync(join(shim, 'claude'), `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.200 (Claude Code)"; exit 0; fi\nexec ${JSON.stringify(clis.bin('claude'))} "$@"\n`, { mode: 0o755 });
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'claude', env: { ...g.env, PATH: `${shim}:${g.env.PATH}` } });
    const result = await g.client.call('actor_start', { group_id: g.group_id, actor_id: 'peer1' });
    const probe = actorProbe(g.group, 'peer1');
    await until(async () => (await probe.actor())?.running, 'the actor running', 60_000, probe.diagnose);
    const actor = (await probe.actor())!;
    expect(actor.runner_effective).toBe('pty');
    const warning = (result as { start_warning?: { code: string; message: string } }).start_warning ?? (actor as { start_warning?: { code: string; message: string } }).start_warning;
    expect(warning).toMatchObject({ code: 'claude_version_unsupported' });
    expect(warning?.message).toContain('2.1.200 is below 2.1.259');
    // Agent View lists the native TUI as an interactive session, and no background job exists.
    expect(g.jobs().map((j) => j.kind)).toEqual(['interactive']);
    expect(existsSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'claude-background', 'peer1.json'))).toBe(false);
  }, 180_000);
});
