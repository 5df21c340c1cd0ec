import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activeDocOf, readActiveGroupId, writeActiveGroupId } from './active-group.js';
import { HomeLayout } from './home-layout.js';
import { ActiveDoc } from './schemas/registry.js';

const anyValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(1.5, 2 ** 53, -(2 ** 53), -0, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 6 }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);
const docLike = fc.oneof(
  anyValue,
  fc.record(
    { v: anyValue, active_group_id: fc.oneof(fc.string({ maxLength: 6 }), anyValue), updated_at: fc.oneof(fc.string(), anyValue), x: anyValue, v2: anyValue },
    { requiredKeys: [] },
  ),
);

describe('activeDocOf, the zod-free ActiveDoc', () => {
  it('accepts what the schema accepts and gives the same document, key order included', () => {
    fc.assert(
      fc.property(docLike, (raw) => {
        const parsed = ActiveDoc.safeParse(raw);
        const checked = activeDocOf(raw);
        expect(checked !== undefined).toBe(parsed.success);
        if (parsed.success) expect(JSON.stringify(checked)).toBe(JSON.stringify(parsed.data));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('active.json', () => {
  let home: string;
  beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'cccc-active-'))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('reads the id, and nothing from a missing or ill-typed document', () => {
    const layout = new HomeLayout(home);
    expect(readActiveGroupId(layout)).toBe('');
    writeFileSync(layout.activePath, JSON.stringify({ v: 1, active_group_id: 42 }));
    expect(readActiveGroupId(layout)).toBe('');
    writeFileSync(layout.activePath, JSON.stringify({ v: 1, active_group_id: 'g_1', extra: true }));
    expect(readActiveGroupId(layout)).toBe('g_1');
  });

  it('writes the id over an existing document, keeping the keys it does not know', () => {
    const layout = new HomeLayout(home);
    writeFileSync(layout.activePath, JSON.stringify({ active_group_id: 'g_old', theirs: 'kept' }));
    writeActiveGroupId(layout, 'g_new');
    const doc = JSON.parse(readFileSync(layout.activePath, 'utf8'));
    expect(Object.keys(doc)).toEqual(['v', 'active_group_id', 'theirs', 'updated_at']);
    expect(doc).toMatchObject({ v: 1, active_group_id: 'g_new', theirs: 'kept' });
    writeFileSync(layout.activePath, JSON.stringify({ v: 'bad', theirs: 'dropped' }));
    writeActiveGroupId(layout, 'g_2');
    expect(Object.keys(JSON.parse(readFileSync(layout.activePath, 'utf8')))).toEqual(['v', 'active_group_id', 'updated_at']);
  });
});
