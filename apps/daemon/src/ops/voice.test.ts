import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.3 Voice Secretary ops (issue 26) through a real daemon socket.

let fx: DaemonFixture;
let gid: string;
beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = await groupWithTeam(fx, 'voice team');
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const leasePath = () => join(fx.home, 'state', 'voice_secretary_recording_lease.json');
const leaseFile = () => {
  try {
    return readFileSync(leasePath(), 'utf8');
  } catch {
    return '';
  }
};

/** Turn Voice Secretary on in group.yaml (assistant_settings_update is a later slice). */
async function enableVoice(groupId: string): Promise<void> {
  appendFileSync(join(fx.home, 'groups', groupId, 'group.yaml'), 'assistants:\n  voice_secretary:\n    enabled: true\n    config:\n      document_default_dir: notes/voice\n');
  fx.services.groups.invalidate(groupId);
}

describe('assistant_state', () => {
  it('answers the voice secretary record: disabled by default, the spec defaults, the actor observation', async () => {
    const r = await fx.call('assistant_state', { group_id: gid });
    expect(r.assistants).toHaveLength(1);
    expect(r.assistant).toBeUndefined();
    expect(r.assistants_by_id!.voice_secretary).toMatchObject({
      assistant_id: 'voice_secretary',
      principal: 'assistant:voice_secretary',
      enabled: false,
      lifecycle: 'disabled',
      config: { recognition_backend: 'browser_asr', document_default_dir: 'docs/voice-secretary', auto_document_enabled: true },
      health: { actor: { configured: false, running: false } },
    });
    const one = await fx.call('assistant_state', { group_id: gid, assistant_id: 'voice_secretary' });
    expect(one.assistant).toMatchObject({ assistant_id: 'voice_secretary' });
  });

  it('refuses an unknown assistant and an unknown group', async () => {
    expect(await fx.codeOf('assistant_state', { group_id: gid, assistant_id: 'translator' })).toBe('assistant_not_found');
    expect(await fx.codeOf('assistant_state', { group_id: 'g_nope00000000' })).toBe('group_not_found');
    expect(await fx.codeOf('assistant_state', {})).toBe('missing_group_id');
  });

  it('view=voice_session projects the canonical sessions of state/assistants.json, {} when there are none', async () => {
    expect((await fx.call('assistant_state', { group_id: gid, view: 'voice_session' })).session).toEqual({});
    const { group_id: g2 } = await fx.call('group_create', { title: 'sessions' });
    const stateDir = join(fx.home, 'groups', g2, 'state');
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(
      join(stateDir, 'assistants.json'),
      JSON.stringify({
        assistant: { lifecycle: 'working', health: { note: 'ok' } },
        sessions: [
          {
            session_id: 'vs_1',
            capture_mode: 'document',
            document_path: 'docs/a.md',
            segments: [
              { segment_id: 'l1', text: 'live', is_final: false },
              { segment_id: 'f1', text: 'final', supersedes_segment_ids: ['l1'] },
            ],
          },
        ],
      }),
    );
    const v = await fx.call('assistant_state', { group_id: g2, view: 'voice_session', document_path: 'docs/a.md' });
    expect(v.session).toMatchObject({ session_id: 'vs_1', transcript: 'final', capture_mode: 'document' });
    // Lifecycle is durable state, but a disabled assistant reads as disabled.
    expect((await fx.call('assistant_state', { group_id: g2 })).assistants![0]).toMatchObject({ lifecycle: 'disabled', health: { note: 'ok' } });
    await enableVoice(g2);
    expect((await fx.call('assistant_state', { group_id: g2 })).assistants![0]).toMatchObject({
      enabled: true,
      lifecycle: 'working',
      config: { document_default_dir: 'notes/voice', recognition_backend: 'browser_asr' },
    });
  });

  it('a broken state/assistants.json is io_error, not a silent default', async () => {
    const { group_id: g3 } = await fx.call('group_create', { title: 'broken' });
    mkdirSync(join(fx.home, 'groups', g3, 'state'), { recursive: true });
    writeFileSync(join(fx.home, 'groups', g3, 'state', 'assistants.json'), '{not json');
    expect(await fx.codeOf('assistant_state', { group_id: g3 })).toBe('io_error');
  });
});

describe('assistant_voice_recording_lease', () => {
  it('composer dictation may record while Voice Secretary is disabled; other targets are assistant_disabled', async () => {
    const before = leaseFile();
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1' })).toBe('assistant_disabled');
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'document' })).toBe('assistant_disabled');
    expect(leaseFile()).toBe(before);
    const a = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'composer', capture_mode: 'browser' });
    expect(a).toMatchObject({ acquired: true, lease: { owner_id: 'tab-1', group_id: gid, group_title: 'voice team', dispatch_target: 'composer', by: 'user' } });
    expect(a.lease_id).toMatch(/^vrl_/);
    const hb = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'heartbeat', owner_id: 'tab-1', lease_id: a.lease_id });
    expect(hb).toMatchObject({ acquired: true, lease_id: a.lease_id, lease: { capture_mode: 'browser' } });
    const rel = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'release', owner_id: 'tab-1', lease_id: a.lease_id });
    expect(rel).toMatchObject({ released: true, lost: false });
    expect(JSON.parse(leaseFile()).lease).toEqual({});
  });

  it('busy across groups and owners, with the redacted active lease; stale cleanup never touches the newer lease', async () => {
    const { group_id: other } = await fx.call('group_create', { title: 'other' });
    await enableVoice(gid);
    const first = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'document' });
    const busy = await fx.errorOf('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-2' });
    expect(busy.code).toBe('assistant_voice_recording_busy');
    expect(busy.details).toMatchObject({ active_lease: { owner_id: 'tab-1', group_id: gid } });
    expect(JSON.stringify(busy.details)).not.toContain(first.lease_id!);
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: other, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'composer' })).toBe(
      'assistant_voice_recording_busy',
    );
    const second = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1' });
    expect(second.lease_id).not.toBe(first.lease_id);
    expect(await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'release', owner_id: 'tab-1', lease_id: first.lease_id })).toMatchObject({
      released: false,
      lost: true,
    });
    const status = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'status' });
    expect(status).toMatchObject({ acquired: false, lease: { owner_id: 'tab-1' } });
    expect(status.lease).not.toHaveProperty('dispatch_target'); // a fresh acquire describes itself; only heartbeats inherit
    expect(status.lease_id).toBeUndefined();
    expect(leaseFile()).toContain(second.lease_id!);
    await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'release', owner_id: 'tab-1', lease_id: second.lease_id });
  });

  it('refuses missing owner / lease ids, unknown actions, peers and unknown actors, changing nothing', async () => {
    const before = leaseFile();
    const snap = fx.snapshot(gid);
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, action: 'acquire' })).toBe('missing_owner_id');
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, action: 'heartbeat', owner_id: 'tab-1' })).toBe('missing_lease_id');
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, action: 'release', owner_id: 'tab-1' })).toBe('missing_lease_id');
    const bad = await fx.errorOf('assistant_voice_recording_lease', { group_id: gid, action: 'steal', owner_id: 'tab-1' });
    expect(bad.code).toBe('invalid_request');
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, owner_id: 'tab-1' })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1', by: 'p1' })).toBe('permission_denied');
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-1', by: 'ghost' })).toBe('permission_denied');
    expect(await fx.codeOf('assistant_voice_recording_lease', { group_id: 'g_nope00000000', action: 'status' })).toBe('group_not_found');
    expect(await fx.codeOf('assistant_voice_recording_lease', { action: 'status' })).toBe('missing_group_id');
    expect(leaseFile()).toBe(before);
    expect(fx.snapshot(gid)).toEqual(snap);
  });

  it('the foreman and the assistant principal may hold the lease (by is recorded)', async () => {
    const a = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'acquire', owner_id: 'tab-9', by: 'lead' });
    expect(a.lease).toMatchObject({ by: 'lead' });
    const b = await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'heartbeat', owner_id: 'tab-9', lease_id: a.lease_id, by: 'assistant:voice_secretary' });
    expect(b.lease).toMatchObject({ by: 'assistant:voice_secretary' });
    await fx.call('assistant_voice_recording_lease', { group_id: gid, action: 'release', owner_id: 'tab-9', lease_id: a.lease_id });
  });
});

describe('assistant_status_update', () => {
  it('stores lifecycle and durable health (no live observations), keeps other records, appends assistant.status.update', async () => {
    const { group_id: g } = await fx.call('group_create', { title: 'status' });
    await fx.call('actor_add', { group_id: g, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
    const stateFile = join(fx.home, 'groups', g, 'state', 'assistants.json');
    mkdirSync(join(fx.home, 'groups', g, 'state'), { recursive: true });
    writeFileSync(stateFile, JSON.stringify({ rust_state: { kept: true }, sessions: [] }));
    await enableVoice(g);
    const r = await fx.call('assistant_status_update', {
      group_id: g,
      by: 'lead',
      assistant_id: 'voice_secretary',
      lifecycle: 'working',
      health: { pid: 123, actor: { running: true }, service: { ready: false } },
    });
    expect(r.assistant).toMatchObject({ lifecycle: 'working', health: { service: { ready: false }, actor: { configured: false, running: false } } });
    expect(r.event).toMatchObject({ kind: 'assistant.status.update', by: 'lead', data: { assistant_id: 'voice_secretary', lifecycle: 'working', health: { service: { ready: false } } } });
    const doc = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(doc.rust_state).toEqual({ kept: true });
    expect(doc.assistant.health).toEqual({ service: { ready: false } });
    expect(fx.ledgerEvents(g).at(-1)).toMatchObject({ kind: 'assistant.status.update' });
    const byPrincipal = await fx.call('assistant_status_update', { group_id: g, by: 'assistant:voice_secretary', assistant_id: 'voice_secretary', lifecycle: 'idle' });
    expect(byPrincipal.assistant).toMatchObject({ lifecycle: 'idle' });
    expect((await fx.call('assistant_state', { group_id: g })).assistants![0]).toMatchObject({ lifecycle: 'idle' });
  });

  it('refuses unknown assistants, bad lifecycles, peers and unknown actors, writing nothing', async () => {
    const snap = fx.snapshot(gid);
    const stateFile = join(fx.home, 'groups', gid, 'state', 'assistants.json');
    const before = (() => {
      try {
        return readFileSync(stateFile, 'utf8');
      } catch {
        return '';
      }
    })();
    expect(await fx.codeOf('assistant_status_update', { group_id: gid, assistant_id: 'translator', lifecycle: 'idle' })).toBe('assistant_not_found');
    expect(await fx.codeOf('assistant_status_update', { group_id: gid, assistant_id: 'voice_secretary', lifecycle: 'sleeping' })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_status_update', { group_id: gid, assistant_id: 'voice_secretary' })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_status_update', { group_id: gid, lifecycle: 'idle' })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_status_update', { group_id: gid, by: 'p1', assistant_id: 'voice_secretary', lifecycle: 'idle' })).toBe('permission_denied');
    expect(await fx.codeOf('assistant_status_update', { group_id: gid, by: 'voice-secretary', assistant_id: 'voice_secretary', lifecycle: 'idle' })).toBe('permission_denied');
    expect(await fx.codeOf('assistant_status_update', { group_id: 'g_nope00000000', assistant_id: 'voice_secretary', lifecycle: 'idle' })).toBe('group_not_found');
    expect(fx.snapshot(gid)).toEqual(snap);
    const after = (() => {
      try {
        return readFileSync(stateFile, 'utf8');
      } catch {
        return '';
      }
    })();
    expect(after).toBe(before);
  });
});
