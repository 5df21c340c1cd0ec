import { describe, expect, it } from 'vitest';
import { applyPlainChange, parseYamlDocument, stringifyYamlDocument } from './yaml-file.js';

describe('applyPlainChange', () => {
  const src = `# header comment
a: 1  # keep
b:
  c: [1, 2]
  d: x
list:
- id: one
  v: 1
- id: two
  v: 2
when: '2026-01-01T00:00:00Z'
flag: 'yes'
`;

  // The printer normalises comment spacing and flow-collection padding of the whole document
  // (PyYAML output, which the reference writes, is already in that form and round-trips exactly).
  it('touches only changed nodes', () => {
    const doc = parseYamlDocument(src);
    const before = doc.toJS();
    const after = structuredClone(before);
    after.b.d = 'z';
    after.list[1].v = 3;
    after.new_key = { created_at: '2026-02-02T00:00:00.000000Z', empty: [] };
    delete after.flag;
    applyPlainChange(doc, before, after);
    expect(stringifyYamlDocument(doc)).toBe(`# header comment
a: 1 # keep
b:
  c: [ 1, 2 ]
  d: z
list:
- id: one
  v: 1
- id: two
  v: 3
when: '2026-01-01T00:00:00Z'
new_key:
  created_at: '2026-02-02T00:00:00.000000Z'
  empty: []
`);
  });

  it('keeps YAML 1.1 strings that look like booleans or timestamps as strings', () => {
    const doc = parseYamlDocument(src);
    expect(doc.toJS()).toMatchObject({ when: '2026-01-01T00:00:00Z', flag: 'yes' });
  });

  it('replaces lists whose length changed', () => {
    const doc = parseYamlDocument(src);
    const before = doc.toJS();
    applyPlainChange(doc, before, { ...before, list: [{ id: 'one', v: 1 }] });
    expect(stringifyYamlDocument(doc)).toContain('list:\n- id: one\n  v: 1\nwhen:');
  });
});
