/**
 * The automation scheduler's clock: real time, unless a test pins it (`set`) to drive every
 * rule deterministically through a real daemon.
 */
export class AutomationClock {
  private pinned: number | undefined;

  now(): number {
    return this.pinned ?? Date.now();
  }

  /** Pin the clock (ms since the epoch); `undefined` returns to real time. */
  set(ms: number | undefined): void {
    this.pinned = ms;
  }

  advance(ms: number): void {
    this.pinned = this.now() + ms;
  }
}
