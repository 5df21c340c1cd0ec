import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { reply, startFakeModel, thinkThenReply } from '../fake-model/index.js';
import { actorProbe, startDaemonGroup, tempDir } from './daemon-actor.js';
import { codexEnv, describeWithRealClis, writeCodexConfig } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The real codex as a daemon actor (the catalog's codex runtime), its provider set in its own
// CODEX_HOME/config.toml: launched with the daemon's injected hooks (-c hooks.*, trusted), a
// send delivered to it, the fake model receiving the text once, UserPromptSubmit confirming it.

const teardown = realCliTeardown();

describeWithRealClis('real codex as a daemon actor', (clis) => {
  it('hooked launch; a send reaches the model exactly once, UserPromptSubmit confirms it, working state follows the turn', async () => {
    const agentHome = tempDir(teardown, 'real-codex-home-');
    // The daemon's start-up prompt with a first message (one submission); the delivery's step is set below.
    const model = teardown.model(await startFakeModel({ steps: [reply('First read')] }));
    const group = await startDaemonGroup(teardown, { title: 'real codex', env: { CCCC_DELIVERY_CONFIRM_MS: '8000', CCCC_CODEX_MANAGED: '0' } });
    const { client, groupId: group_id, home: cccHome } = group;
    const env = codexEnv(agentHome, clis.withPath().PATH!);
    writeCodexConfig(env.CODEX_HOME!, model.url);
    // The catalog's codex runtime (`codex … --dangerously-bypass-approvals-and-sandbox --search`).
    await client.call('actor_add', { group_id, actor_id: 'peer1', runtime: 'codex', env: { ...env, TERM: 'xterm-256color' } });
    await client.call('group_start', { group_id });
    const probe = actorProbe(group, 'peer1', () => `model: ${model.requests.map((r) => `${r.path} ${r.main}`).join(', ')}`);
    const { screen, actor, diagnose } = probe;

    const launchDir = join(cccHome, 'daemon', 'runtime-hook-launch');
    const launch = await until(
      () => {
        const files = readdirSync(launchDir, { withFileTypes: true }).filter((f) => f.isFile());
        return files[0] ? (JSON.parse(readFileSync(join(launchDir, files[0].name), 'utf8')) as { pid: number; hook_enabled: boolean }) : null;
      },
      'the launch record',
      60_000,
      diagnose,
    );
    expect(launch.hook_enabled).toBe(true);
    const argv = readFileSync(`/proc/${launch.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toEqual(expect.arrayContaining(['--dangerously-bypass-approvals-and-sandbox']));
    expect(argv.some((arg) => arg.startsWith('hooks.UserPromptSubmit='))).toBe(true);

    // As with claude (daemon-claude.test.ts), the start-up prompt goes with the first message as
    // one submission (spec §8.4), so the first message is no longer typed into the end of a
    // start-up turn (where codex's UserPromptSubmit was seen rejected as stale_turn under load).
    const first = 'first message 2d90';
    const { event: firstEvent } = await client.call('send', { group_id, text: first, to: ['peer1'], message_mode: 'send' });
    await until(
      async () => (await probe.status(firstEvent.id))?.delivery_confirmation,
      "the first message's confirmation to settle",
      20_000,
      diagnose,
    );
    await until(async () => (await actor())?.effective_working_state === 'idle', 'idle before the send', 30_000, diagnose);
    expect(model.countOccurrences(first)).toBe(1);
    expect(await probe.status(firstEvent.id)).toMatchObject({ delivery_confirmation: 'confirmed' });
    // The delivery is answered after a pause, whatever the first turn's requests were.
    const startupRequests = model.requests.filter((r) => r.main).length;
    model.setScript([thinkThenReply(4_000, 'Got it from codex')]);

    const text = 'codex daemon delivery 5e1f';
    const { event } = await client.call('send', { group_id, text, to: ['peer1'], message_mode: 'send' });
    const status = () => probe.status(event.id);
    await until(async () => (await actor())?.effective_working_state === 'working', 'working state during the turn', 60_000, diagnose);
    await until(async () => (await status())?.delivery_confirmation, 'a delivery confirmation', 60_000, diagnose);
    const confirmed = await status();
    if (confirmed?.delivery_confirmation !== 'confirmed') throw new Error(`delivery ${JSON.stringify(confirmed)}\n${await diagnose()}`);
    await until(async () => (await screen()).includes('• Got it from codex'), 'the rendered reply', 30_000, diagnose);
    await until(async () => (await actor())?.effective_working_state === 'idle', 'idle after the turn', 30_000, diagnose);
    expect(await actor()).toMatchObject({ effective_working_reason: 'codex_hook_Stop', state_source: 'hook' });

    expect(model.requests.filter((r) => r.main).map((r) => r.api)).toEqual(Array(startupRequests + 1).fill('responses'));
    expect(model.countOccurrences('You are peer1 (foreman)')).toBe(1);
    expect(model.countOccurrences(text)).toBe(1);
  }, 180_000);
});
