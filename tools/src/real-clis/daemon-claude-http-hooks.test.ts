import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callBash, reply, startFakeModel, type ModelStep } from '../fake-model/index.js';
import { addClaudeActor, backgroundLaunchEvidence } from './claude-actor.js';
import { hookLog, startDaemonGroup } from './daemon-actor.js';
import { describeWithRealClis } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// Issue 35 end to end: the real claude (2.1.328, which has http hooks) as a daemon actor gets
// http hooks pointing at the daemon's loopback listener for the events that fire over http, and
// a turn with tool calls runs on them: the delivery is confirmed by the UserPromptSubmit POST,
// working state follows the turn, and every tool call's Pre/PostToolUse lands in the activity.

const teardown = realCliTeardown();
const CONFIRM_WINDOW_MS = 15_000;
const TOOL_CALLS = 3;

describeWithRealClis('real claude with http hooks as a daemon actor', (clis) => {
  it('a turn with tool calls: delivery confirmed, working then idle, every tool call in the activity, nothing refused', async () => {
    const tools: ModelStep[] = Array.from({ length: TOOL_CALLS }, (_, i) => ({ ...callBash(`echo http-hook-tool-${i}`, `Marker ${i}`), delayMs: i === 0 ? 3_000 : 0 }));
    const model = teardown.model(await startFakeModel({ steps: [reply('First read'), ...tools, reply('Tools done 4b7e')] }));
    const group = await startDaemonGroup(teardown, { title: 'real claude http hooks', env: { CCCC_DELIVERY_CONFIRM_MS: String(CONFIRM_WINDOW_MS) } });
    const { probe, agentHome } = await addClaudeActor(teardown, clis, group, model);
    const { client, groupId: group_id } = group;
    await client.call('group_start', { group_id });
    const send = async (text: string) => (await client.call('send', { group_id, text, to: ['peer1'], message_mode: 'send' })).event.id;
    const confirmation = (id: string) => until(async () => (await probe.status(id))?.delivery_confirmation, 'a delivery confirmation', CONFIRM_WINDOW_MS + 30_000, probe.diagnose);
    const state = async () => (await probe.actor())?.effective_working_state;

    // The launch holds http hooks for the tool, prompt and stop events, and a command SessionStart.
    const launchDir = join(group.home, 'daemon', 'runtime-hook-launch');
    const launch = await until(() => readdirSync(launchDir)[0], 'the hooked launch', 30_000, probe.diagnose);
    const { pid, hook_enabled } = JSON.parse(readFileSync(join(launchDir, launch), 'utf8')) as { pid: number; hook_enabled: boolean };
    expect(hook_enabled).toBe(true);
    // A background session (the default, spec §8.4): the hooks are in the owner-scoped settings
    // file the job runs with; the PTY only attaches.
    const bg = backgroundLaunchEvidence(group.home, group_id, 'peer1', agentHome, pid);
    const hooks = bg.settings.hooks;
    const argv = bg.ptyArgv;
    expect(argv).toEqual(expect.arrayContaining(['attach', bg.receipt.job_id]));
    expect(bg.jobState).not.toMatch(/launch_token|CCCC_HOOK_LAUNCH_TOKEN/i);
    const injected = (event: string) => hooks[event]!.at(-1)!.hooks[0]!;
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']) expect(injected(event)).toMatchObject({ type: 'http', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/claude-state$/) });
    expect(injected('SessionStart').type).toBe('command');
    expect(argv.join(' ')).not.toMatch(/launch_token|[0-9a-f]{32}/);

    expect(await confirmation(await send('first message 0c2d'))).toBe('confirmed');
    await until(async () => (await state()) === 'idle', 'idle before the tool turn', 60_000, probe.diagnose);

    const id = await send('run the marker commands 9e1f');
    await until(async () => (await state()) === 'working', 'working during the tool turn', 30_000, probe.diagnose);
    expect(await confirmation(id)).toBe('confirmed');
    await until(async () => (await state()) === 'idle', 'idle after the tool turn', 90_000, probe.diagnose);
    expect(await probe.screen()).toContain('Tools done 4b7e');

    // Every tool call reached the daemon through the listener (PreToolUse has no command hook).
    const toolIds = model.requests
      .filter((r) => r.main)
      .flatMap((r) => [...JSON.stringify(r.body).matchAll(/"tool_use_id":"(toolu_[A-Za-z0-9_]+)"/g)].map((m) => m[1]!));
    const unique = [...new Set(toolIds)];
    expect(unique.length).toBe(TOOL_CALLS);
    const events = (await client.call('runtime_activity_snapshot', { group_id })).events;
    for (const toolId of unique) expect(events.find((e) => e.operation_id === toolId), JSON.stringify(events)).toBeTruthy();
    expect(hookLog(group.home)).not.toMatch(/rejected/);
    expect(readFileSync(join(group.home, 'daemon', 'ccccd.log'), 'utf8')).not.toMatch(/http hook (request|event) refused/);
  }, 300_000);
});
