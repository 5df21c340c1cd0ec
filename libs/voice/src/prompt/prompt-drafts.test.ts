import { describe, expect, it } from 'vitest';
import { activePromptDraft, withDraftAcked, withDraftSubmitted, withPromptRequest } from './prompt-drafts.js';

describe('prompt drafts', () => {
  it('request → submitted draft (inheriting operation / hash) → acked out of the active projection', () => {
    let doc = withPromptRequest({}, { request_id: 'r1', input_append_id: 'a1', composer_text: 'x', operation: 'replace_with_refined_prompt', composer_snapshot_hash: 'h', by: 'user' }, '2026-01-01T00:00:00Z').doc;
    expect(() => withDraftSubmitted(doc, { request_id: 'nope', draft_text: 'y' }, 't')).toThrow(expect.objectContaining({ code: 'prompt_request_not_found' }));
    expect(() => withDraftSubmitted(doc, { request_id: 'r1', draft_text: ' ' }, 't')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    const sub = withDraftSubmitted(doc, { request_id: 'r1', draft_text: 'better x' }, '2026-01-01T00:01:00Z');
    expect(sub.draft).toMatchObject({ status: 'pending', operation: 'replace_with_refined_prompt', composer_snapshot_hash: 'h' });
    doc = sub.doc;
    expect(activePromptDraft(doc)).toMatchObject({ request_id: 'r1' });
    expect(() => withDraftAcked(doc, 'r2', 'applied', 'user', 't')).toThrow(expect.objectContaining({ code: 'prompt_draft_not_found' }));
    doc = withDraftAcked(doc, 'r1', 'dismissed', 'user', '2026-01-01T00:02:00Z').doc;
    expect(activePromptDraft(doc)).toBeUndefined();
    expect((doc.voice_prompt_drafts as Record<string, { status: string }>).r1!.status).toBe('dismissed');
  });

  it('no_op stores no_change with empty text; history is bounded', () => {
    let doc: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) doc = withPromptRequest(doc, { request_id: `r${i}`, input_append_id: `a${i}`, composer_text: 'x', by: 'user' }, `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`).doc;
    expect(Object.keys(doc.voice_prompt_requests as object)).toHaveLength(30);
    const out = withDraftSubmitted(doc, { request_id: 'r39', no_op: true, draft_text: 'ignored' }, 't');
    expect(out.draft).toMatchObject({ status: 'no_change', draft_text: '', operation: 'append_to_composer_end' });
  });
});
