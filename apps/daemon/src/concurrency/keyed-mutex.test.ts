import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('KeyedMutex', () => {
  it('runs work for one key strictly in order, and other keys concurrently', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    const a1 = m.run('a', async () => {
      log.push('a1 start');
      await tick(20);
      log.push('a1 end');
    });
    const a2 = m.run('a', async () => {
      log.push('a2 start');
      log.push('a2 end');
    });
    const b1 = m.run('b', async () => {
      log.push('b1 start');
      log.push('b1 end');
    });
    await Promise.all([a1, a2, b1]);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(m.activeKeys).toBe(0);
  });

  it('keeps going after a failure', async () => {
    const m = new KeyedMutex();
    await expect(m.run('k', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(m.run('k', () => 7)).resolves.toBe(7);
  });
});
