// The zod-free twins of `DaemonResponseV1` (envelope.ts) and of the `ActorStartProblem` an
// error's details may carry (ops/start-report.ts), so a one-shot call (`./call`: the CLI, its
// `cccc ping|send|reply` bundle) checks and prints an answer without loading zod.
// response-check.test.ts holds each against its schema on the same inputs.

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || ok(v);
const nullish = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || v === null || ok(v);
const isString = (v: unknown): v is string => typeof v === 'string';

export interface CheckedError {
  readonly code: string;
  readonly message: string;
  readonly details: Json;
}

export interface CheckedResponse {
  readonly ok: boolean;
  readonly result: Json;
  readonly error: CheckedError | null;
}

/** The response `DaemonResponseV1.safeParse` accepts, as it parses it; null when it refuses. */
export function checkResponse(value: unknown): CheckedResponse | null {
  if (!isRecord(value) || value.v !== 1 || typeof value.ok !== 'boolean') return null;
  if (!optional(value.result, isRecord)) return null;
  const e = value.error;
  if (!nullish(e, (x) => isRecord(x) && isString(x.code) && isString(x.message) && optional(x.details, isRecord))) return null;
  const error = isRecord(e) ? { code: e.code as string, message: e.message as string, details: (e.details as Json | undefined) ?? {} } : null;
  if (value.ok !== (error === null)) return null;
  return { ok: value.ok, result: (value.result as Json | undefined) ?? {}, error };
}

/** The fields of an `ActorStartProblem` a client prints. */
export interface StartFailure {
  readonly code: string;
  readonly message: string;
  readonly output_tail?: string[];
}

/**
 * The `start_failure` of an error's details (a `runtime_start_failed`, a launch error) when
 * `ActorStartProblem` accepts it, with the fields a client prints; otherwise undefined.
 */
export function startFailureIn(details: Json | undefined): StartFailure | undefined {
  const p = details?.['start_failure'];
  if (!isRecord(p) || !isString(p.code) || p.code.length === 0 || !isString(p.message)) return undefined;
  if (!nullish(p.exit_code, Number.isSafeInteger) || !nullish(p.signal, isString)) return undefined;
  if (!optional(p.output_tail, (t) => Array.isArray(t) && t.every(isString))) return undefined;
  return { code: p.code, message: p.message, ...(p.output_tail !== undefined ? { output_tail: p.output_tail as string[] } : {}) };
}
