import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DaemonRequestV1 } from './envelope.js';
import { plainEnvelope } from './router.js';

// The router skips the envelope schema for the shape plainEnvelope accepts; it must accept only
// what DaemonRequestV1 accepts, and hand on the same op and args.

const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: -1, max: 2 }), fc.string({ maxLength: 3 }), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }));
const envelopeLike = fc.record(
  { v: fc.oneof(fc.constant(1), anyValue), op: fc.oneof(fc.constantFrom('ping', 'send', ''), anyValue), args: anyValue, extra: anyValue },
  { requiredKeys: [] },
);

describe('plainEnvelope', () => {
  it('accepts only envelopes DaemonRequestV1 accepts, with the same op and args', () => {
    fc.assert(
      fc.property(envelopeLike, (value) => {
        const fast = plainEnvelope(value);
        const parsed = DaemonRequestV1.safeParse(value);
        if (fast) {
          expect(parsed.success).toBe(true);
          expect(fast.data.op).toBe(parsed.data!.op);
          expect(fast.data.args).toEqual(parsed.data!.args);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the usual request and leaves odd ones to the schema', () => {
    expect(plainEnvelope({ v: 1, op: 'ping', args: {} })).toBeDefined();
    expect(plainEnvelope({ v: 1, op: 'ping' })).toBeDefined();
    expect(plainEnvelope({ v: 1, op: 'ping', args: [] })).toBeUndefined();
    expect(plainEnvelope({ v: 1, op: 'ping', args: new Map() as never })).toBeUndefined();
    expect(plainEnvelope({ v: 1, op: '', args: {} })).toBeUndefined();
    expect(plainEnvelope({ v: 2, op: 'ping' })).toBeUndefined();
    expect(plainEnvelope({ v: 1, op: 'ping', id: 1 })).toBeUndefined();
  });
});
