import { closeSync, fstatSync, openSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { decodeLine } from './line-codec.js';
import { FileLineReader } from './line-scan.js';

/** What a strict read of the active file covered: its complete lines up to `end`, all records. */
export interface ActiveScan {
  readonly ino: number;
  readonly end: number;
  readonly lines: number;
}

/** Bytes decoded between two turns of the event loop (~2-3 ms of JSON and schema checks). */
const BYTES_PER_TURN = 128 * 1024;

/**
 * Read the active file strictly before a rotation takes the writer lock, giving the event loop a
 * turn every 128 KiB, so sealing a large active file does not hold the lock (and every
 * append behind it) for the decode of all its records. The file only grows at its end, so under
 * the lock the rotation reads only what was appended since (`scanActiveStrict(files, from)`).
 * Undefined when the file is missing or holds a record that does not decode: the locked pass
 * then reads the whole file and reports the damage with its position.
 */
export async function prescanActive(path: string): Promise<ActiveScan | undefined> {
  let fd: number;
  try {
    fd = openSync(path, 'r'); // our own fd: a read elsewhere may invalidate the shared one meanwhile
  } catch {
    return undefined;
  }
  try {
    const { ino, size } = fstatSync(fd);
    const reader = new FileLineReader(fd, 0, size);
    let lines = 0;
    let sinceTurn = 0;
    for (const line of reader.lines()) {
      lines += 1;
      const text = line.bytes.toString('utf8');
      if (text.trim() !== '' && !decodeLine(text).ok) return undefined;
      sinceTurn += line.len + 1;
      if (sinceTurn >= BYTES_PER_TURN) {
        sinceTurn = 0;
        await yieldToEventLoop();
      }
    }
    return { ino, end: reader.tailStart, lines };
  } finally {
    closeSync(fd);
  }
}
