// The zod-free twin of `ActorStartProblem` (ipc-protocol ops/start-report.ts) for the fields the
// CLI prints, so printing an error loads no zod. start-failure.test.ts holds it against the schema.
import type { StartProblemText } from './start-lines.js';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const optional = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || ok(v);
const nullish = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || v === null || ok(v);

/** The `start_failure` of an error's details, if well formed (a `runtime_start_failed`, a launch error). */
export function startFailureIn(details: Json | undefined): StartProblemText | undefined {
  const p = details?.['start_failure'];
  if (!isRecord(p) || !isString(p.code) || p.code.length === 0 || !isString(p.message)) return undefined;
  if (!nullish(p.exit_code, Number.isSafeInteger) || !nullish(p.signal, isString)) return undefined;
  if (!optional(p.output_tail, (t) => Array.isArray(t) && t.every(isString))) return undefined;
  return { code: p.code, message: p.message, ...(p.output_tail !== undefined ? { output_tail: p.output_tail as string[] } : {}) };
}
