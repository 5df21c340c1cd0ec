import { describe, expect, it } from 'vitest';
import { applyMergePatch, checkOverlay, mergePolicy, policyRevision } from './allowlist.js';
import { defaultAllowlist } from './default-allowlist.js';
import { dynamicToolName } from './exposure.js';

describe('allowlist merge', () => {
  it('merges mappings key by key and replaces lists and scalars', () => {
    const merged = mergePolicy({ a: { x: 1, y: [1, 2] }, b: 1 }, { a: { y: [3] }, c: 2 });
    expect(merged).toEqual({ a: { x: 1, y: [3] }, b: 1, c: 2 });
  });

  it('applies a merge patch with null as delete', () => {
    expect(applyMergePatch({ a: 1, b: { c: 2, d: 3 } }, { a: null, b: { d: null, e: 4 } })).toEqual({ b: { c: 2, e: 4 } });
  });

  it('gives equal policies equal revisions, whatever their key order', () => {
    expect(policyRevision({ a: 1, b: { c: 2, d: 3 } })).toBe(policyRevision({ b: { d: 3, c: 2 }, a: 1 }));
    expect(policyRevision({ a: 1 })).not.toBe(policyRevision({ a: 2 }));
  });

  it('the packaged default is a valid policy whose packs only name cccc_* tools', () => {
    const check = checkOverlay(defaultAllowlist(), {});
    expect(check.valid).toBe(true);
    if (!check.valid) return;
    expect(check.policy.builtin_packs.map((p) => p.capability_id)).toEqual(['pack:group-runtime', 'pack:diagnostics', 'pack:file-im']);
    const packTools = check.policy.builtin_packs.flatMap((p) => p.tools);
    expect(packTools.filter((t) => check.policy.base_tools.includes(t))).toEqual([]);
  });

  it('refuses overlays that are not mappings or change fixed keys', () => {
    expect(checkOverlay(defaultAllowlist(), [] as unknown).valid).toBe(false);
    expect(checkOverlay(defaultAllowlist(), { base_tools: [] })).toMatchObject({ valid: false, reason: 'base_tools: fixed by the packaged default' });
  });

  it('names dynamic tools stably within 64 characters', () => {
    const name = dynamicToolName('mcp:npm:@modelcontextprotocol/server-everything', 'echo');
    expect(name).toMatch(/^cccc_ext_[0-9a-f]{8}_echo$/);
    expect(dynamicToolName('mcp:x', 'y'.repeat(100)).length).toBe(64);
  });
});
