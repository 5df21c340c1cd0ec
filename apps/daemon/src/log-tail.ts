import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';

/** Longest stretch of a log file's end that one tail reads. */
export const MAX_TAIL_BYTES = 1024 * 1024;
/** Characters kept of one line; the rest is cut and marked. */
export const MAX_TAIL_LINE_CHARS = 4096;
export const DEFAULT_TAIL_LINES = 200;
export const MAX_TAIL_LINES = 2000;

export interface LogTail {
  readonly lines: string[];
  /** Older lines exist beyond what was read, or a line was cut. */
  readonly truncated: boolean;
}

/** The requested count clamped to 1..MAX_TAIL_LINES (non-positive or absent → the default). */
export function tailLineCount(requested: number | undefined): number {
  if (requested === undefined || requested <= 0) return DEFAULT_TAIL_LINES;
  return Math.min(requested, MAX_TAIL_LINES);
}

/**
 * The last `count` lines of a file, reading at most MAX_TAIL_BYTES from its end, never the whole
 * file; a missing file has no lines. Symlinks are not followed: a log path that became a link
 * is refused by the open (ELOOP) rather than read.
 */
export function tailFile(path: string, count: number): LogTail {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], truncated: false };
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, MAX_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    const parts = buffer.subarray(0, read).toString('utf8').split('\n');
    if (parts.at(-1) === '') parts.pop();
    // A read window that starts mid-file starts mid-line: drop that partial first line.
    let truncated = size > length;
    if (truncated) parts.shift();
    if (parts.length > count) truncated = true;
    const lines = parts.slice(-count).map((line) => {
      if (line.length <= MAX_TAIL_LINE_CHARS) return line;
      truncated = true;
      return `${line.slice(0, MAX_TAIL_LINE_CHARS)}…`;
    });
    return { lines, truncated };
  } finally {
    closeSync(fd);
  }
}
