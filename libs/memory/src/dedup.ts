import type { DedupIntent, MemoryDedup } from '@cccc/ipc-protocol';

/** What the precheck found before a write: near-identical entries already in memory. */
export interface DedupPrecheck {
  readonly intent: DedupIntent;
  readonly query: string;
  readonly hits: { path: string; start_line: number; score: number }[];
  readonly precheck_decision: DedupIntent;
}

/** `silent` holds only when something near-identical exists; otherwise the caller's intent stands. */
export function precheckDecision(intent: DedupIntent, hitCount: number): DedupIntent {
  return intent === 'silent' && hitCount > 0 ? 'silent' : intent === 'silent' ? 'new' : intent;
}

export function finalizeDedup(p: DedupPrecheck, status: 'written' | 'silent', reason: MemoryDedup['final_reason']): MemoryDedup {
  const final = status === 'silent' ? 'silent' : p.precheck_decision;
  return {
    intent: p.intent,
    query: p.query,
    candidate_count: p.hits.length,
    top_score: p.hits[0]?.score ?? 0,
    precheck_decision: p.precheck_decision,
    final_decision: final,
    final_reason: status === 'silent' ? reason : 'accepted',
    decision: final,
    hits: p.hits,
  };
}
