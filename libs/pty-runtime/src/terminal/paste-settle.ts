import type { Event } from '../events.js';
import { PasteEchoScanner, type PasteEcho } from './paste-echo.js';

export type { PasteEcho } from './paste-echo.js';

/**
 * Evidence that a TUI took a paste in before its submit key is written: the terminal's own
 * answer to the paste (its echo or redraw of the input box), then output quiet for `quietMs`.
 * A runtime whose rule is unverified has none and keeps the fixed delay.
 */
export interface PasteSettle {
  readonly quietMs: number;
  /**
   * Where verified, the answer must be the paste's own echo, not just any output: a TUI still
   * starting up redraws for its own reasons, and quiet after such a redraw is no sign that the
   * paste was read (claude then takes the paste and drops the Enter that came with it).
   */
  readonly echo?: PasteEcho;
}

/** How the wait between payload and submit key ended. */
export type SubmitWait = 'output_settled' | 'max_delay';

export interface PasteSettleWatch extends Disposable {
  readonly settled: Promise<SubmitWait>;
}

/**
 * Watches output from before the payload is written. Resolves `output_settled` once output came
 * (with `echo`: the paste's echo) and then paused for `quietMs`; `max_delay` when `maxMs` passes
 * first (no answer, or output that never pauses, e.g. a busy agent's spinner): the configured
 * delay stays the upper bound. With `echo`, the echo is waited for up to `echo.waitMs`, and
 * `maxMs` counts from the echo. With `screen` too, output that went quiet without the echo in
 * the stream has the rendered screen looked at: a TUI that redraws only changed cells may show
 * the paste without ever writing it whole.
 */
export function watchPasteSettle(onOutput: Event<unknown>, settle: PasteSettle, maxMs: number, pasted = '', screen?: () => Promise<string>): PasteSettleWatch {
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let look: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  let looking = false;
  let chunks = 0;
  let finish: (how: SubmitWait) => void = () => {};
  const settled = new Promise<SubmitWait>((resolve) => (finish = resolve));
  const scanner = settle.echo ? new PasteEchoScanner(settle.echo, pasted) : undefined;
  let answered = scanner === undefined;
  let max = setTimeout(() => done('max_delay'), scanner ? Math.max(maxMs, settle.echo!.waitMs) : maxMs);
  const answer = () => {
    answered = true;
    clearTimeout(max);
    max = setTimeout(() => done('max_delay'), maxMs);
  };
  const restartQuiet = () => {
    if (quiet) clearTimeout(quiet);
    quiet = setTimeout(() => done('output_settled'), settle.quietMs);
  };
  const lookAtScreen = async () => {
    // One render at a time; output during it asks for another look once quiet again.
    if (finished || answered || looking) return;
    looking = true;
    const seen = chunks;
    let shown = false;
    try {
      shown = scanner!.shownOn(await screen!());
    } catch {
      // No screen to look at: the stream and the cap decide, as without one.
    } finally {
      looking = false;
    }
    if (finished || answered || !shown) return;
    answer();
    // Quiet since the look began: the screen showed the paste at rest.
    if (chunks === seen) done('output_settled');
    else restartQuiet();
  };
  const sub = onOutput((chunk) => {
    chunks += 1;
    if (!answered) {
      if (!scanner!.feed(chunk)) {
        if (screen) {
          if (look) clearTimeout(look);
          look = setTimeout(() => void lookAtScreen(), settle.quietMs);
        }
        return;
      }
      answer();
    }
    restartQuiet();
  });
  function done(how: SubmitWait): void {
    dispose();
    finish(how);
  }
  function dispose(): void {
    finished = true;
    clearTimeout(max);
    if (quiet) clearTimeout(quiet);
    if (look) clearTimeout(look);
    sub[Symbol.dispose]();
  }
  return { settled, [Symbol.dispose]: () => done('max_delay') };
}
