import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeViolation, MAX_JSON_DEPTH, MAX_JSON_NODES } from './json-limits.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('jsonShapeViolation', () => {
  it('accepts ordinary documents and the deepest allowed nesting', () => {
    expect(jsonShapeViolation('{"v":1,"op":"ping","args":{"a":[1,2,{"b":"c"}],"t":true,"n":null}}')).toBeNull();
    expect(jsonShapeViolation(nested(MAX_JSON_DEPTH))).toBeNull();
  });

  it('refuses one level deeper, and hostile depths, in one linear pass', () => {
    expect(jsonShapeViolation(nested(MAX_JSON_DEPTH + 1))).toEqual({ limit: 'json_depth', max: MAX_JSON_DEPTH });
    expect(jsonShapeViolation(`{"refs":${nested(100_000)}}`)).toEqual({ limit: 'json_depth', max: MAX_JSON_DEPTH });
    expect(jsonShapeViolation('{"a":'.repeat(5000) + '1' + '}'.repeat(5000))).toEqual({ limit: 'json_depth', max: MAX_JSON_DEPTH });
  });

  it('counts nodes: keys, strings, numbers, literals and containers', () => {
    expect(jsonShapeViolation('[1,2,3]', { depth: 64, nodes: 4 })).toBeNull();
    expect(jsonShapeViolation('[1,2,3,4]', { depth: 64, nodes: 4 })).toEqual({ limit: 'json_nodes', max: 4 });
    expect(jsonShapeViolation('{"a":true}', { depth: 64, nodes: 3 })).toBeNull();
    expect(jsonShapeViolation('{"a":true,"b":null}', { depth: 64, nodes: 3 })).toEqual({ limit: 'json_nodes', max: 3 });
    expect(jsonShapeViolation(`[${Array(MAX_JSON_NODES).fill(0).join(',')}]`)).toEqual({ limit: 'json_nodes', max: MAX_JSON_NODES });
  });

  it('ignores brackets and quotes inside strings, escaped quotes included', () => {
    expect(jsonShapeViolation(JSON.stringify({ text: '[[[['.repeat(100) + '\\"{{{' + '"'.repeat(7) }))).toBeNull();
    expect(jsonShapeViolation(JSON.stringify({ text: 'a\\', b: [[1]] }), { depth: 2, nodes: 100 })).toEqual({ limit: 'json_depth', max: 2 });
  });

  it('agrees with the real nesting depth of any JSON value', () => {
    const depthOf = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 8 }), (value, limit) => {
        const text = JSON.stringify(value);
        const violation = jsonShapeViolation(text, { depth: limit, nodes: 1e9 });
        expect(violation === null).toBe(depthOf(value) <= limit);
      }),
    );
  });
});
