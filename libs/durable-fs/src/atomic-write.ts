import { closeSync, fsyncSync, mkdirSync, openSync, promises as fsp, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// The promise API is reached through fs's lazy `promises` getter rather than an import of
// node:fs/promises, which loads node's readline and fs watcher modules with it: a process that
// imports this package and only reads (a `cccc` command) never loads them.

// The suffix comes from Web Crypto's global rather than an import of node:crypto: the global
// loads at the first write, so a process that imports this package and only reads (a `cccc`
// command) does not load node's crypto module (~5 ms of its start-up).
function tmpPathFor(path: string): string {
  const suffix = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex');
  return join(dirname(path), `.${basename(path)}.${process.pid}.${suffix}.tmp`);
}

/** fsync a directory so a rename or create inside it survives a crash. */
export function fsyncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Write `data` to the fresh file `fd` opened at `path`, fsync and close it; on failure remove the file. */
function writeDurablyOrRemove(fd: number, path: string, data: string | Uint8Array): void {
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      /* already gone */
    }
    throw err;
  }
  closeSync(fd);
}

/**
 * Create `path` with `data` and make both durable (file fsync, then directory fsync), for a file
 * that normally does not exist: cheaper than tmp + rename by one file creation and a rename.
 * Returns false, writing nothing, when the file already exists. A crash mid-write can leave a
 * torn file, so readers must treat an unparseable one as never written.
 */
export function createFileDurablySync(path: string, data: string | Uint8Array, mode = 0o644): boolean {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx', mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  writeDurablyOrRemove(fd, path, data);
  fsyncDirSync(dirname(path));
  return true;
}

/**
 * `createFileDurablySync` with every step on libuv's thread pool (open, write, fsync, directory
 * fsync): the caller's event loop keeps turning while the disk syncs. Resolves only once the
 * file and its directory entry are durable.
 */
export async function createFileDurably(path: string, data: string | Uint8Array, mode = 0o644): Promise<boolean> {
  await fsp.mkdir(dirname(path), { recursive: true });
  let handle;
  try {
    handle = await fsp.open(path, 'wx', mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fsp.unlink(path).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await fsyncDir(dirname(path));
  return true;
}

/** tmp + fsync + rename + dir fsync: readers see the old or the new content, never a mix. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tmpPathFor(path);
  writeDurablyOrRemove(openSync(tmp, 'w', mode), tmp, data);
  renameSync(tmp, path);
  fsyncDirSync(dirname(path));
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  await replaceFile(path, data, mode);
  await fsyncDir(dirname(path));
}

/**
 * `writeFileAtomic` without its last step: tmp + fsync + rename, so readers see the old or the
 * new content, never a mix, and the new content is on disk; the rename itself is durable only
 * once the caller fsyncs the directory (`fsyncDir`), which it may do later, beside other syncs.
 */
export async function replaceFile(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  await fsp.mkdir(dirname(path), { recursive: true });
  const tmp = tmpPathFor(path);
  const handle = await fsp.open(tmp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fsp.unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await fsp.rename(tmp, path);
}
