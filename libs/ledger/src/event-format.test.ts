import { describe, expect, it } from 'vitest';
import { formatTs, TS_RE } from './event-format.js';

describe('formatTs', () => {
  it('is the ISO second of the instant with six fraction digits, across second boundaries', () => {
    // Injected clocks are used as-is, so consecutive calls may go back and forth between seconds.
    for (const iso of ['2026-11-30T08:42:36.699Z', '2026-11-30T08:42:37.000Z', '2026-11-30T08:42:36.001Z', '1999-12-31T23:59:59.999Z', '2000-01-01T00:00:00.000Z']) {
      expect(formatTs(new Date(iso), true)).toBe(`${iso.slice(0, 23)}000Z`);
    }
  });

  it('never repeats or goes back on the process clock, and keeps the format', () => {
    const seen: string[] = [];
    for (let i = 0; i < 5000; i++) seen.push(formatTs(new Date(), false));
    for (const ts of seen) expect(ts).toMatch(TS_RE);
    for (let i = 1; i < seen.length; i++) expect(seen[i]! > seen[i - 1]!).toBe(true);
  });
});
