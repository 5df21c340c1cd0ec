import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callMcpTool, loadDeferredTool, type RecordedRequest, reply, startFakeModel, userInputsOf } from '../fake-model/index.js';
import { backgroundLaunchEvidence } from './claude-actor.js';
import { actorProbe, startDaemonGroup, tempDir } from './daemon-actor.js';
import { claudeEnv, describeWithRealClis, readHookPayloads, recordingHookSettings, seedClaudeHome } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The real claude as a daemon actor: started by a CLI-started daemon (`cccc daemon start`, as
// users start it) in its PTY with the injected hooks and MCP config, a `send` delivered to it,
// the fake model receiving the text exactly once, UserPromptSubmit confirming the delivery, and
// the agent, told by the model, replying through the real cccc MCP server into the ledger.

const teardown = realCliTeardown();

const CONFIRM_WINDOW_MS = 8_000;

describeWithRealClis('real claude as a daemon actor', (clis) => {
  it('a send reaches the model exactly once, UserPromptSubmit confirms it in ledger_statuses, working state follows the turn, and the agent replies through the cccc MCP tool', async () => {
    const agentHome = tempDir(teardown, 'real-claude-home-');
    // A first message (with the start-up prompt), then the delivery under test: after a pause the model loads
    // the deferred cccc_message_reply tool, calls it with the delivered message's event_id, and
    // ends the turn.
    const eventIdIn = (request: RecordedRequest) => [...userInputsOf(request).join('\n').matchAll(/event_id=(\w+)/g)].at(-1)?.[1] ?? 'missing';
    const model = teardown.model(await startFakeModel({
      steps: [
        reply('First message read'),
        loadDeferredTool('cccc_message_reply', { delayMs: 4_000 }),
        callMcpTool('cccc_message_reply', (request) => ({ event_id: eventIdIn(request), text: 'Real reply 9c41 through MCP' })),
        reply('Got it, thanks'),
      ],
    }));

    // A shorter confirmation window than the default 15 s: a missed confirmation fails sooner.
    const group = await startDaemonGroup(teardown, { title: 'real claude', env: { CCCC_DELIVERY_CONFIRM_MS: String(CONFIRM_WINDOW_MS) } });
    const { client, groupId: group_id, scope, home: cccHome } = group;
    seedClaudeHome(agentHome, scope, { acceptBypassPermissions: true });
    // The agent's user settings record every hook payload too, beside the daemon's injected hooks.
    const hookDir = join(agentHome, 'hook-payloads');
    const recording = JSON.parse(recordingHookSettings(hookDir, ['SessionStart', 'UserPromptSubmit', 'Stop'])) as object;
    writeFileSync(join(agentHome, '.claude', 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true, ...recording }));
    // The catalog's claude runtime (`claude --dangerously-skip-permissions`), found on the actor's PATH.
    await client.call('actor_add', {
      group_id,
      actor_id: 'peer1',
      runtime: 'claude',
      env: {
        ...claudeEnv(model.url, agentHome, clis.withPath().PATH!),
        // As root (CI here), claude refuses --dangerously-skip-permissions unless told it runs in a sandbox.
        ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
      },
    });
    await client.call('group_start', { group_id });
    const probe = actorProbe(group, 'peer1', () =>
      `hooks: ${JSON.stringify(readHookPayloads(hookDir).map((p) => [p.hook_event_name, p.prompt_id, String(p.prompt ?? '').slice(0, 30)]))}\n` +
      `model: ${model.requests.filter((r) => r.main).length} main requests`,
    );
    const { screen, diagnose } = probe;
    const state = async () => (await probe.actor())?.effective_working_state;

    // The daemon types its start-up prompt (the preamble) together with the first message, as one
    // submission and so one turn (spec §8.4: no standalone start-up turn). The delivery under test
    // is then confirmed by its own prompt hook (daemon-claude-queued.test.ts sends into running
    // Stop hooks on purpose).
    const first = 'first message 11aa';
    const { event: firstEvent } = await client.call('send', { group_id, text: first, to: ['peer1'], message_mode: 'send' });
    await until(() => readHookPayloads(hookDir).filter((p) => p.hook_event_name === 'Stop').length >= 1, 'the first turn to end', 60_000, diagnose);
    await until(async () => !/esc to interrupt|running stop hook/i.test(await screen()), 'the Stop hooks to finish', 30_000, diagnose);
    await until(async () => (await state()) === 'idle', 'idle before the send', 30_000, diagnose);
    expect(await probe.actor()).toMatchObject({ state_source: 'hook' });
    // The real claude runs with what the daemon injected, and accepted it (its hooks report).
    const launchDir = join(cccHome, 'daemon', 'runtime-hook-launch');
    const launch = JSON.parse(readFileSync(join(launchDir, readdirSync(launchDir)[0]!), 'utf8')) as { pid: number; hook_enabled: boolean };
    expect(launch.hook_enabled).toBe(true);
    // A background session (the default, spec §8.4): the PTY attaches to the job, whose `--bg`
    // command line (Agent View's respawn record) holds the flags and the settings file's path.
    expect(await probe.actor()).toMatchObject({ runner_effective: 'claude_background' });
    const bg = backgroundLaunchEvidence(cccHome, group_id, 'peer1', agentHome, launch.pid);
    expect(bg.ptyArgv).toEqual(expect.arrayContaining(['attach', bg.receipt.job_id]));
    for (const flag of ['--dangerously-skip-permissions', '--mcp-config', bg.settingsPath]) expect(bg.jobState).toContain(flag);
    expect(Object.keys(bg.settings.hooks)).toEqual(expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'Stop']));
    expect(readHookPayloads(hookDir)[0]).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup', cwd: scope });
    expect(model.countOccurrences('You are peer1 (foreman)')).toBe(1);
    expect(model.countOccurrences(first)).toBe(1);
    const firstStatus = await until(
      async () => {
        const s = await probe.status(firstEvent.id);
        return s?.delivery_confirmation ? s : null;
      },
      "the first message's confirmation",
      CONFIRM_WINDOW_MS + 10_000,
      diagnose,
    );
    expect(firstStatus).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });

    const text = 'daemon delivery 3e8f to the real claude';
    const { event } = await client.call('send', { group_id, text, to: ['peer1'], message_mode: 'send' });
    const status = () => probe.status(event.id);
    // The model holds its first answer for 4 s: the daemon sees the real turn working, then idle.
    await until(async () => (await state()) === 'working', 'working state during the turn', 30_000, diagnose);
    await until(async () => (await status())?.delivery_confirmation, 'a delivery confirmation', 60_000, diagnose);
    const confirmed = await status();
    if (confirmed?.delivery_confirmation !== 'confirmed') throw new Error(`delivery ${JSON.stringify(confirmed)}\n${await diagnose()}`);
    expect(confirmed).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
    await until(async () => (await state()) === 'idle', 'idle after the turn', 30_000, diagnose);
    expect(await screen()).toContain('● Got it, thanks');

    const received = await model.waitForRequest((r) => r.main && JSON.stringify(r.body).includes(text), 1_000);
    expect(received.api).toBe('anthropic');
    // The daemon's MCP config was accepted: the cccc tools are offered (deferred, by name) in
    // this turn. The first turn may start while the cccc server is still connecting (claude then
    // names it as connecting, and its ToolSearch waits for it), so the listing may come in a
    // later request of the session.
    const turnRequests = model.requests.filter((r) => r.main && JSON.stringify(r.body).includes(text));
    expect(turnRequests.some((r) => JSON.stringify(r.body).includes('mcp__cccc__cccc_message_reply'))).toBe(true);
    expect(model.countOccurrences(text)).toBe(1);

    // The MCP path: the real claude called cccc_message_reply; the reply is in the ledger.
    const ledger = readFileSync(join(cccHome, 'groups', group_id, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; by: string; data: Record<string, unknown> });
    const replies = ledger.filter((e) => e.kind === 'chat.message' && e.by === 'peer1');
    expect(replies).toHaveLength(1);
    expect(replies[0]!.data).toMatchObject({ text: 'Real reply 9c41 through MCP', reply_to: event.id });
    const prompts = readHookPayloads(hookDir).filter((p) => p.hook_event_name === 'UserPromptSubmit');
    expect(prompts).toHaveLength(2);
    // One prompt carried the start-up prompt and the first message, in that order.
    const startup = String(prompts[0]!.prompt);
    expect(startup.indexOf('You are peer1 (foreman)')).toBeGreaterThanOrEqual(0);
    expect(startup.indexOf(first)).toBeGreaterThan(startup.indexOf('You are peer1 (foreman)'));
    expect(String(prompts[1]!.prompt)).toContain(text);
    expect(prompts[1]!.prompt_id).not.toBe(prompts[0]!.prompt_id);
  }, 180_000);
});
