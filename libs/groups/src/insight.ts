import { groupError } from './errors.js';

export const MAX_INSIGHT_CHARS = 1200;

/**
 * Insight (§8.6, CCCS): advisory sender perspective, ≤ 1200 characters after trimming; an empty
 * one is stored as absent. A bad type or length is `invalid_insight`.
 */
export function normalizeInsight(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    throw groupError('invalid_insight', 'insight must be a string', { field: 'insight', max_chars: MAX_INSIGHT_CHARS });
  }
  const trimmed = value.trim();
  if ([...trimmed].length > MAX_INSIGHT_CHARS) {
    throw groupError('invalid_insight', `insight is longer than ${MAX_INSIGHT_CHARS} characters`, { field: 'insight', max_chars: MAX_INSIGHT_CHARS });
  }
  return trimmed === '' ? null : trimmed;
}

/**
 * The Agent Insight Profile gate: after routing, a peer-facing message without insight is
 * refused, with nothing sent and nothing written.
 */
export function assertPeerInsight(required: boolean | undefined, audience: 'user' | 'agents', insight: string | null): void {
  if (!required || audience !== 'agents' || insight) return;
  throw groupError('peer_insight_required', 'this message goes to agents: add an insight (your provisional higher-order perspective)', {
    field: 'insight',
    delivery_state: 'not_sent',
    new_side_effects: false,
  });
}
