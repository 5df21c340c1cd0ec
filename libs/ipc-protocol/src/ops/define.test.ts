import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { opCatalog } from './catalog.js';
import { defineOp } from './define.js';

describe('defineOp', () => {
  it('builds each schema on its first read, once', () => {
    let built = 0;
    const op = defineOp({
      summary: 'x',
      args: () => (built++, z.object({ a: z.string() })),
      result: () => (built++, z.object({})),
      upgrade: 'ndjson_stream',
    });
    expect(built).toBe(0);
    expect(op.summary).toBe('x');
    expect(op.upgrade).toBe('ndjson_stream');
    expect(op.args.parse({ a: 'b' })).toEqual({ a: 'b' });
    expect(op.args).toBe(op.args);
    expect(built).toBe(1);
    expect(op.result).toBe(op.result);
    expect(built).toBe(2);
  });

  it('every catalog entry yields real schemas', () => {
    for (const [name, spec] of Object.entries(opCatalog)) {
      expect(typeof spec.args.safeParse, name).toBe('function');
      expect(typeof spec.result.safeParse, name).toBe('function');
    }
  });
});
