import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { startWebServer } from '@cccc/web';
import { chromium, type Locator } from 'playwright-core';
import { expect, it } from 'vitest';
import { callNamespacedTool, callTool, reply, startFakeModel } from '../fake-model/index.js';
import { actorProbe, type DaemonGroup } from './daemon-actor.js';
import { codexEnv, describeWithRealClis, writeCodexConfig } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The actor card's controls for a managed codex actor, in a real headless Chromium against the
// real daemon, the built Web app and real codex 0.169.0 on the fake model: Approve and Deny of
// an escalated command, the question form of a request_user_input, and the form of an MCP
// server's elicitation. (Not in apps/web's e2e
// harness: real codex and the fake model live in this package, which depends on @cccc/web.)

const teardown = realCliTeardown();
const CCCC_BIN = createRequire(import.meta.url).resolve('@cccc/cli/bin/cccc.js');
const CHROMIUM = process.env.CCCC_CHROMIUM_PATH ?? '/usr/bin/chromium';
/** A stdio MCP server whose one tool asks the person through an elicitation. */
const ELICIT_MCP_SERVER = fileURLToPath(new URL('../../real-clis/elicit-mcp-server.mjs', import.meta.url));

describeWithRealClis('real codex managed actor: the card answers its requests in a browser', (clis) => {
  it('Approve runs the command, Deny refuses it, the question form and an MCP elicitation form send their answers', async () => {
    const escalate = (file: string) => callTool('exec_command', { cmd: `touch ${file}`, sandbox_permissions: 'require_escalated', justification: `Create ${file}` });
    const question = callTool('request_user_input', {
      questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'sqlite', description: 'a file' }, { label: 'postgres', description: 'a server' }] }],
    });
    const model = teardown.model(await startFakeModel({ steps: [
      escalate('approved-marker'),
      reply('Created'),
      escalate('denied-marker'),
      reply('Skipped'),
      question,
      reply('Noted'),
      callNamespacedTool('mcp__deploy', 'deploy', {}),
      reply('Deployed'),
    ] }));

    const home = teardown.home(mkdtempSync(join(tmpdir(), 'cccc-web-managed-')));
    teardown.cleanups.push(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }));
    const { CCCC_ACTOR_ID: _inherited, ...env } = process.env;
    const daemon = spawn(process.execPath, [CCCC_BIN, 'daemon', 'run'], { env: { ...env, CCCC_HOME: home }, stdio: 'ignore' });
    teardown.cleanups.push(() => {
      if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    });
    const client = new DaemonClient({ home });
    await until(async () => (await client.request({ v: 1, op: 'ping', args: {} }).catch(() => undefined))?.ok, 'the daemon', 20_000);
    const { group_id } = await client.call('group_create', { title: 'managed in the browser' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id });
    const agentEnv = codexEnv(join(home, 'agent'), clis.withPath().PATH!);
    writeCodexConfig(agentEnv.CODEX_HOME!, model.url);
    appendFileSync(join(agentEnv.CODEX_HOME!, 'config.toml'), `\n[mcp_servers.deploy]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(ELICIT_MCP_SERVER)}]\n`);
    const command = ['codex', '-a', 'on-request', '-s', 'workspace-write', '--enable', 'default_mode_request_user_input'];
    await client.call('actor_add', { group_id, actor_id: 'peer1', runtime: 'codex', command, env: { ...agentEnv, TERM: 'xterm-256color' } });
    await client.call('group_start', { group_id });
    const probe = actorProbe({ home, client, groupId: group_id, scope } as DaemonGroup, 'peer1');
    await until(async () => (await probe.actor())?.runner_effective === 'codex_app_server', 'the managed actor', 60_000, probe.diagnose);

    const web = await startWebServer({ home, port: 0 });
    teardown.cleanups.push(() => web.close());
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage'] });
    teardown.cleanups.push(() => browser.close().catch(() => undefined));
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${web.url}/?group=${group_id}`);
    const requests: Locator = page.locator('.actor-card[data-actor="peer1"]').getByRole('list', { name: 'Requests of peer1' });
    const idle = () => until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the turn', 60_000, probe.diagnose);
    const send = (text: string) => client.call('send', { group_id, text, to: ['peer1'], message_mode: 'send' });

    // Approve: the card names the command; the click answers it and the command runs once.
    await send('please create the first marker');
    const approve = requests.getByRole('listitem').filter({ hasText: 'touch approved-marker' });
    await approve.waitFor({ timeout: 60_000 });
    expect(await approve.textContent()).toContain('(Create approved-marker)');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await requests.waitFor({ state: 'detached', timeout: 30_000 });
    await idle();
    expect(existsSync(join(scope, 'approved-marker'))).toBe(true);

    // Deny: nothing runs, the turn goes on without it.
    await send('please create the second marker');
    const deny = requests.getByRole('listitem').filter({ hasText: 'touch denied-marker' });
    await deny.waitFor({ timeout: 60_000 });
    await deny.getByRole('button', { name: 'Deny' }).click();
    await requests.waitFor({ state: 'detached', timeout: 30_000 });
    await idle();
    expect(existsSync(join(scope, 'denied-marker'))).toBe(false);
    expect((await client.call('headless_control_state', { group_id, actor_id: 'peer1' })).state!.permissions).toEqual([]);

    // The question form: Send answer stays disabled until the question has an answer.
    await send('ask me which database');
    const form = requests.locator('form');
    await form.waitFor({ timeout: 60_000 });
    expect(await form.textContent()).toContain('Database: Which database?');
    const sendAnswer = form.getByRole('button', { name: 'Send answer' });
    expect(await sendAnswer.isDisabled()).toBe(true);
    await form.locator('select').selectOption('postgres');
    await sendAnswer.click();
    await requests.waitFor({ state: 'detached', timeout: 30_000 });
    await until(async () => (await probe.actor())?.effective_working_state === 'idle' && model.requests.filter((r) => r.main).length >= 6, 'the answered turn done', 60_000, probe.diagnose);
    const followUp = model.requests.filter((r) => r.main).at(-1)!.body as { input?: Array<{ type?: string; output?: unknown }> };
    const outputs = (followUp.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => JSON.stringify(i.output));
    expect(outputs.some((o) => o.includes('postgres'))).toBe(true);

    // MCP elicitations: codex first asks whether the tool may run (a form without fields), then
    // the server asks its own question (a choice); each is answered with Accept.
    await send('deploy it');
    const toolApproval = requests.getByRole('form', { name: 'Request of deploy' }).filter({ hasText: 'run tool "deploy"' });
    await toolApproval.waitFor({ timeout: 60_000 });
    await toolApproval.getByRole('button', { name: 'Accept' }).click();
    const deployForm = requests.getByRole('form', { name: 'Request of deploy' }).filter({ hasText: 'Where should I deploy?' });
    // A second request within the same wait: the card finds it although the working state did not change.
    await deployForm.waitFor({ timeout: 60_000 });
    const accept = deployForm.getByRole('button', { name: 'Accept' });
    expect(await accept.isDisabled()).toBe(true); // `env` is required
    await deployForm.locator('select').selectOption('staging');
    await accept.click();
    await requests.waitFor({ state: 'detached', timeout: 30_000 });
    await until(async () => (await probe.actor())?.effective_working_state === 'idle' && model.requests.filter((r) => r.main).length >= 8, 'the deploy turn done', 60_000, probe.diagnose);
    const deployed = model.requests.filter((r) => r.main).at(-1)!.body as { input?: Array<{ type?: string; output?: unknown }> };
    const toolOutputs = (deployed.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => JSON.stringify(i.output)).join('\n');
    expect(toolOutputs).toContain('elicitation answered: accept');
    expect(toolOutputs).toContain('staging');
    await browser.close();
  }, 240_000);
});
