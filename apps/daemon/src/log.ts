import { appendFileSync } from 'node:fs';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** The lowest level written, changed at run time by `observability_update` (`log_level`). */
export class LogThreshold {
  constructor(private level: LogLevel = 'debug') {}
  get current(): LogLevel {
    return this.level;
  }
  set(level: LogLevel): void {
    this.level = level;
  }
  /** The observability setting's names (`DEBUG`, `INFO`, `WARNING`, `ERROR`, `CRITICAL`). */
  setFromName(name: string): void {
    this.level = ({ DEBUG: 'debug', INFO: 'info', WARNING: 'warn', ERROR: 'error', CRITICAL: 'error' } as const)[name as 'INFO'] ?? 'info';
  }
  allows(level: LogLevel): boolean {
    return RANK[level] >= RANK[this.level];
  }
}

/**
 * JSON lines in `daemon/ccccd.log`. Synchronous appends keep lines whole and ordered even when
 * the process dies right after; the daemon logs lifecycle and failures, not per-request chatter.
 * Callers never pass request payloads here: secrets must not reach the log.
 */
export function fileLogger(path: string, echo?: NodeJS.WritableStream, threshold?: LogThreshold): Logger {
  return {
    log(level, message, fields = {}) {
      if (threshold && !threshold.allows(level)) return;
      const line = JSON.stringify({ ts: new Date().toISOString(), level, pid: process.pid, message, ...fields }) + '\n';
      try {
        appendFileSync(path, line, { mode: 0o600 });
      } catch {
        // Logging is best-effort: a full disk must not take the daemon down.
      }
      echo?.write(line);
    },
  };
}

/** How many `cause` links a log line follows (a cycle or a deep chain must not grow a line). */
const MAX_CAUSE_DEPTH = 5;

/**
 * Log fields of an error, with its `cause` chain: an internal error keeps its cause in the log,
 * the only place it goes (responses say `internal_error` and nothing more).
 */
export function errorFields(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const fields: Record<string, unknown> = { error: error.message, stack: error.stack };
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) fields['cause'] = errorFields(error.cause, depth + 1);
  return fields;
}
