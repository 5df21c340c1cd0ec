// A timer promise without node:timers/promises: the lock back-off is the only sleeper here, and a
// process that imports this package and takes no lock (a `cccc` command) skips loading it.
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
