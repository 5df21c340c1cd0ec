// @ts-check
// The CCCSEventV1 envelope check, hand-written because it runs once per line on index rebuilds
// of millions of events; `line-scan.test.ts` keeps it in agreement with the zod schema. Plain
// JavaScript so that the rotation's pre-scan on the maintenance thread (active-prescan-scan.js)
// runs the very same check: Node 20 cannot load TypeScript in a worker thread.

const ENVELOPE_KEYS = new Set(['v', 'id', 'ts', 'seq', 'kind', 'group_id', 'scope_key', 'by', 'data']);

/**
 * Why `raw` is not an event envelope, or undefined when it is one.
 * @param {unknown} raw
 * @returns {string | undefined}
 */
export function eventShapeProblem(raw) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return '(root): expected object';
  const o = /** @type {Record<string, unknown>} */ (raw);
  if (o['v'] !== 1) return 'v: expected 1';
  for (const key of ['id', 'ts', 'kind']) {
    const value = o[key];
    if (typeof value !== 'string' || value.length === 0) return `${key}: expected nonempty string`;
  }
  for (const key of ['group_id', 'scope_key', 'by']) {
    if (typeof o[key] !== 'string') return `${key}: expected string`;
  }
  const data = o['data'];
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return 'data: expected object';
  if (o['seq'] !== undefined && !Number.isInteger(o['seq'])) return 'seq: expected integer';
  for (const key in o) if (!ENVELOPE_KEYS.has(key)) return `${key}: unrecognized key`;
  return undefined;
}
