import { closeSync, fstatSync, openSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { decodeLine } from './line-codec.js';
import { FileLineReader } from './line-scan.js';
import { MaintenanceThread } from './maintenance-thread.js';

/** What a strict read of the active file covered: its complete lines up to `end`, all records. */
export interface ActiveScan {
  readonly ino: number;
  readonly end: number;
  readonly lines: number;
}

/**
 * Bytes decoded between two turns of the event loop (~0.3 ms of JSON and schema checks): an
 * append in flight needs several turns (its sync's completion, the acknowledgement, the next
 * batch), and each waits for the chunk in progress.
 */
const BYTES_PER_TURN = 16 * 1024;

/**
 * Read the active file strictly before a rotation takes the writer lock. The file only grows at
 * its end, so under the lock the rotation reads only what was appended since
 * (`scanActiveStrict(files, from)`). Undefined when the file is missing or holds a record that
 * does not decode: the locked pass then reads the whole file and reports the damage with its
 * position.
 *
 * The decode runs on the maintenance thread (active-prescan-scan.js, the same envelope check as
 * `decodeLine`): its CPU and garbage stay off the thread that serves requests and acknowledges
 * appends. Where no worker can run, it runs here in small turns of the event loop.
 */
export async function prescanActive(path: string): Promise<ActiveScan | undefined> {
  try {
    return await prescanOnWorker(path);
  } catch {
    return await prescanOnLoop(path);
  }
}

/** The read on the maintenance thread (exported for the tests that hold it to `prescanOnLoop`). */
export async function prescanOnWorker(path: string): Promise<ActiveScan | undefined> {
  return (await MaintenanceThread.shared().run({ kind: 'prescan', path })) ?? undefined;
}

/** The same read on this thread, giving the event loop a turn every 16 KiB. */
export async function prescanOnLoop(path: string): Promise<ActiveScan | undefined> {
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
