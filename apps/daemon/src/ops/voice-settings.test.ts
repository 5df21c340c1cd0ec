import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentGroup, runtimeFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// assistant_settings_update (§8.3, issue 26): settings and the hidden voice-secretary actor,
// through a real daemon with real (fake-agent) runtimes.

let fx: DaemonFixture;
beforeAll(async () => {
  fx = await runtimeFixture();
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const VS = 'voice-secretary';
const secretsOf = (gid: string, aid: string) => fx.services.layout.actorSecretsPath(gid, aid);
const running = (gid: string, aid: string) => fx.services.runtimes.get(gid, aid) !== undefined;

describe('assistant_settings_update', () => {
  it('refuses without a foreman, for unknown assistants, peers and bad values, changing nothing', async () => {
    const { group_id: empty } = await fx.call('group_create', { title: 'no foreman' });
    const snap = fx.snapshot(empty);
    expect(await fx.codeOf('assistant_settings_update', { group_id: empty, assistant_id: 'voice_secretary', patch: { enabled: true } })).toBe('voice_secretary_foreman_missing');
    expect(fx.snapshot(empty)).toEqual(snap);

    const gid = await fakeAgentGroup(fx, { lead: [], p1: [] });
    const before = fx.snapshot(gid);
    const call = (args: Record<string, unknown>) => fx.codeOf('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: true }, ...args });
    expect(await call({ assistant_id: 'translator' })).toBe('assistant_not_found');
    expect(await call({ by: 'p1' })).toBe('permission_denied');
    expect(await call({ patch: { config: { document_default_dir: '../escape' } } })).toBe('invalid_request');
    expect(await call({ patch: { config: { recognition_backend: 'cloud' } } })).toBe('invalid_request');
    expect(await call({ patch: { config: { auto_document_min_chars: -1 } } })).toBe('invalid_request');
    expect(await call({ patch: undefined })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_settings_update', { group_id: 'g_nope00000000', assistant_id: 'voice_secretary', patch: {} })).toBe('group_not_found');
    expect(fx.snapshot(gid)).toEqual(before);
    expect(existsSync(secretsOf(gid, VS))).toBe(false);
  });

  it("enabling copies the foreman's runtime and private env into the hidden actor; saving alone starts nothing; disabling removes both", async () => {
    const gid = await fakeAgentGroup(fx, { lead: [] });
    await fx.call('actor_env_private_update', { group_id: gid, actor_id: 'lead', set: { VOICE_TOKEN: 'sekrit-123' } });
    const on = await fx.call('assistant_settings_update', {
      group_id: gid,
      assistant_id: 'voice_secretary',
      patch: { enabled: true, config: { document_default_dir: 'notes/voice', recognition_backend: 'mock' } },
    });
    expect(on.actor_started).toBe(false);
    expect(on.assistant).toMatchObject({ enabled: true, lifecycle: 'idle', config: { document_default_dir: 'notes/voice', recognition_backend: 'mock' }, health: { actor: { configured: true, running: false } } });
    expect(on.event).toMatchObject({ kind: 'assistant.settings.update', data: { assistant_id: 'voice_secretary', actor_started: false } });
    const actors = fx.services.groups.get(gid).actors;
    const lead = actors.find((a) => a.id === 'lead')!;
    const vs = actors.find((a) => a.id === VS)!;
    expect(vs).toMatchObject({ internal_kind: 'voice_secretary', command: lead.command, runtime: lead.runtime, enabled: true, title: 'Voice Secretary' });
    expect(vs).not.toHaveProperty('role');
    expect((await fx.call('actor_env_private_keys', { group_id: gid, actor_id: VS })).keys).toEqual(['VOICE_TOKEN']);
    expect(fx.publicText()).not.toContain('sekrit-123');
    expect(fx.groupYaml(gid)).toContain('voice_secretary');
    expect(running(gid, VS)).toBe(false);

    // The group running starts the enabled actor; a config-only save never starts a stopped one.
    const started = await fx.call('group_start', { group_id: gid });
    expect(started.started).toContain(VS);
    await waitFor(() => running(gid, VS), 10_000, 'voice-secretary running');
    await fx.call('actor_stop', { group_id: gid, actor_id: VS });
    const saved = await fx.call('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { config: { tts_enabled: true } } });
    expect(saved.actor_started).toBe(false);
    expect(running(gid, VS)).toBe(false);

    // An explicit enabled=true in a running group starts it.
    const again = await fx.call('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: true } });
    expect(again.actor_started).toBe(true);
    expect(running(gid, VS)).toBe(true);
    expect(again.assistant).toMatchObject({ health: { actor: { running: true } } });

    const off = await fx.call('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: false } });
    expect(off.assistant).toMatchObject({ enabled: false, lifecycle: 'disabled', health: { actor: { configured: false, running: false } }, config: { tts_enabled: true } });
    expect(running(gid, VS)).toBe(false);
    expect(fx.services.groups.get(gid).actors.map((a) => a.id)).toEqual(['lead']);
    expect(existsSync(secretsOf(gid, VS))).toBe(false);
    await fx.call('group_stop', { group_id: gid });
  }, 60_000);

  it('a start that fails rolls back settings, actor and private env', async () => {
    const gid = await fakeAgentGroup(fx, {});
    await fx.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['/nonexistent/cccc-no-such-agent'] });
    await fx.call('actor_env_private_update', { group_id: gid, actor_id: 'lead', set: { K: 'v' } });
    await fx.call('group_start', { group_id: gid }); // the foreman fails, the group runs
    const yaml = fx.groupYaml(gid);
    const ledgerBefore = fx.ledgerLines(gid).length;
    const err = await fx.errorOf('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: true } });
    expect(err.code).toBe('voice_secretary_start_failed');
    expect(fx.groupYaml(gid).replace(/updated_at: .*/g, '')).toBe(yaml.replace(/updated_at: .*/g, ''));
    expect(existsSync(secretsOf(gid, VS))).toBe(false);
    expect(running(gid, VS)).toBe(false);
    // Only the runtime's own start diagnostic (as for a failed actor_start); no settings event.
    expect(fx.ledgerEvents(gid).slice(ledgerBefore).map((e) => e.kind)).toEqual(['x.cccc.actor_start_problem']);
    expect(readFileSync(join(fx.home, 'groups', gid, 'group.yaml'), 'utf8')).not.toContain(VS);
    await fx.call('group_stop', { group_id: gid });
  }, 60_000);
});
