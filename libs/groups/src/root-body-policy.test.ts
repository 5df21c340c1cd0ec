import { describe, expect, it } from 'vitest';
import { assertRootBodyPolicy, rootBodyViolation } from './root-body-policy.js';

describe('root body summary rule', () => {
  it.each([
    ['Short summary.', undefined],
    ['Two lines\nare fine.', undefined],
    ['Trailing newlines do not count\n\n\n', undefined],
    ['x'.repeat(500), undefined],
    ['Numbers 1. and a - dash inside are fine', undefined],
    ['x'.repeat(501), 'max_chars'],
    ['a\nb\nc', 'max_lines'],
    ['see ```code```', 'fenced_code'],
    ['# Heading', 'block_marker'],
    ['intro\n- item', 'block_marker'],
    ['  * item', 'block_marker'],
  ])('%j → %s', (text, rule) => {
    expect(rootBodyViolation(text)?.rule).toBe(rule);
  });

  it('applies only to non-reply sends when the policy is summary', () => {
    expect(() => assertRootBodyPolicy('summary', { text: 'a\nb\nc' })).toThrowError(
      expect.objectContaining({ code: 'root_body_not_summary', details: { rule: 'max_lines', limit: 2, actual: 3 } }),
    );
    expect(() => assertRootBodyPolicy('summary', { text: 'a\nb\nc', reply_to: 'e1' })).not.toThrow();
    expect(() => assertRootBodyPolicy('off', { text: 'a\nb\nc' })).not.toThrow();
    expect(() => assertRootBodyPolicy(undefined, { text: '# x' })).not.toThrow();
  });
});
