import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// assistant_voice_session_update / _session_transcript_clear (§8.3, issue 26) through a real socket.

let fx: DaemonFixture;
let gid: string;
beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = await groupWithTeam(fx, 'sessions');
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const stateFile = () => join(fx.home, 'groups', gid, 'state', 'assistants.json');
const stateText = () => (existsSync(stateFile()) ? readFileSync(stateFile(), 'utf8') : '');
const sessionEvents = () => fx.ledgerEvents(gid).filter((e) => e.kind === 'assistant.voice.session');

describe('assistant_voice_session_update', () => {
  it('refuses unsafe ids, bad completions, peers and unknown actors before any write', async () => {
    const before = stateText();
    const snap = fx.snapshot(gid);
    const code = (args: Record<string, unknown>) => fx.codeOf('assistant_voice_session_update', { group_id: gid, session_id: 'vs_1', patch: {}, ...args });
    expect(await code({ session_id: '../x' })).toBe('invalid_path');
    expect(await code({ session_id: '/abs' })).toBe('invalid_path');
    expect(await code({ session_id: '..' })).toBe('invalid_path');
    expect(await code({ patch: { document_path: '../x.md' } })).toBe('invalid_path');
    expect(await code({ completion_event: 'diarization_ready', patch: { status: 'open', diarization_ready: true } })).toBe('invalid_request');
    expect(await code({ completion_event: 'diarization_failed', patch: { status: 'closed', diarization_ready: true } })).toBe('invalid_request');
    expect(await code({ completion_event: 'diarization_done', patch: { status: 'closed' } })).toBe('invalid_request');
    expect(await code({ by: 'p1' })).toBe('permission_denied');
    expect(await code({ by: 'ghost' })).toBe('permission_denied');
    expect(await code({ patch: undefined })).toBe('invalid_request');
    expect(stateText()).toBe(before);
    expect(fx.snapshot(gid)).toEqual(snap);
  });

  it('projection-only updates merge into the session; a completion appends one event per session and outcome', async () => {
    const r = await fx.call('assistant_voice_session_update', { group_id: gid, session_id: 'vs_1', patch: { status: 'recording', document_path: 'docs/a.md', latest_partial: 'hel', error: { code: 'x' } } });
    expect(r.session).toMatchObject({ session_id: 'vs_1', status: 'recording', document_path: 'docs/a.md', latest_partial: 'hel', error: { code: 'x' } });
    expect(r.completion_event_id).toBeUndefined();
    expect(sessionEvents()).toHaveLength(0);
    const done = await fx.call('assistant_voice_session_update', {
      group_id: gid,
      session_id: 'vs_1',
      by: 'assistant:voice_secretary',
      completion_event: 'diarization_ready',
      patch: { status: 'closed', diarization_ready: true, diarization: { speakers: 2 }, error: null },
    });
    expect(done.completion_event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(done.session).toMatchObject({ status: 'closed', diarization_ready: true, diarization: { speakers: 2 } });
    expect(done.session).not.toHaveProperty('error');
    expect(sessionEvents()).toHaveLength(1);
    expect(sessionEvents()[0]).toMatchObject({ by: 'assistant:voice_secretary', data: { session_id: 'vs_1', event: 'diarization_ready', document_path: 'docs/a.md' } });
    const again = await fx.call('assistant_voice_session_update', { group_id: gid, session_id: 'vs_1', by: 'lead', completion_event: 'diarization_ready', patch: { status: 'closed', diarization_ready: true } });
    expect(again.completion_event_id).toBe(done.completion_event_id);
    expect(sessionEvents()).toHaveLength(1);
    // The canonical session is what assistant_state's voice_session view projects.
    const view = await fx.call('assistant_state', { group_id: gid, view: 'voice_session', session_id: 'vs_1' });
    expect(view.session).toMatchObject({ session_id: 'vs_1', status: 'closed', document_path: 'docs/a.md' });
  });
});

describe('assistant_voice_session_transcript_clear', () => {
  it('clears the session display transcript and the document transcript, not the Markdown', async () => {
    const doc = await fx.call('assistant_voice_document_save', { group_id: gid, document_path: 'docs/a.md', content: '# A' });
    const docId = doc.document.document_id as string;
    const sidecar = join(fx.home, 'voice-secretary', gid, 'documents', docId, 'transcript.jsonl');
    mkdirSync(join(sidecar, '..'), { recursive: true });
    writeFileSync(sidecar, '{"text":"hello"}\n');
    const state = JSON.parse(stateText());
    state.sessions[0].segments = [{ segment_id: 's1', text: 'hello' }];
    state.rust_state = { keep: 1 };
    writeFileSync(stateFile(), JSON.stringify(state));
    const r = await fx.call('assistant_voice_session_transcript_clear', { group_id: gid, document_path: 'docs/a.md' });
    expect(r).toEqual({ group_id: gid, session_id: 'vs_1', cleared: true });
    expect(existsSync(sidecar)).toBe(false);
    const after = JSON.parse(stateText());
    expect(after.sessions[0]).toMatchObject({ segments: [], transcript: '' });
    expect(after.rust_state).toEqual({ keep: 1 });
    expect((await fx.call('assistant_voice_document_list', { group_id: gid })).documents_by_path['docs/a.md']).toMatchObject({ content: '# A' });
    expect(await fx.call('assistant_voice_session_transcript_clear', { group_id: gid, session_id: 'vs_1' })).toMatchObject({ cleared: false });
    expect(await fx.call('assistant_voice_session_transcript_clear', { group_id: gid, session_id: 'vs_none' })).toEqual({ group_id: gid, session_id: 'vs_none', cleared: false });
  });

  it('refuses unsafe ids and paths and peers', async () => {
    expect(await fx.codeOf('assistant_voice_session_transcript_clear', { group_id: gid, session_id: '../x' })).toBe('invalid_path');
    expect(await fx.codeOf('assistant_voice_session_transcript_clear', { group_id: gid, document_path: '/etc/a.md' })).toBe('invalid_path');
    expect(await fx.codeOf('assistant_voice_session_transcript_clear', { group_id: gid, session_id: 'vs_1', by: 'p1' })).toBe('permission_denied');
    expect(await fx.codeOf('assistant_voice_session_transcript_clear', { group_id: 'g_nope00000000' })).toBe('group_not_found');
  });
});
