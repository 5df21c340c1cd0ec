import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from '../events.js';
import { watchPasteSettle, type SubmitWait } from './paste-settle.js';

describe('watchPasteSettle (evidence that a paste was taken in)', () => {
  let output: Emitter<string>;
  let how: SubmitWait | undefined;
  const watch = (quietMs: number, maxMs: number) => {
    const w = watchPasteSettle(output.event, { quietMs }, maxMs);
    void w.settled.then((h) => (how = h));
    return w;
  };
  const flush = () => vi.advanceTimersByTimeAsync(0);

  beforeEach(() => {
    vi.useFakeTimers();
    output = new Emitter<string>();
    how = undefined;
  });
  afterEach(() => {
    output[Symbol.dispose]();
    vi.useRealTimers();
  });

  it('output then quiet: settled after the quiet, long before the cap', async () => {
    watch(150, 1500);
    await vi.advanceTimersByTimeAsync(40);
    output.fire('echo of the paste');
    await vi.advanceTimersByTimeAsync(149);
    expect(how).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(how).toBe('output_settled');
  });

  it('each chunk restarts the quiet: a redraw in pieces is waited out', async () => {
    watch(150, 1500);
    for (let i = 0; i < 5; i++) {
      output.fire('piece');
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(how).toBeUndefined();
    await vi.advanceTimersByTimeAsync(50);
    expect(how).toBe('output_settled');
  });

  it('no answer at all, or output that never pauses (a spinner): the configured delay', async () => {
    watch(150, 1500);
    await vi.advanceTimersByTimeAsync(1499);
    expect(how).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(how).toBe('max_delay');

    how = undefined;
    watch(150, 1500);
    for (let t = 0; t < 1500; t += 100) {
      output.fire('spinner frame');
      await vi.advanceTimersByTimeAsync(100);
    }
    await flush();
    expect(how).toBe('max_delay');
  });

  it('disposing ends the watch and its subscription', async () => {
    const w = watch(150, 1500);
    w[Symbol.dispose]();
    await flush();
    expect(how).toBe('max_delay');
    output.fire('late');
    await vi.advanceTimersByTimeAsync(2000);
    expect(how).toBe('max_delay');
  });
});
