import { readFileSync } from 'node:fs';
import { FileLock, writeFileAtomicSync } from '@cccc/durable-fs';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A file's text, '' when it does not exist; invalid UTF-8 throws (the file is left as it is). */
export function readTextOrEmpty(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
  return strictUtf8.decode(bytes);
}

/**
 * Read-modify-write of one memory file under its kernel lock (`<file>.lock`, shared with the
 * reference and with any other process): `update` gets the current text and returns the new
 * text (or undefined to write nothing); the write is tmp + fsync + rename + dir fsync, so a
 * crash at any point leaves the old or the new file.
 */
export async function updateLocked<T>(path: string, update: (existing: string) => { text?: string; value: T }): Promise<T> {
  const lock = await FileLock.acquire(`${path}.lock`, 10_000);
  try {
    const { text, value } = update(readTextOrEmpty(path));
    if (text !== undefined) writeFileAtomicSync(path, text);
    return value;
  } finally {
    lock.release();
  }
}
