/**
 * UTC RFC3339 with microseconds and `Z`, the shape the reference writes into group.yaml and
 * registry.json (`2026-11-30T08:42:36.696119Z`). JS clocks give milliseconds, padded to micros.
 */
export function utcNowIso(now: Date = new Date()): string {
  return now.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
