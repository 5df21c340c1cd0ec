import fc from 'fast-check';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CCCSEventV1 } from '@cccc/ipc-protocol';
import { eventShapeProblem } from './line-codec.js';
import { fileLines, fileLinesBackward } from './line-scan.js';

const dir = mkdtempSync(join(tmpdir(), 'line-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function backward(path: string, size: number): Array<{ off: number; text: string }> {
  const fd = openSync(path, 'r');
  try {
    return [...fileLinesBackward(fd, size)].map((l) => ({ off: l.off, text: l.bytes.toString('latin1') }));
  } finally {
    closeSync(fd);
  }
}

describe('line scanning', () => {
  it('backward equals reversed forward across its growing chunks (16 KiB up to 1 MiB), with lines longer than a chunk', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 3_000, max: 70_000 }), fc.integer({ min: 900_000, max: 1_300_000 })), { minLength: 0, maxLength: 12 }),
        fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
        (lengths, tornTail) => {
          const lines = lengths.map((n, i) => String.fromCharCode(97 + (i % 26)).repeat(n));
          const body = lines.map((l) => l + '\n').join('') + (tornTail ? 'z'.repeat(tornTail) : '');
          const path = join(dir, 'f.jsonl');
          writeFileSync(path, body, 'latin1');
          const fwd = [...fileLines(path)].map((l) => ({ off: l.off, text: l.bytes.toString('latin1') }));
          expect(fwd.map((l) => l.text)).toEqual(lines);
          expect(backward(path, body.length)).toEqual([...fwd].reverse());
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the hand-written envelope check agrees with the CCCSEventV1 zod schema', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.string({ maxLength: 3 }), fc.constant(1), fc.dictionary(fc.string({ maxLength: 2 }), fc.integer(), { maxKeys: 2 }), fc.array(fc.integer(), { maxLength: 2 }));
    const base = { v: 1, id: 'a'.repeat(32), ts: '2026-11-30T08:00:00.000000Z', kind: 'x.k', group_id: 'g', scope_key: '', by: 'user', data: {} };
    // Start from a valid event and overwrite or drop a few fields, so both verdicts occur often.
    const candidate = fc
      .tuple(fc.subarray(['v', 'id', 'ts', 'seq', 'kind', 'group_id', 'scope_key', 'by', 'data', 'extra'], { maxLength: 2 }), fc.array(value, { minLength: 2, maxLength: 2 }))
      .map(([keys, values]) => {
        const o: Record<string, unknown> = { ...base };
        keys.forEach((k, i) => (o[k] = values[i]));
        return o;
      });
    let valid = 0;
    fc.assert(
      fc.property(candidate, (raw) => {
        const clean = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
        const ok = CCCSEventV1.safeParse(clean).success;
        if (ok) valid += 1;
        expect(eventShapeProblem(clean) === undefined).toBe(ok);
      }),
      { numRuns: 3000 },
    );
    expect(valid).toBeGreaterThan(100);
  });
});
