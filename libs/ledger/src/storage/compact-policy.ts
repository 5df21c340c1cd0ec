import type { Manifest } from './manifest.js';

/** Reference rule: a non-forced compaction rotates at most once per this interval. */
export const MIN_COMPACT_INTERVAL_MS = 300_000;

/**
 * A manifest time as epoch ms: the reference stamps `YYYYMMDDTHHMMSSZ` (so do we); a full
 * RFC3339 time is accepted too. Undefined when it is neither.
 */
export function parseManifestStamp(stamp: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stamp);
  if (m) return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const ms = Date.parse(stamp);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * When the last rotation happened, from the shared manifest: the newest segment's seal time.
 * Using the manifest (not a file of our own) makes the rate limit hold across processes and
 * across implementations that share the home.
 */
export function lastRotationMs(manifest: Manifest): number | undefined {
  let newest: { seq: number; at: number } | undefined;
  for (const s of manifest.segments) {
    const at = parseManifestStamp(s.sealed_at);
    if (at !== undefined && (!newest || s.seq > newest.seq)) newest = { seq: s.seq, at };
  }
  return newest?.at;
}

export type CompactDecision = { rotate: true } | { rotate: false; reason: string };

/**
 * Whether a compaction rotates the active file: always when forced; otherwise only when the
 * file reached the threshold and the last rotation is at least the minimum interval ago.
 */
export function compactDecision(q: {
  force: boolean;
  activeBytes: number;
  threshold: number;
  nowMs: number;
  lastRotationMs: number | undefined;
  minIntervalMs: number;
}): CompactDecision {
  if (q.activeBytes === 0) return { rotate: false, reason: 'active ledger is empty' };
  if (q.force) return { rotate: true };
  if (q.activeBytes < q.threshold) return { rotate: false, reason: `active ledger ${q.activeBytes} < ${q.threshold} bytes` };
  if (q.lastRotationMs !== undefined) {
    const since = q.nowMs - q.lastRotationMs;
    if (since >= 0 && since < q.minIntervalMs) {
      return {
        rotate: false,
        reason: `rate limited: last rotation ${Math.floor(since / 1000)} s ago, at most one every ${Math.round(q.minIntervalMs / 1000)} s`,
      };
    }
  }
  return { rotate: true };
}
