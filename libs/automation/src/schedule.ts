import { Cron } from 'croner';
import type { AutomationTrigger } from '@cccc/ipc-protocol';
import { parseRfc3339 } from './time.js';

// Next-fire arithmetic for the three trigger kinds. Cron is croner's (five fields, minute
// granularity, IANA time zones, DST handled by the library).

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A compiled five-field cron in a time zone (default UTC); throws with a readable message. */
export function compileCron(expr: string, timezone = 'UTC'): Cron {
  if (expr.trim().split(/\s+/).length !== 5) throw new Error(`cron must have five fields (minute hour day-of-month month day-of-week): ${expr}`);
  if (!isValidTimeZone(timezone)) throw new Error(`unknown time zone: ${timezone}`);
  return new Cron(expr.trim(), { timezone, mode: '5-part', paused: true });
}

/** The first cron occurrence strictly after `afterMs`. */
export function cronNextAfter(cron: Cron, afterMs: number): number | undefined {
  return cron.nextRun(new Date(afterMs))?.getTime();
}

/** The latest cron occurrence in (afterMs, nowMs], if any: one slot, never a backlog. */
export function cronLatestDue(cron: Cron, afterMs: number, nowMs: number): number | undefined {
  let next = cronNextAfter(cron, afterMs);
  if (next === undefined || next > nowMs) return undefined;
  // Walk forward to the newest due slot; bounded (rebasing keeps the gap short).
  for (let i = 0; i < 100_000; i++) {
    const following = cronNextAfter(cron, next);
    if (following === undefined || following > nowMs) return next;
    next = following;
  }
  return next;
}

/** The newest interval slot at or before `nowMs` on the clock `anchorMs + k·every`. */
export function intervalLatestSlot(anchorMs: number, everySeconds: number, nowMs: number): number {
  const every = everySeconds * 1000;
  return anchorMs + Math.floor((nowMs - anchorMs) / every) * every;
}

/** Trigger problems a stored rule must not have (used by validation and by the engine). */
export function triggerProblem(trigger: AutomationTrigger): string | undefined {
  if (trigger.kind === 'cron') {
    try {
      compileCron(trigger.cron, trigger.timezone);
    } catch (error) {
      return `invalid cron trigger: ${(error as Error).message}`;
    }
  }
  if (trigger.kind === 'at' && parseRfc3339(trigger.at) === undefined) return `invalid at trigger: expected an RFC 3339 timestamp, got ${trigger.at}`;
  return undefined;
}
