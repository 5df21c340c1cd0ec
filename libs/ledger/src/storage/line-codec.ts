import type { LedgerEvent } from '../types.js';
import { eventShapeProblem } from './event-shape.js';

export { eventShapeProblem };

/** Result of decoding one stored line: an event, or the reason it is not one. */
export type DecodedLine = { ok: true; event: LedgerEvent } | { ok: false; reason: string };

/**
 * Decode one JSONL record (without its newline). Records must carry a nonempty id and ts: the
 * spec forbids maintenance from inventing them, so their absence is damage, not a default.
 */
export function decodeLine(text: string): DecodedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalid JSON' };
  }
  const problem = eventShapeProblem(raw);
  if (problem) return { ok: false, reason: `not an event: ${problem}` };
  return { ok: true, event: raw as LedgerEvent };
}

/** Canonical envelope field order, so hashes and byte sizes are deterministic. */
export function encodeEvent(event: LedgerEvent): string {
  return JSON.stringify({
    v: event.v,
    id: event.id,
    ts: event.ts,
    kind: event.kind,
    group_id: event.group_id,
    scope_key: event.scope_key,
    by: event.by,
    data: event.data,
  });
}
