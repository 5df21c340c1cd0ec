import type { LedgerEvent } from '../types.js';

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

const ENVELOPE_KEYS = new Set(['v', 'id', 'ts', 'seq', 'kind', 'group_id', 'scope_key', 'by', 'data']);

/**
 * The CCCSEventV1 envelope check, hand-written because it runs once per line on index rebuilds
 * of millions of events; `line-codec.test.ts` keeps it in agreement with the zod schema.
 */
export function eventShapeProblem(raw: unknown): string | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return '(root): expected object';
  const o = raw as Record<string, unknown>;
  if (o['v'] !== 1) return 'v: expected 1';
  for (const key of ['id', 'ts', 'kind'] as const) {
    if (typeof o[key] !== 'string' || (o[key] as string).length === 0) return `${key}: expected nonempty string`;
  }
  for (const key of ['group_id', 'scope_key', 'by'] as const) {
    if (typeof o[key] !== 'string') return `${key}: expected string`;
  }
  const data = o['data'];
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return 'data: expected object';
  if (o['seq'] !== undefined && !Number.isInteger(o['seq'])) return 'seq: expected integer';
  for (const key in o) if (!ENVELOPE_KEYS.has(key)) return `${key}: unrecognized key`;
  return undefined;
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
