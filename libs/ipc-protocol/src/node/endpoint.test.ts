import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DaemonAddrV1 } from '../addr.js';
import { endpointFromDescriptor, type DaemonEndpoint } from './endpoint.js';

// Endpoint discovery checks `ccccd.addr.json` by hand (no zod: `cccc hook` runs it); this holds
// the check against the descriptor's one schema over generated descriptors.

const anyOf = <T>(...values: T[]) => fc.constantFrom(...values);
/** Mostly a valid value, so that many descriptors get past both checks; sometimes an odd one. */
const likely = (valid: fc.Arbitrary<unknown>, odd: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: odd });
const descriptor = fc.record(
  {
    v: likely(fc.constant(1), anyOf<unknown>(2, '1', null)),
    transport: likely(anyOf('unix', 'tcp'), anyOf<unknown>('pipe', 1)),
    path: likely(fc.string({ minLength: 1, maxLength: 6 }), anyOf<unknown>('', null, 3)),
    host: likely(anyOf('127.0.0.1', 'localhost'), anyOf<unknown>('', null, 3)),
    port: likely(fc.integer({ min: 1, max: 65_535 }), anyOf<unknown>(-1, 0, 1.5, '80', NaN, Infinity, 2 ** 53, null)),
    pid: likely(fc.integer(), anyOf<unknown>(1.5, '1', null)),
    version: likely(fc.constant('0.1.0'), anyOf<unknown>(1, null)),
    ts: likely(fc.constant('2026-01-01T00:00:00Z'), fc.constant(0)),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

function bySchema(value: unknown): DaemonEndpoint | null {
  const parsed = DaemonAddrV1.safeParse(value);
  if (!parsed.success) return null;
  const a = parsed.data;
  return a.transport === 'unix' ? { transport: 'unix', path: a.path } : { transport: 'tcp', host: a.host, port: a.port };
}

describe('the hand-written descriptor check mirrors DaemonAddrV1', () => {
  it('names the same endpoint, or refuses the same descriptors', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 8, arbitrary: descriptor }, { weight: 1, arbitrary: fc.anything() }), (value) => {
        expect(endpointFromDescriptor(value)).toEqual(bySchema(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('fixed cases', () => {
    expect(endpointFromDescriptor({ v: 1, transport: 'unix', path: '/s.sock', pid: 4 })).toEqual({ transport: 'unix', path: '/s.sock' });
    expect(endpointFromDescriptor({ v: 1, transport: 'tcp', host: '127.0.0.1', port: 9 })).toEqual({ transport: 'tcp', host: '127.0.0.1', port: 9 });
    expect(endpointFromDescriptor({ v: 1, transport: 'tcp', host: '127.0.0.1', port: 0 })).toBeNull();
    expect(endpointFromDescriptor({ v: 1, transport: 'unix', path: '/s.sock', pid: 1.5 })).toBeNull();
    expect(endpointFromDescriptor([{ v: 1 }])).toBeNull();
  });
});
