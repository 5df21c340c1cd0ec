/**
 * A timeout that counts only after pending I/O had one more turn: a starved process can wake up
 * late with its timer and its socket both due, and timers run before I/O callbacks (setImmediate
 * runs after the poll phase). The callback must be a no-op once the wait is settled.
 */
export function graceTimeout(ms: number, onTimeout: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(onTimeout), ms);
}
