import { describe, expect, it } from 'vitest';
import { withAskFeedback, withAsksCleared } from './ask-requests.js';

const doc = { rust_state: {}, ask_requests: [{ request_id: 'a', status: 'pending' }, { request_id: 'b', status: 'done' }] };

describe('ask requests', () => {
  it('feedback updates one request, moves it first, and keeps the document path among its artifacts', () => {
    const { doc: next, ask } = withAskFeedback(doc, { request_id: 'b', status: 'working', reply_text: ' on it ', document_path: 'd/x.md' }, 'now');
    expect(ask).toMatchObject({ request_id: 'b', status: 'working', reply_text: 'on it', artifact_paths: ['d/x.md'], first_feedback_at: 'now' });
    expect((next.ask_requests as Array<{ request_id: string }>).map((a) => a.request_id)).toEqual(['b', 'a']);
    expect(next.rust_state).toEqual({});
  });

  it('an unknown request is voice_ask_request_not_found', () => {
    expect(() => withAskFeedback(doc, { request_id: 'zz', status: 'done' }, 'now')).toThrow(expect.objectContaining({ code: 'voice_ask_request_not_found' }));
  });

  it('clearing hides history, keep_active keeps in-flight asks, and a later reply shows a cleared ask again', () => {
    const kept = withAsksCleared(doc, true, 't1');
    expect(kept).toMatchObject({ cleared: 1 });
    expect(kept.visible.map((a) => a.request_id)).toEqual(['a']);
    const all = withAsksCleared(kept.doc, false, 't2');
    expect(all.visible).toEqual([]);
    const back = withAskFeedback(all.doc, { request_id: 'a', status: 'done', reply_text: 'finished' }, 't3');
    expect(back.ask).not.toHaveProperty('cleared_at');
  });
});
