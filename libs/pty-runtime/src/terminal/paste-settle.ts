import type { Event } from '../events.js';

/**
 * Evidence that a TUI took a paste in before its submit key is written: the terminal's own
 * answer to the paste (its echo or redraw of the input box), then output quiet for `quietMs`.
 * A runtime whose rule is unverified has none and keeps the fixed delay.
 */
export interface PasteSettle {
  readonly quietMs: number;
}

/** How the wait between payload and submit key ended. */
export type SubmitWait = 'output_settled' | 'max_delay';

export interface PasteSettleWatch extends Disposable {
  readonly settled: Promise<SubmitWait>;
}

/**
 * Watches output from before the payload is written. Resolves `output_settled` once output came
 * and then paused for `quietMs`; `max_delay` when `maxMs` passes first (no answer, or output that
 * never pauses, e.g. a busy agent's spinner): the configured delay stays the upper bound.
 */
export function watchPasteSettle(onOutput: Event<unknown>, settle: PasteSettle, maxMs: number): PasteSettleWatch {
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let finish: (how: SubmitWait) => void = () => {};
  const settled = new Promise<SubmitWait>((resolve) => (finish = resolve));
  const max = setTimeout(() => done('max_delay'), maxMs);
  const sub = onOutput(() => {
    if (quiet) clearTimeout(quiet);
    quiet = setTimeout(() => done('output_settled'), settle.quietMs);
  });
  function done(how: SubmitWait): void {
    dispose();
    finish(how);
  }
  function dispose(): void {
    clearTimeout(max);
    if (quiet) clearTimeout(quiet);
    sub[Symbol.dispose]();
  }
  return { settled, [Symbol.dispose]: () => done('max_delay') };
}
