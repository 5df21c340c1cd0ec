import { describe, expect, it } from 'vitest';
import { applyObservabilityPatch, DEFAULT_OBSERVABILITY, mergeObservability } from './observability.js';

describe('observability settings (pure)', () => {
  it('merges a hand-edited section key by key: valid values win, invalid ones fall back', () => {
    const merged = mergeObservability({
      developer_mode: 'yes please',
      log_level: 'debug',
      terminal_ui: { scrollback_lines: 5 },
      terminal_transcript: { enabled: true, per_actor_bytes: -1 },
      logger_levels: { pty: 'warning' },
    });
    expect(merged.developer_mode).toBe(false);
    expect(merged.log_level).toBe('DEBUG');
    expect(merged.terminal_ui.scrollback_lines).toBe(8000);
    expect(merged.terminal_transcript).toEqual({ ...DEFAULT_OBSERVABILITY.terminal_transcript, enabled: true });
    expect(merged.logger_levels).toEqual({ pty: 'WARNING' });
    expect(mergeObservability('garbage')).toEqual(DEFAULT_OBSERVABILITY);
  });

  it('patches without touching the current value', () => {
    const current = mergeObservability(undefined);
    const next = applyObservabilityPatch(current, { terminal_transcript: { persist: true } });
    expect(next.terminal_transcript.persist).toBe(true);
    expect(current.terminal_transcript.persist).toBe(false);
    expect(() => applyObservabilityPatch(current, { terminal_ui: { rows: 3 } })).toThrow(/terminal_ui.rows/);
  });
});
