import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentGroup, runtimeFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// The Voice Secretary input stream (§8.3, issue 26): document_instruction → input_events.jsonl →
// targeted system.notify with the input envelope; input_read and its daemon-owned cursor.

let fx: DaemonFixture;
let gid: string;
const P = 'docs/voice-secretary/plan.md';
beforeAll(async () => {
  fx = await runtimeFixture();
  gid = await fakeAgentGroup(fx, { lead: [], p1: [] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const inputLog = () => join(fx.home, 'voice-secretary', gid, 'input_events.jsonl');
const inputLines = () => (existsSync(inputLog()) ? readFileSync(inputLog(), 'utf8').split('\n').filter(Boolean) : []);
const notifies = () => fx.ledgerEvents(gid).filter((e) => e.kind === 'system.notify' && (e.data.context as { kind?: string } | undefined)?.kind === 'voice_secretary_input');

describe('voice input', () => {
  it('is refused while Voice Secretary is disabled, and for bad targets, writing nothing', async () => {
    await fx.call('assistant_voice_document_save', { group_id: gid, document_path: P, content: '# Plan\n' });
    const code = (args: Record<string, unknown>) => fx.codeOf('assistant_voice_document_instruction', { group_id: gid, document_path: P, instruction: 'tighten it', ...args });
    expect(await code({})).toBe('assistant_disabled');
    await fx.call('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: true } });
    const snap = fx.snapshot(gid);
    expect(await code({ document_path: 'docs/voice-secretary/none.md' })).toBe('voice_document_not_found');
    expect(await code({ document_path: '../x.md' })).toBe('invalid_path');
    expect(await code({ instruction: '  ', source_text: '' })).toBe('invalid_request');
    expect(await code({ by: 'p1' })).toBe('permission_denied');
    expect(await code({ document_path: undefined })).toBe('invalid_request');
    expect(inputLines()).toEqual([]);
    expect(fx.snapshot(gid).ledger).toBe(snap.ledger);
  });

  it('an instruction is durable in input_events.jsonl, then notifies voice-secretary with the input envelope; an exact retry adds nothing', async () => {
    const r = await fx.call('assistant_voice_document_instruction', { group_id: gid, document_path: P, instruction: 'Add a risks section', input_append_id: 'vapp_fixed', request_id: 'vreq_fixed' });
    expect(r).toMatchObject({ request_id: 'vreq_fixed', input_append_id: 'vapp_fixed', input_event_created: true, input_notify_emitted: true, ask_request: { request_id: 'vreq_fixed', status: 'pending' } });
    expect(r.input_event).toMatchObject({ kind: 'voice_instruction', document_path: P, text: 'Add a risks section', seq: 1 });
    expect(inputLines()).toHaveLength(1);
    const [n] = notifies();
    expect(n).toMatchObject({ by: 'system', data: { target_actor_id: 'voice-secretary', kind: 'voice_secretary_input' } });
    const envelope = (n!.data.context as { input_envelope: Record<string, unknown> }).input_envelope;
    expect(envelope).toMatchObject({ item_count: 1, document_count: 1, has_new_input: true, input_batches: [{ document_path: P, item_count: 1, kinds: ['voice_instruction'] }] });
    expect(envelope.input_text).toContain('Add a risks section');

    const retry = await fx.call('assistant_voice_document_instruction', { group_id: gid, document_path: P, instruction: 'Add a risks section', input_append_id: 'vapp_fixed', request_id: 'vreq_fixed' });
    expect(retry).toMatchObject({ input_event_created: false, input_notify_emitted: false, input_event: { input_id: (r.input_event as { input_id: string }).input_id } });
    expect(inputLines()).toHaveLength(1);
    expect(notifies()).toHaveLength(1);
    const state = JSON.parse(readFileSync(join(fx.home, 'groups', gid, 'state', 'assistants.json'), 'utf8'));
    expect(state.ask_requests.filter((a: { request_id: string }) => a.request_id === 'vreq_fixed')).toHaveLength(1);
  });

  it('input_read answers every unread input once: the daemon-owned cursor moves at the read', async () => {
    await fx.call('assistant_voice_document_instruction', { group_id: gid, document_path: P, source_text: 'we agreed on Friday', input_append_id: 'vapp_2' });
    expect(await fx.codeOf('assistant_voice_document_input_read', { group_id: gid, by: 'p1' })).toBe('permission_denied');
    const first = await fx.call('assistant_voice_document_input_read', { group_id: gid, by: 'voice-secretary' });
    expect(first).toMatchObject({ item_count: 2, document_count: 1, has_new_input: true, input_batches: [{ document_path: P, item_count: 2 }] });
    expect(first.input_text).toContain('we agreed on Friday');
    expect(first.documents[0]).toMatchObject({ document_path: P });
    const state = JSON.parse(readFileSync(join(fx.home, 'voice-secretary', gid, 'input_state.json'), 'utf8'));
    expect(state.secretary_read_cursor).toBe(2);
    const second = await fx.call('assistant_voice_document_input_read', { group_id: gid, by: 'assistant:voice_secretary' });
    expect(second).toMatchObject({ item_count: 0, has_new_input: false, input_batches: [] });
    expect(inputLines()).toHaveLength(2); // the raw log stays for replay
    expect((await fx.call('assistant_state', { group_id: gid })).new_input_available).toBe(false);
    await fx.call('assistant_voice_document_instruction', { group_id: gid, document_path: P, instruction: 'one more', input_append_id: 'vapp_3' });
    const state2 = await fx.call('assistant_state', { group_id: gid });
    expect(state2).toMatchObject({ new_input_available: true, active_document_path: P });
    expect(state2.documents_by_path![P]).toMatchObject({ status: 'active' });
    await fx.call('assistant_voice_document_input_read', { group_id: gid });
  });
});

describe('ask feedback and clearing', () => {
  it('only voice-secretary reports on an Ask; the result is stored and logged', async () => {
    const snap = fx.snapshot(gid);
    expect(await fx.codeOf('assistant_voice_instruction_feedback', { group_id: gid, by: 'lead', request_id: 'vreq_fixed', status: 'done' })).toBe('assistant_voice_instruction_feedback_forbidden');
    expect(await fx.codeOf('assistant_voice_instruction_feedback', { group_id: gid, by: 'user', request_id: 'vreq_fixed', status: 'done' })).toBe('assistant_voice_instruction_feedback_forbidden');
    expect(await fx.codeOf('assistant_voice_instruction_feedback', { group_id: gid, by: 'voice-secretary', request_id: 'vreq_none', status: 'done' })).toBe('voice_ask_request_not_found');
    expect(await fx.codeOf('assistant_voice_instruction_feedback', { group_id: gid, by: 'voice-secretary', request_id: 'vreq_fixed', status: 'finished' })).toBe('invalid_request');
    expect(await fx.codeOf('assistant_voice_instruction_feedback', { group_id: gid, by: 'voice-secretary', request_id: 'vreq_fixed', status: 'done', document_path: '../x.md' })).toBe('invalid_path');
    expect(fx.snapshot(gid)).toEqual(snap);
    const r = await fx.call('assistant_voice_instruction_feedback', { group_id: gid, by: 'voice-secretary', request_id: 'vreq_fixed', status: 'done', reply_text: 'Added a risks section.', document_path: P });
    expect(r.ask_request).toMatchObject({ request_id: 'vreq_fixed', status: 'done', reply_text: 'Added a risks section.', artifact_paths: [P] });
    expect(r.event).toMatchObject({ kind: 'assistant.voice.request', by: 'voice-secretary', data: { action: 'feedback', request_id: 'vreq_fixed', status: 'done' } });
    expect(r.assistant).toMatchObject({ assistant_id: 'voice_secretary', enabled: true });
  });

  it('clearing hides history (keep_active keeps in-flight asks) and still accepts later feedback', async () => {
    const kept = await fx.call('assistant_voice_ask_requests_clear', { group_id: gid, keep_active: true });
    expect(kept.ask_requests.every((a) => a.status === 'pending' || a.status === 'working')).toBe(true);
    expect(kept.cleared_count).toBeGreaterThanOrEqual(1);
    const all = await fx.call('assistant_voice_ask_requests_clear', { group_id: gid });
    expect(all).toMatchObject({ ask_requests: [], kept_count: 0 });
    expect(await fx.codeOf('assistant_voice_ask_requests_clear', { group_id: gid, by: 'p1' })).toBe('permission_denied');
    const pending = kept.ask_requests[0]!.request_id as string;
    const fb = await fx.call('assistant_voice_instruction_feedback', { group_id: gid, by: 'assistant:voice_secretary', request_id: pending, status: 'needs_user', message: 'Which Friday?' });
    expect(fb.ask_request).not.toHaveProperty('cleared_at');
  });
});

describe('assistant_voice_request', () => {
  it('hands work to @foreman or one actor with a request event and a targeted notify', async () => {
    const r = await fx.call('assistant_voice_request', { group_id: gid, by: 'voice-secretary', request_text: 'File the follow-up issue.', document_path: P, artifact_paths: ['docs/out.png'], priority: 'high' });
    expect(r.request).toMatchObject({ target: 'lead', requested_target: '@foreman', request_text: 'File the follow-up issue.', document_path: P, artifact_paths: ['docs/out.png'], priority: 'high' });
    expect(r.event).toMatchObject({ kind: 'assistant.voice.request', by: 'voice-secretary', data: { action: 'request', target: 'lead' } });
    expect(r.notify_event).toMatchObject({ kind: 'system.notify', by: 'system', data: { kind: 'voice_secretary_action_request', target_actor_id: 'lead', priority: 'high' } });
    const p1 = await fx.call('assistant_voice_request', { group_id: gid, by: 'assistant:voice_secretary', target: 'p1', request_text: 'Review the plan.' });
    expect(p1.notify_event.data).toMatchObject({ target_actor_id: 'p1' });
  });

  it('refuses broadcasts, unknown or hidden targets, other senders and unsafe paths, appending nothing', async () => {
    const snap = fx.snapshot(gid);
    const code = (args: Record<string, unknown>) => fx.codeOf('assistant_voice_request', { group_id: gid, by: 'voice-secretary', request_text: 'x', ...args });
    expect(await code({ target: '@all' })).toBe('invalid_request');
    expect(await code({ target: 'user' })).toBe('invalid_request');
    expect(await code({ target: 'voice-secretary' })).toBe('invalid_request');
    expect(await code({ target: 'ghost' })).toBe('invalid_request');
    expect(await code({ request_text: '   ' })).toBe('invalid_request');
    expect(await code({ request_text: undefined })).toBe('invalid_request');
    expect(await code({ by: 'lead' })).toBe('permission_denied');
    expect(await code({ document_path: '../x.md' })).toBe('invalid_path');
    expect(await code({ artifact_paths: ['/etc/passwd'] })).toBe('invalid_path');
    expect(fx.snapshot(gid)).toEqual(snap);
  });
});
