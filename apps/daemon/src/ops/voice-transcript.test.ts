import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentGroup, runtimeFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// assistant_voice_transcript_append (§8.3, issue 26) through a real daemon socket: sidecars, the
// bounded session projection, the compacted semantic input and its targeted notify, revision
// records, idempotent retries, the idle review nudge, and every error answered before any write.

let fx: DaemonFixture;
let gid: string;
const P = 'docs/voice-secretary/meeting.md';
beforeAll(async () => {
  fx = await runtimeFixture();
  gid = await fakeAgentGroup(fx, { lead: [], p1: [] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const vsDir = () => join(fx.home, 'voice-secretary', gid);
const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);
const inputs = () => lines(join(vsDir(), 'input_events.jsonl'));
const state = () => JSON.parse(readFileSync(join(fx.home, 'groups', gid, 'state', 'assistants.json'), 'utf8')) as { sessions: Array<Record<string, unknown>> };
const notifies = () => fx.ledgerEvents(gid).filter((e) => e.kind === 'system.notify' && (e.data.context as { kind?: string } | undefined)?.kind === 'voice_secretary_input');
const append = (args: Record<string, unknown>) => fx.call('assistant_voice_transcript_append', { group_id: gid, ...args } as never);

describe('assistant_voice_transcript_append', () => {
  it('answers every error with its code before touching anything', async () => {
    const code = (args: Record<string, unknown>) => fx.codeOf('assistant_voice_transcript_append', { group_id: gid, session_id: 's1', text: 'hello', ...args });
    expect(await code({})).toBe('assistant_disabled');
    await fx.call('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: true, config: { auto_document_min_chars: 10_000 } } });
    await fx.call('assistant_voice_document_save', { group_id: gid, document_path: 'docs/voice-secretary/gone.md', content: 'x' });
    await fx.call('assistant_voice_document_delete', { group_id: gid, document_path: 'docs/voice-secretary/gone.md' });
    await fx.call('assistant_voice_document_save', { group_id: gid, document_path: 'docs/voice-secretary/old.md', content: 'x' });
    await fx.call('assistant_voice_document_archive', { group_id: gid, document_path: 'docs/voice-secretary/old.md' });
    const snap = fx.snapshot(gid);
    const stateBefore = readFileSync(join(fx.home, 'groups', gid, 'state', 'assistants.json'), 'utf8');
    expect(await code({ session_id: '../etc' })).toBe('invalid_path');
    expect(await code({ session_id: '/abs' })).toBe('invalid_path');
    expect(await code({ segment_id: 'a/b' })).toBe('invalid_path');
    expect(await code({ session_id: undefined })).toBe('invalid_request');
    expect(await code({ text: '   ' })).toBe('invalid_request');
    expect(await code({ text: 'x'.repeat(9000) })).toBe('invalid_request');
    expect(await code({ revision_only: true, is_final: false })).toBe('invalid_request');
    expect(await code({ supersede_stage: 'final' })).toBe('invalid_request');
    expect(await code({ supersedes_segment_ids: ['../x'] })).toBe('invalid_path');
    expect(await code({ document_path: '../escape.md' })).toBe('invalid_path');
    expect(await code({ document_path: 'notes.txt' })).toBe('invalid_path');
    expect(await code({ document_path: 'docs/voice-secretary/gone.md' })).toBe('voice_document_deleted');
    expect(await code({ document_path: 'docs/voice-secretary/old.md' })).toBe('invalid_request');
    expect(await code({ by: 'p1' })).toBe('permission_denied');
    expect(await code({ by: 'ghost' })).toBe('permission_denied');
    expect(await code({ group_id: 'g_nope00000000' })).toBe('group_not_found');
    expect(fx.snapshot(gid)).toEqual(snap);
    expect(readFileSync(join(fx.home, 'groups', gid, 'state', 'assistants.json'), 'utf8')).toBe(stateBefore);
    expect(existsSync(join(vsDir(), 's1'))).toBe(false);
    expect(inputs()).toEqual([]);
  });

  it('appends stable segments to the session sidecar and projection, and the window becomes one input on flush', async () => {
    const a = await append({ session_id: 'meet1', segment_id: 'seg-1', text: 'We ship on Friday.', document_path: P, language: 'en-US' });
    expect(a).toMatchObject({ session_id: 'meet1', segment: { segment_id: 'seg-1', transcript_stage: 'live', document_path: P }, document: { document_path: P }, input_event_created: false, input_notify_emitted: false });
    expect(a.segment_path).toBe(join(vsDir(), 'meet1', 'transcripts', 'segments.jsonl'));
    const b = await append({ session_id: 'meet1', segment_id: 'seg-2', text: 'Ana owns the release notes.' });
    expect(b.document).toMatchObject({ document_path: P }); // the session keeps its document
    expect(inputs()).toEqual([]); // below auto_document_min_chars: still in the window
    const session = state().sessions.find((s) => s.session_id === 'meet1')!;
    expect(session).toMatchObject({ document_path: P, transcript: 'We ship on Friday.\nAna owns the release notes.' });

    const f = await append({ session_id: 'meet1', flush: true, trigger: { trigger_kind: 'meeting_window' } });
    expect(f).toMatchObject({ input_event_created: true, input_notify_emitted: true, input_event: { kind: 'asr_transcript', document_path: P, session_id: 'meet1', source_segment_ids: ['seg-1', 'seg-2'] } });
    expect(inputs()).toHaveLength(1);
    expect(inputs()[0]!.text).toBe('We ship on Friday.\nAna owns the release notes.');
    const [n] = notifies();
    expect(n).toMatchObject({ by: 'system', data: { target_actor_id: 'voice-secretary' } });
    const envelope = (n!.data.context as { input_envelope: Record<string, unknown> }).input_envelope;
    expect(envelope).toMatchObject({ item_count: 1, input_batches: [{ document_path: P, kinds: ['asr_transcript'], intent_hints: ['transcript'] }] });
    expect(fx.ledgerEvents(gid).some((e) => e.kind === 'assistant.voice.document' && e.data.action === 'input_appended' && e.data.document_path === P)).toBe(true);
    // The document transcript sidecar holds the final rows; the Markdown file exists (created empty).
    const doc = f.document as { document_id: string };
    expect(lines(join(vsDir(), 'documents', doc.document_id, 'transcript.jsonl')).map((r) => r.segment_id)).toEqual(['seg-1', 'seg-2']);
    expect((await fx.call('assistant_state', { group_id: gid, view: 'voice_session', session_id: 'meet1' })).session).toMatchObject({ transcript: 'We ship on Friday.\nAna owns the release notes.' });
  });

  it('an exact retry of a segment adds no row, input or notify', async () => {
    const before = { raw: lines(join(vsDir(), 'meet1', 'transcripts', 'segments.jsonl')).length, inputs: inputs().length, notifies: notifies().length, ledger: fx.ledgerLines(gid).length };
    const r = await append({ session_id: 'meet1', segment_id: 'seg-2', text: 'Ana owns the release notes.' });
    expect(r).toMatchObject({ input_event_created: false, input_notify_emitted: false, input_event: { source_segment_ids: ['seg-1', 'seg-2'] } });
    expect(lines(join(vsDir(), 'meet1', 'transcripts', 'segments.jsonl'))).toHaveLength(before.raw);
    expect(inputs()).toHaveLength(before.inputs);
    expect(notifies()).toHaveLength(before.notifies);
    expect(fx.ledgerLines(gid)).toHaveLength(before.ledger);
  });

  it('a revision-only final supersedes the live checkpoints in the projection, keeps them raw, and reuses the session input', async () => {
    const r = await append({ session_id: 'meet1', segment_id: 'final-1', text: 'We ship on Friday; Ana owns the release notes.', revision_only: true, supersede_stage: 'live', transcript_stage: 'final', source_model_id: 'sensevoice' });
    expect(r.segment).toMatchObject({ revision_only: true, transcript_stage: 'final', supersedes_segment_ids: ['seg-1', 'seg-2'], source_model_id: 'sensevoice' });
    expect(r).toMatchObject({ input_event_created: false, input_event: { source_segment_ids: ['seg-1', 'seg-2'] } });
    expect(inputs()).toHaveLength(1);
    const view = (await fx.call('assistant_state', { group_id: gid, view: 'voice_session', session_id: 'meet1' })).session as { segments: Array<{ segment_id: string }>; transcript: string };
    expect(view.segments.map((s) => s.segment_id)).toEqual(['final-1']);
    expect(view.transcript).toBe('We ship on Friday; Ana owns the release notes.');
    expect(lines(join(vsDir(), 'meet1', 'transcripts', 'segments.jsonl')).map((s) => s.segment_id)).toEqual(['seg-1', 'seg-2', 'final-1']);
    // A race-late live checkpoint stays raw-only.
    await append({ session_id: 'meet1', segment_id: 'seg-late', text: 'late live text' });
    const after = (await fx.call('assistant_state', { group_id: gid, view: 'voice_session', session_id: 'meet1' })).session as { segments: Array<{ segment_id: string }> };
    expect(after.segments.map((s) => s.segment_id)).toEqual(['final-1']);
    expect(lines(join(vsDir(), 'meet1', 'transcripts', 'segments.jsonl')).at(-1)).toMatchObject({ segment_id: 'seg-late', raw_only: true });
  });

  it('a revision-only final of a session without input becomes its first input', async () => {
    const r = await append({ session_id: 'meet2', segment_id: 'final-a', text: 'Budget approved.', revision_only: true, document_path: P });
    expect(r).toMatchObject({ input_event_created: true, input_notify_emitted: true, input_event: { kind: 'asr_transcript', session_id: 'meet2', text: 'Budget approved.' } });
  });

  it('a recording stop flushes the window and requests the idle review nudge', async () => {
    await append({ session_id: 'meet3', segment_id: 's3-1', text: 'Next step: write the migration guide.', document_path: P });
    const before = notifies().length;
    const r = await append({ session_id: 'meet3', flush: true, trigger: { trigger_kind: 'push_to_talk_stop' } });
    expect(r).toMatchObject({ input_event_created: true, idle_review_requested: true });
    expect(inputs().slice(-2).map((i) => i.kind)).toEqual(['asr_transcript', 'idle_review']);
    expect(inputs().at(-1)).toMatchObject({ document_path: P, by: 'system' });
    expect(notifies()).toHaveLength(before + 2);
    const inputState = JSON.parse(readFileSync(join(vsDir(), 'input_state.json'), 'utf8'));
    expect(inputState).toMatchObject({ flush_count_since_idle_review: 0, last_idle_review_input_seq: inputs().at(-1)!.seq });
    // A second stop with nothing new since the review requests none.
    const again = await append({ session_id: 'meet3', flush: true, trigger: { trigger_kind: 'push_to_talk_stop' } });
    expect(again.idle_review_requested).toBeUndefined();
  });

  it('without a document path and no active document, creates one under document_default_dir', async () => {
    const g2 = await fakeAgentGroup(fx, { lead: [] });
    await fx.call('assistant_settings_update', { group_id: g2, assistant_id: 'voice_secretary', patch: { enabled: true } });
    const r = await fx.call('assistant_voice_transcript_append', { group_id: g2, session_id: 'x1', text: 'hello', flush: true });
    const path = (r.document as { document_path: string }).document_path;
    expect(path).toMatch(/^docs\/voice-secretary\/voice-\d{4}-\d{2}-\d{2}-[0-9a-f]{6}\.md$/);
    expect((await fx.call('assistant_voice_document_list', { group_id: g2 })).active_document_path).toBe(path);
    expect(fx.ledgerEvents(g2).some((e) => e.kind === 'assistant.voice.document' && e.data.action === 'created')).toBe(true);
  });

  it('adopts an existing repository file without rewriting it', async () => {
    const ws = (fx.services.groups.get(gid).scopes[0]?.url as string | undefined) ?? join(fx.home, 'voice-secretary', gid, 'documents');
    mkdirSync(join(ws, 'docs/voice-secretary'), { recursive: true });
    writeFileSync(join(ws, 'docs/voice-secretary/existing.md'), '# Existing\nkeep me\n');
    const r = await append({ session_id: 'meet4', text: 'more', document_path: 'docs/voice-secretary/existing.md' });
    expect(r.document).toMatchObject({ content: '# Existing\nkeep me\n' });
    expect(readFileSync(join(ws, 'docs/voice-secretary/existing.md'), 'utf8')).toBe('# Existing\nkeep me\n');
  });
});
