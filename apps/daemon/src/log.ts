import { appendFileSync } from 'node:fs';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/**
 * JSON lines in `daemon/ccccd.log`. Synchronous appends keep lines whole and ordered even when
 * the process dies right after; the daemon logs lifecycle and failures, not per-request chatter.
 * Callers never pass request payloads here: secrets must not reach the log.
 */
export function fileLogger(path: string, echo?: NodeJS.WritableStream): Logger {
  return {
    log(level, message, fields = {}) {
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

export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.message, stack: error.stack };
  return { error: String(error) };
}
