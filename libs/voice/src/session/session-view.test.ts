import { describe, expect, it } from 'vitest';
import { voiceSessionView } from './session-view.js';

const seg = (segment_id: string, text: string, extra: Record<string, unknown> = {}) => ({ segment_id, text, ...extra });

describe('voiceSessionView', () => {
  const sessions = [
    { session_id: 'vs_1', capture_mode: 'document', document_path: 'docs/a.md', segments: [seg('s1', 'hello'), seg('s2', 'world')] },
    { session_id: 'input-prompt', segments: [seg('p1', 'refine', { kind: 'prompt_refine' })] },
    {
      session_id: 'vs_2',
      capture_mode: 'document',
      document_path: 'docs/b.md',
      segments: [seg('l1', 'live one', { is_final: false }), seg('l2', 'live two'), seg('f1', 'final text', { supersedes_segment_ids: ['l1', 'l2'], revision_only: true }), seg('c1', 'make it short', { trigger: { mode: 'composer' } })],
    },
    { session_id: '../evil', capture_mode: 'document', segments: [seg('x', 'x')] },
  ];

  it('answers the latest document session, omitting superseded rows and non-transcript input', () => {
    const v = voiceSessionView(sessions, {});
    expect(v).toMatchObject({ session_id: 'vs_2', capture_mode: 'document', document_path: 'docs/b.md', transcript: 'final text' });
    expect((v.segments as Array<{ segment_id: string }>).map((s) => s.segment_id)).toEqual(['f1']);
  });

  it('filters by document_path and by session_id', () => {
    expect(voiceSessionView(sessions, { document_path: 'docs/a.md' })).toMatchObject({ session_id: 'vs_1', transcript: 'hello\nworld' });
    expect(voiceSessionView(sessions, { session_id: 'vs_1' })).toMatchObject({ session_id: 'vs_1' });
    expect(voiceSessionView(sessions, { session_id: 'vs_1', document_path: 'docs/b.md' })).toEqual({});
  });

  it('never answers prompt/instruction sessions or unsafe ids, and {} when nothing matches', () => {
    expect(voiceSessionView(sessions, { session_id: 'input-prompt' })).toEqual({});
    expect(voiceSessionView(sessions, { session_id: '../evil' })).toEqual({});
    expect(voiceSessionView([], {})).toEqual({});
  });
});
