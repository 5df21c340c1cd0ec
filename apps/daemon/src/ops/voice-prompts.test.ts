import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentGroup, runtimeFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// assistant_voice_input_append, assistant_voice_prompt_draft_submit / _ack (§8.3, issue 26)
// through a real daemon socket: every error code before any write, durable input before the
// targeted notify, exact retries, and the draft lifecycle.

let fx: DaemonFixture;
let gid: string;
beforeAll(async () => {
  fx = await runtimeFixture();
  gid = await fakeAgentGroup(fx, { lead: [], p1: [] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const inputs = () => {
  const p = join(fx.home, 'voice-secretary', gid, 'input_events.jsonl');
  return existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
};
const notifies = () => fx.ledgerEvents(gid).filter((e) => e.kind === 'system.notify' && (e.data.context as { kind?: string } | undefined)?.kind === 'voice_secretary_input');
const stateText = () => {
  const p = join(fx.home, 'groups', gid, 'state', 'assistants.json');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};

describe('assistant_voice_input_append', () => {
  it('answers every error with its code before touching anything', async () => {
    const code = (args: Record<string, unknown>) => fx.codeOf('assistant_voice_input_append', { group_id: gid, kind: 'voice_instruction', instruction: 'summarize', ...args });
    expect(await code({})).toBe('assistant_disabled');
    await fx.call('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: true } });
    const snap = fx.snapshot(gid);
    const st = stateText();
    expect(await code({ kind: 'chat' })).toBe('invalid_request');
    expect(await code({ kind: undefined })).toBe('invalid_request');
    expect(await code({ instruction: ' ', text: '', source_text: '' })).toBe('invalid_request');
    expect(await code({ kind: 'prompt_refine', instruction: undefined })).toBe('invalid_request');
    expect(await code({ kind: 'prompt_refine', voice_transcript: '  ', composer_text: '' })).toBe('invalid_request');
    expect(await code({ by: 'p1' })).toBe('permission_denied');
    expect(await code({ group_id: 'g_nope00000000' })).toBe('group_not_found');
    expect(fx.snapshot(gid)).toEqual(snap);
    expect(stateText()).toBe(st);
    expect(inputs()).toEqual([]);
  });

  it('a general Ask is durable, then notified once; an exact retry adds nothing', async () => {
    const r = await fx.call('assistant_voice_input_append', { group_id: gid, kind: 'voice_instruction', text: 'What did we decide about pricing?', request_id: 'vreq_a', input_append_id: 'vapp_a' });
    expect(r).toMatchObject({ request_id: 'vreq_a', input_event_created: true, input_notify_emitted: true, ask_request: { request_id: 'vreq_a', status: 'pending' }, input_event: { kind: 'voice_instruction', seq: 1 } });
    expect(r).not.toHaveProperty('prompt_request');
    expect(notifies()).toHaveLength(1);
    const retry = await fx.call('assistant_voice_input_append', { group_id: gid, kind: 'voice_instruction', text: 'What did we decide about pricing?', request_id: 'vreq_a', input_append_id: 'vapp_a' });
    expect(retry).toMatchObject({ input_event_created: false, input_notify_emitted: false });
    expect(inputs()).toHaveLength(1);
    expect(notifies()).toHaveLength(1);
  });

  it('a prompt_refine creates a refinement request (no draft); a follow-up with a new append id updates it', async () => {
    const r = await fx.call('assistant_voice_input_append', { group_id: gid, kind: 'prompt_refine', request_id: 'vprm_1', input_append_id: 'vapp_p1', voice_transcript: 'make it polite', composer_text: 'fix the bug now', operation: 'replace_with_refined_prompt', composer_snapshot_hash: 'h1' });
    expect(r).toMatchObject({ input_event_created: true, input_notify_emitted: true, prompt_request: { request_id: 'vprm_1', status: 'pending', operation: 'replace_with_refined_prompt', composer_snapshot_hash: 'h1' } });
    expect(r.assistant).not.toHaveProperty('prompt_draft');
    const follow = await fx.call('assistant_voice_input_append', { group_id: gid, kind: 'prompt_refine', request_id: 'vprm_1', input_append_id: 'vapp_p2', voice_transcript: 'and shorter' });
    expect(follow).toMatchObject({ input_event_created: true, prompt_request: { request_id: 'vprm_1', last_input_append_id: 'vapp_p2', operation: 'replace_with_refined_prompt' } });
    expect(inputs().map((i) => i.kind)).toEqual(['voice_instruction', 'prompt_refine', 'prompt_refine']);
  });
});

describe('prompt drafts', () => {
  it('submit: only voice-secretary, for an existing request, with text unless no_op; nothing written on error', async () => {
    const snap = fx.snapshot(gid);
    const st = stateText();
    const code = (args: Record<string, unknown>) => fx.codeOf('assistant_voice_prompt_draft_submit', { group_id: gid, by: 'voice-secretary', request_id: 'vprm_1', draft_text: 'Please fix the bug.', ...args });
    expect(await code({ by: 'lead' })).toBe('assistant_voice_prompt_draft_forbidden');
    expect(await code({ by: 'user' })).toBe('assistant_voice_prompt_draft_forbidden');
    expect(await code({ request_id: 'vprm_none' })).toBe('prompt_request_not_found');
    expect(await code({ request_id: undefined })).toBe('invalid_request');
    expect(await code({ draft_text: '  ' })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_voice_prompt_draft_ack', { group_id: gid, request_id: 'vprm_1', status: 'applied' })).toBe('prompt_draft_not_found');
    expect(fx.snapshot(gid)).toEqual(snap);
    expect(stateText()).toBe(st);
  });

  it('submit stores a pending draft (inheriting operation and hash), emits assistant.voice.prompt_draft, and no input or notify', async () => {
    const before = { inputs: inputs().length, notifies: notifies().length };
    const r = await fx.call('assistant_voice_prompt_draft_submit', { group_id: gid, by: 'voice-secretary', request_id: 'vprm_1', draft_text: 'Could you please fix the bug? Thanks.', summary: 'politer' });
    expect(r.prompt_draft).toMatchObject({ request_id: 'vprm_1', status: 'pending', operation: 'replace_with_refined_prompt', composer_snapshot_hash: 'h1', draft_text: 'Could you please fix the bug? Thanks.' });
    expect(r.event).toMatchObject({ kind: 'assistant.voice.prompt_draft', by: 'assistant:voice_secretary', data: { request_id: 'vprm_1', action: 'submit', status: 'pending' } });
    expect(r.assistant).toMatchObject({ prompt_draft: { request_id: 'vprm_1', status: 'pending' } });
    expect(inputs()).toHaveLength(before.inputs);
    expect(notifies()).toHaveLength(before.notifies);
    expect((await fx.call('assistant_state', { group_id: gid, assistant_id: 'voice_secretary' })).assistant).toMatchObject({ prompt_draft: { request_id: 'vprm_1' } });
  });

  it('ack removes the draft from the active projection and keeps its history; peers may not ack', async () => {
    expect(await fx.codeOf('assistant_voice_prompt_draft_ack', { group_id: gid, request_id: 'vprm_1', status: 'applied', by: 'p1' })).toBe('permission_denied');
    expect(await fx.codeOf('assistant_voice_prompt_draft_ack', { group_id: gid, request_id: 'vprm_1', status: 'done' })).toBe('invalid_request');
    const r = await fx.call('assistant_voice_prompt_draft_ack', { group_id: gid, request_id: 'vprm_1', status: 'applied' });
    expect(r.prompt_draft).toMatchObject({ request_id: 'vprm_1', status: 'applied' });
    expect(r.event).toMatchObject({ kind: 'assistant.voice.prompt_draft', data: { action: 'ack', status: 'applied' } });
    expect(r.assistant).not.toHaveProperty('prompt_draft');
    expect(JSON.parse(stateText()).voice_prompt_drafts.vprm_1).toMatchObject({ status: 'applied' });
  });

  it('no_op stores no_change with empty text', async () => {
    await fx.call('assistant_voice_input_append', { group_id: gid, kind: 'prompt_refine', request_id: 'vprm_2', composer_text: 'ok as is' });
    const r = await fx.call('assistant_voice_prompt_draft_submit', { group_id: gid, by: 'assistant:voice_secretary', request_id: 'vprm_2', no_op: true, draft_text: 'ignored' });
    expect(r.prompt_draft).toMatchObject({ status: 'no_change', operation: 'append_to_composer_end' });
    expect(r.prompt_draft).not.toHaveProperty('draft_text');
    expect(r.event.data).toMatchObject({ action: 'no_op', status: 'no_change' });
  });
});
