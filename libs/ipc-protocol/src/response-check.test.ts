import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DaemonResponseV1 } from './envelope.js';
import { ActorStartProblem } from './ops/start-report.js';
import { checkResponse, startFailureIn } from './response-check.js';

// The zod-free twins must accept what the schemas accept, refuse what they refuse, and hand on
// the same values a client prints.

const fieldValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }),
);
const withSome = (keys: string[], extra: fc.Arbitrary<unknown>) =>
  fc.record(Object.fromEntries(keys.map((k) => [k, extra])) as Record<string, fc.Arbitrary<unknown>>, { requiredKeys: [] });

const errorLike = fc.oneof(fieldValue, withSome(['code', 'message', 'details'], fc.oneof(fc.string(), fieldValue)));
const responseLike = fc.oneof(
  fieldValue,
  fc.record(
    { v: fc.oneof(fc.constant(1), fieldValue), ok: fc.oneof(fc.boolean(), fieldValue), result: fieldValue, error: errorLike },
    { requiredKeys: [] },
  ),
);

const problemLike = fc.oneof(
  fieldValue,
  withSome(['code', 'message', 'exit_code', 'signal', 'output_tail', 'other'], fc.oneof(fc.string({ maxLength: 3 }), fieldValue)),
);

describe('zod-free response checks', () => {
  it('checkResponse agrees with DaemonResponseV1', () => {
    fc.assert(
      fc.property(responseLike, (value) => {
        const parsed = DaemonResponseV1.safeParse(value);
        const checked = checkResponse(value);
        expect(checked !== null).toBe(parsed.success);
        if (parsed.success && checked) {
          expect(checked.ok).toBe(parsed.data.ok);
          expect(JSON.stringify(checked.result)).toBe(JSON.stringify(parsed.data.result));
          expect(checked.error && { code: checked.error.code, message: checked.error.message, details: checked.error.details }).toEqual(
            parsed.data.error ?? null,
          );
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the daemon answers the fast path meets', () => {
    expect(checkResponse({ v: 1, ok: true, result: { a: 1 }, error: null })).toEqual({ ok: true, result: { a: 1 }, error: null });
    expect(checkResponse({ v: 1, ok: false, result: {}, error: { code: 'x', message: 'm' } })).toEqual({
      ok: false,
      result: {},
      error: { code: 'x', message: 'm', details: {} },
    });
    expect(checkResponse({ v: 1, ok: true, error: { code: 'x', message: 'm' } })).toBeNull();
  });

  it('startFailureIn agrees with ActorStartProblem on the fields the CLI prints', () => {
    fc.assert(
      fc.property(problemLike, (value) => {
        const parsed = ActorStartProblem.safeParse(value);
        const checked = startFailureIn({ start_failure: value });
        expect(checked !== undefined).toBe(parsed.success);
        if (parsed.success && checked) {
          expect(checked).toEqual({ code: parsed.data.code, message: parsed.data.message, ...(parsed.data.output_tail ? { output_tail: parsed.data.output_tail } : {}) });
        }
      }),
      { numRuns: 2000 },
    );
    expect(startFailureIn(undefined)).toBeUndefined();
  });
});
