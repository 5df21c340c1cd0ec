import { randomBytes } from 'node:crypto';

let pool = Buffer.alloc(0);
let poolAt = 0;

/**
 * 32 lowercase hex (128 random bits), like the reference's uuid4().hex. Random bytes are drawn
 * in 4 KiB blocks: one randomBytes call per id showed up as the top CPU cost of appends.
 */
export function newEventId(): string {
  if (poolAt + 16 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  const id = pool.toString('hex', poolAt, poolAt + 16);
  poolAt += 16;
  return id;
}

export const EVENT_ID_RE = /^[0-9a-f]{32}$/;

let lastMicros = 0;

/**
 * RFC3339 UTC with exactly six fraction digits and `Z`. A JS Date only has milliseconds, so the
 * microseconds come from a process-monotonic counter that never repeats a value: timestamps
 * are informational (append order decides), but strictly increasing ones read better in logs.
 * An injected clock is used as-is (micros 000) so tests stay deterministic.
 */
export function formatTs(date: Date, injected: boolean): string {
  let micros = date.getTime() * 1000;
  if (!injected) {
    if (micros <= lastMicros) micros = lastMicros + 1;
    lastMicros = micros;
  }
  const second = Math.floor(micros / 1_000_000);
  if (second !== prefixSecond) {
    // Every append of the same second shares its date part: built once per second, not per event.
    prefixSecond = second;
    prefix = new Date(second * 1000).toISOString().slice(0, 19); // 2026-11-30T08:42:36
  }
  const frac = String(micros - second * 1_000_000).padStart(6, '0');
  return `${prefix}.${frac}Z`;
}

let prefixSecond = Number.NaN;
let prefix = '';

export const TS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
