import { describe, expect, it, vi } from 'vitest';
import { DeadlineSweep, type DeadlineEntry } from './deadline-sweep.js';

const entry = (over: Partial<DeadlineEntry>, fired: string[]): DeadlineEntry => ({
  lineDeadline: Infinity,
  lastActive: 0,
  idleApplies: true,
  onLineTimeout: () => fired.push('line'),
  onIdleTimeout: () => fired.push('idle'),
  ...over,
});

describe('DeadlineSweep', () => {
  it('picks a period of a tenth of the shortest timeout, within 5 ms and 1 s', () => {
    expect(DeadlineSweep.periodFor(10_000, 600_000)).toBe(1000);
    expect(DeadlineSweep.periodFor(150, 600_000)).toBe(15);
    expect(DeadlineSweep.periodFor(20, 0)).toBe(5);
    expect(DeadlineSweep.periodFor(0)).toBe(1000);
  });

  it('fires a passed line deadline once, then the idle timeout, and runs no timer when empty', async () => {
    let now = 0;
    const sweep = new DeadlineSweep(100, 5, () => now);
    const fired: string[] = [];
    const e = entry({ lineDeadline: 50 }, fired);
    sweep.add(e);
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual([]);
    now = 60;
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual(['line']);
    now = 120;
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual(['line', 'idle']);
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual(['line', 'idle']);
    sweep.delete(e);
    expect(sweep.size).toBe(0);
  });

  it('arms one interval for connections that come and go, and stops it at the first sweep that finds none', async () => {
    const arm = vi.spyOn(globalThis, 'setInterval');
    try {
      const sweep = new DeadlineSweep(100, 5);
      const fired: string[] = [];
      for (let i = 0; i < 100; i++) {
        const e = entry({ lastActive: sweep.now() }, fired);
        sweep.add(e);
        sweep.delete(e);
      }
      expect(arm).toHaveBeenCalledTimes(1);
      expect(sweep.armed).toBe(true);
      await new Promise((r) => setTimeout(r, 30));
      expect(sweep.armed).toBe(false);
      const e = entry({ lastActive: sweep.now() }, fired);
      sweep.add(e);
      expect(arm).toHaveBeenCalledTimes(2);
      sweep.delete(e);
      expect(fired).toEqual([]);
    } finally {
      arm.mockRestore();
    }
  });
});
