import { describe, expect, it } from 'vitest';
import { assertPeerInsight, MAX_INSIGHT_CHARS, normalizeInsight } from './insight.js';

describe('insight', () => {
  it('is trimmed, empty reads as absent, and is bounded in characters (not UTF-16 units)', () => {
    expect(normalizeInsight(undefined)).toBeNull();
    expect(normalizeInsight(null)).toBeNull();
    expect(normalizeInsight('   ')).toBeNull();
    expect(normalizeInsight('  risky path  ')).toBe('risky path');
    expect(normalizeInsight('😀'.repeat(MAX_INSIGHT_CHARS))).toHaveLength(2 * MAX_INSIGHT_CHARS);
    expect(() => normalizeInsight('x'.repeat(MAX_INSIGHT_CHARS + 1))).toThrowError(
      expect.objectContaining({ code: 'invalid_insight', details: { field: 'insight', max_chars: MAX_INSIGHT_CHARS } }),
    );
    expect(() => normalizeInsight(42)).toThrowError(expect.objectContaining({ code: 'invalid_insight' }));
  });

  it('the peer gate refuses only an agent-facing message without insight when asked to', () => {
    expect(() => assertPeerInsight(true, 'agents', null)).toThrowError(
      expect.objectContaining({ code: 'peer_insight_required', details: { field: 'insight', delivery_state: 'not_sent', new_side_effects: false } }),
    );
    expect(() => assertPeerInsight(true, 'agents', 'why')).not.toThrow();
    expect(() => assertPeerInsight(true, 'user', null)).not.toThrow();
    expect(() => assertPeerInsight(false, 'agents', null)).not.toThrow();
    expect(() => assertPeerInsight(undefined, 'agents', null)).not.toThrow();
  });
});
