import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActorStartProblem } from '@cccc/ipc-protocol';
import { startFailureIn } from './start-failure.js';

// The zod-free twin must accept what the schema accepts, refuse what it refuses, and hand on the
// fields the CLI prints.

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

const problemLike = fc.oneof(
  fieldValue,
  withSome(['code', 'message', 'exit_code', 'signal', 'output_tail', 'other'], fc.oneof(fc.string({ maxLength: 3 }), fieldValue)),
);

describe('startFailureIn, the zod-free ActorStartProblem', () => {
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
