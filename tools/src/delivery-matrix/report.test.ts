import { describe, expect, it } from 'vitest';
import { classify, formatReport, percentile, summarize, type Sample } from './report.js';

const sample = (over: Partial<Sample>): Sample => ({ modelCount: 1, onScreen: true, confirmation: 'confirmed', latencyMs: 100, ...over });

describe('delivery-matrix report', () => {
  it('classifies by what reached the model, then by the screen', () => {
    expect(classify(sample({}))).toBe('once');
    expect(classify(sample({ modelCount: 2 }))).toBe('twice');
    expect(classify(sample({ modelCount: 0 }))).toBe('typed_not_submitted');
    expect(classify(sample({ modelCount: 0, onScreen: false }))).toBe('lost');
  });

  it('nearest-rank percentiles; latencies only of confirmed deliveries', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 95)).toBe(19);
    const row = summarize('ready', [sample({ latencyMs: 200 }), sample({ latencyMs: 400 }), sample({ confirmation: 'unconfirmed', latencyMs: null })]);
    expect(row).toMatchObject({ runs: 3, confirmed: 2, p50: 200, p95: 400, counts: { once: 3, twice: 0 } });
    expect(formatReport([row])).toContain('| ready | 3 | 3 | 0 | 0 | 0 | 0 | 2 | 200 ms | 400 ms | - | - | - | - |');
    expect(summarize('ready', [sample({ submitMs: 180 }), sample({ submitMs: 1600 })]).submitP50).toBe(180);
  });

  it('counts what did not land once and was not flagged to the sender; hook latencies and violations apart', () => {
    const row = summarize('restart', [
      sample({ promptMs: 120 }),
      sample({ modelCount: 0, onScreen: false, confirmation: 'unconfirmed', flagged: true }),
      sample({ modelCount: 0, onScreen: false, confirmation: null }),
      sample({ promptMs: 300, readyMs: 1900, violation: 'held message typed into the permission prompt' }),
    ]);
    expect(row).toMatchObject({ unflagged: 1, promptP50: 120, promptP95: 300, readyP50: 1900, counts: { once: 2, lost: 2 } });
    expect(formatReport([row])).toContain('Violations:\n- restart: held message typed into the permission prompt');
  });
});
