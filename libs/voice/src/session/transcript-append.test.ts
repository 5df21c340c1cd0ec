import { describe, expect, it } from 'vitest';
import { checkTranscriptAppend, isRaceLateLive, resolveSupersedes, sessionOf, withTranscriptSegment } from './transcript-append.js';

const cfg = { auto_document_min_chars: 30, auto_document_max_window_seconds: 300 };
const seg = (id: string, text: string, extra: Record<string, unknown> = {}) => ({ segment_id: id, session_id: 's', text, transcript_stage: 'live', ...extra });
const id = () => 'seg-generated';

describe('checkTranscriptAppend', () => {
  it('refuses unsafe ids, empty text without flush and revision metadata on non-final segments', () => {
    expect(() => checkTranscriptAppend({ session_id: '..' }, id)).toThrow(expect.objectContaining({ code: 'invalid_path' }));
    expect(() => checkTranscriptAppend({ session_id: 's', segment_id: 'a/b', text: 'x' }, id)).toThrow(expect.objectContaining({ code: 'invalid_path' }));
    expect(() => checkTranscriptAppend({ session_id: 's', text: ' ' }, id)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => checkTranscriptAppend({ session_id: 's', text: 'x', is_final: false, revision_only: true }, id)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => checkTranscriptAppend({ session_id: 's', text: 'x', is_final: false, supersede_stage: 'live' }, id)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(checkTranscriptAppend({ session_id: 's', flush: true }, id)).toMatchObject({ segment_id: 'seg-generated', text: '', flush: true, stage: 'live' });
  });

  it('infers the final stage only from the service-local final backend', () => {
    expect(checkTranscriptAppend({ session_id: 's', text: 'x', trigger: { recognition_backend: 'assistant_service_local_asr_final' } }, id).stage).toBe('final');
    expect(checkTranscriptAppend({ session_id: 's', text: 'x', trigger: { recognition_backend: 'browser_asr' } }, id).stage).toBe('live');
  });
});

describe('withTranscriptSegment', () => {
  it('keeps a window until it is due (flush, min chars, max age), then answers it once', () => {
    let doc: Record<string, unknown> = {};
    const t0 = '2026-01-01T00:00:00.000Z';
    let out = withTranscriptSegment(doc, seg('a', 'short'), { raw_only: false, window: true, flush: false, config: cfg }, t0);
    expect(out.due).toBeUndefined();
    doc = out.doc;
    out = withTranscriptSegment(doc, seg('b', 'a much longer sentence here'), { raw_only: false, window: true, flush: false, config: cfg }, t0);
    expect(out.due).toEqual({ text: 'short\na much longer sentence here', segment_ids: ['a', 'b'] });
    expect(out.session.window_text).toBe('');
    doc = out.doc;
    out = withTranscriptSegment(doc, seg('c', 'x'), { raw_only: false, window: true, flush: false, config: cfg }, t0);
    out = withTranscriptSegment(out.doc, seg('d', 'y'), { raw_only: false, window: true, flush: false, config: cfg }, '2026-01-01T00:06:00.000Z');
    expect(out.due?.segment_ids).toEqual(['c', 'd']);
  });

  it('a supersede of the live rows drops them from the projection and marks later live rows race-late', () => {
    let out = withTranscriptSegment({}, seg('a', 'one'), { raw_only: false, window: true, flush: false, config: cfg }, 't');
    out = withTranscriptSegment(out.doc, seg('b', 'two'), { raw_only: false, window: true, flush: false, config: cfg }, 't');
    const session = sessionOf(out.doc, 's');
    const supersedes = resolveSupersedes(session, { supersede_stage: 'live' });
    expect(supersedes).toEqual(['a', 'b']);
    out = withTranscriptSegment(out.doc, seg('f', 'one two', { transcript_stage: 'final', supersedes_segment_ids: supersedes, supersede_stage: 'live' }), { raw_only: false, window: false, flush: false, config: cfg }, 't');
    expect((out.session.segments as Array<{ segment_id: string }>).map((s) => s.segment_id)).toEqual(['f']);
    expect(out.session.transcript).toBe('one two');
    expect(out.session.window_segment_ids).toEqual([]);
    expect(isRaceLateLive(out.session, 'live')).toBe(true);
    expect(isRaceLateLive(out.session, 'final')).toBe(false);
  });

  it('bounds the projection', () => {
    let doc: Record<string, unknown> = {};
    for (let i = 0; i < 205; i++) doc = withTranscriptSegment(doc, seg(`s${i}`, `t${i}`), { raw_only: false, window: false, flush: false, config: cfg }, 't').doc;
    const segments = sessionOf(doc, 's')!.segments as Array<{ segment_id: string }>;
    expect(segments).toHaveLength(200);
    expect(segments[0]!.segment_id).toBe('s5');
  });
});
