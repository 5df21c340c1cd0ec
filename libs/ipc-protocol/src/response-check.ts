// The zod-free twin of `DaemonResponseV1` (envelope.ts), so a one-shot call (`./call`: the CLI,
// its `cccc ping|send|reply` bundle) loads no zod. response-check.test.ts holds it against the
// schema on the same inputs.

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
