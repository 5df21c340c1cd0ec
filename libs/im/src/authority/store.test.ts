import { describe, expect, it } from 'vitest';
import { mintKey } from './store.js';

describe('mintKey', () => {
  // A person types the key after `cccc im bind`: a leading dash would read as an option there.
  it('mints 11-character URL-safe keys that never start with a dash', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const key = mintKey();
      expect(key).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{10}$/);
      keys.add(key);
    }
    expect(keys.size).toBe(5000);
  });
});
