import { describe, expect, it } from 'vitest';
import { permissionLine } from './headless-permissions';

describe('permissionLine', () => {
  it('names the command and why', () => {
    expect(permissionLine({ kind: 'command', summary: { command: 'touch x', reason: 'Create a marker' } })).toBe('run touch x (Create a marker)');
    expect(permissionLine({ kind: 'file_change', summary: {} })).toBe('change files');
  });
});
