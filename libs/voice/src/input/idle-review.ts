/** Idle review (§8.3): on recording stop, else after this many transcript input flushes … */
export const IDLE_REVIEW_FLUSH_THRESHOLD = 8;
/** … and at least this long since the previous idle review of the group. */
export const IDLE_REVIEW_COOLDOWN_MS = 5 * 60_000;

export interface IdleReviewState {
  flush_count_since_idle_review?: number;
  last_idle_review_at?: string;
  last_idle_review_input_seq?: number;
}

export type IdleReviewReason = 'stop_flush' | 'input_batch';

/**
 * Pure: after one transcript input was appended (`stop`: its flush ended a recording), whether an
 * idle review is due, and the counter to store.
 */
export function idleReviewAfterInput(state: IdleReviewState, stop: boolean, nowMs: number): { count: number; reason?: IdleReviewReason } {
  const count = (state.flush_count_since_idle_review ?? 0) + 1;
  if (stop) return { count, reason: 'stop_flush' };
  const last = state.last_idle_review_at ? Date.parse(state.last_idle_review_at) : NaN;
  const cooled = Number.isNaN(last) || nowMs - last >= IDLE_REVIEW_COOLDOWN_MS;
  return count >= IDLE_REVIEW_FLUSH_THRESHOLD && cooled ? { count, reason: 'input_batch' } : { count };
}

/** Pure: a stop flush that carried no new input reviews only when inputs arrived since the last review. */
export function idleReviewOnStop(state: IdleReviewState, latestSeq: number): boolean {
  return latestSeq > (state.last_idle_review_input_seq ?? 0);
}

/** The idle review's instruction text for the secretary (refine, never shrink to a summary). */
export function idleReviewText(documentPath: string, reason: IdleReviewReason): string {
  return [
    `Idle review (${reason === 'stop_flush' ? 'recording stopped' : 'enough new transcript input'}) of ${documentPath}:`,
    'refine, reorganize and enrich the working document from the transcript so far;',
    'keep concrete details (do not replace them with a short executive summary) and mark low-confidence facts.',
  ].join(' ');
}
