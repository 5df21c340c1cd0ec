/** Exponential backoff with a cap: attempt 1 waits `baseMs`, each next doubles, never above `maxMs`. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  if (attempt < 1) return 0;
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}
