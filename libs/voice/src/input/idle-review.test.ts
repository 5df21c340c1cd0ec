import { describe, expect, it } from 'vitest';
import { IDLE_REVIEW_COOLDOWN_MS, idleReviewAfterInput, idleReviewOnStop } from './idle-review.js';

describe('idle review', () => {
  it('is due at once on a stop flush, else after 8 transcript inputs and the cooldown', () => {
    const now = Date.parse('2026-01-01T01:00:00Z');
    expect(idleReviewAfterInput({}, true, now)).toEqual({ count: 1, reason: 'stop_flush' });
    expect(idleReviewAfterInput({ flush_count_since_idle_review: 6 }, false, now)).toEqual({ count: 7 });
    expect(idleReviewAfterInput({ flush_count_since_idle_review: 7 }, false, now)).toEqual({ count: 8, reason: 'input_batch' });
    const recent = new Date(now - IDLE_REVIEW_COOLDOWN_MS + 1000).toISOString();
    expect(idleReviewAfterInput({ flush_count_since_idle_review: 9, last_idle_review_at: recent }, false, now)).toEqual({ count: 10 });
  });

  it('a stop without new input reviews only when inputs arrived since the last review', () => {
    expect(idleReviewOnStop({ last_idle_review_input_seq: 4 }, 4)).toBe(false);
    expect(idleReviewOnStop({ last_idle_review_input_seq: 4 }, 5)).toBe(true);
  });
});
