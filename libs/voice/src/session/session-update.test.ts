import { describe, expect, it } from 'vitest';
import { MAX_SESSION_RECORDS, withClearedTranscript, withSessionPatch } from './session-update.js';

describe('session projection', () => {
  it('keeps at most MAX_SESSION_RECORDS sessions, dropping the oldest', () => {
    let doc: Record<string, unknown> = {};
    for (let i = 0; i < MAX_SESSION_RECORDS + 5; i++) doc = withSessionPatch(doc, `vs_${i}`, { status: 'open' }, `2026-12-02T00:00:${String(i).padStart(2, '0')}Z`).doc;
    const ids = (doc.sessions as Array<{ session_id: string }>).map((s) => s.session_id);
    expect(ids).toHaveLength(MAX_SESSION_RECORDS);
    expect(ids[0]).toBe('vs_5');
  });

  it('clears the latest session of a document when no id is given', () => {
    const doc = { sessions: [{ session_id: 'a', document_path: 'x.md', segments: [{ text: 'a' }] }, { session_id: 'b', document_path: 'y.md', segments: [{ text: 'b' }] }] };
    const out = withClearedTranscript(doc, { document_path: 'x.md' }, 'now');
    expect(out).toMatchObject({ session_id: 'a', cleared: true });
    expect((out.doc.sessions as Array<{ segments: unknown[] }>)[1]!.segments).toHaveLength(1);
  });
});
