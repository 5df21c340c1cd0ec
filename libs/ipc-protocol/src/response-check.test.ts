import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DaemonResponseV1 } from './envelope.js';
import { checkResponse } from './response-check.js';

// The zod-free twin must accept what the schema accepts, refuse what it refuses, and hand on the
// same values.

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

describe('checkResponse, the zod-free DaemonResponseV1', () => {
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
});
