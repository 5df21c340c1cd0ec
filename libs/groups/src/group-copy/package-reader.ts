import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { IpcError } from '@cccc/ipc-protocol';
import { invalidGroupCopy } from './errors.js';
import { GROUP_PREFIX, MANIFEST_ENTRY, unsafeEntryName } from './manifest.js';

// Reads a copy package with yauzl, one entry at a time, refusing hostile content before any
// byte of it is used: unsafe names (absolute, traversal, backslash, stray top-level entries),
// symlinks, duplicates, encrypted entries, oversized entries, implausible compression ratios
// (zip bombs) and entries that inflate beyond what their header declares.

export interface PackageLimits {
  /** Bytes of the zip file itself. */
  readonly maxPackageBytes: number;
  readonly maxEntries: number;
  /** Uncompressed bytes of one entry. */
  readonly maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. */
  readonly maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio accepted for an entry above 1 MiB. */
  readonly maxRatio: number;
}

const MiB = 1024 * 1024;
/** The base64 path: the package has to fit a 4 MB response line. */
export const SMALL_PACKAGE_LIMITS: PackageLimits = { maxPackageBytes: 2 * MiB + 512 * 1024, maxEntries: 20_000, maxEntryBytes: 64 * MiB, maxTotalBytes: 128 * MiB, maxRatio: 200 };
/** The package_path path (export_file / large local flows). */
export const LARGE_PACKAGE_LIMITS: PackageLimits = { maxPackageBytes: 1024 * MiB, maxEntries: 100_000, maxEntryBytes: 512 * MiB, maxTotalBytes: 2048 * MiB, maxRatio: 200 };

export type PackageSource = { readonly buffer: Buffer } | { readonly path: string };

export interface ScannedEntry {
  readonly name: string;
  readonly size: number;
}

/** Consume one entry's bytes (the stream must be read to its end). */
export type EntryVisitor = (entry: ScannedEntry, data: Readable) => Promise<void>;

export interface ScanResult {
  readonly names: readonly string[];
  /** `sha256:` over the sorted `group/` entries' names and content hashes. */
  readonly contentDigest: string;
  readonly totalBytes: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function openZip(source: PackageSource): Promise<ZipFile> {
  const options = { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: true, decodeStrings: true };
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: ZipFile) => (err || !zip ? reject(mapZipError(err)) : resolve(zip));
    if ('buffer' in source) yauzl.fromBuffer(source.buffer, options, done);
    else yauzl.open(source.path, options, done);
  });
}

function mapZipError(err: Error | null | undefined): IpcError {
  if (err instanceof IpcError) return err;
  const message = err?.message ?? 'unreadable zip';
  const reason = /absolute path/i.test(message)
    ? 'absolute_path'
    : /invalid relative path/i.test(message)
      ? 'path_traversal'
      : /invalid characters/i.test(message)
        ? 'backslash'
        : /too many bytes|too few bytes|uncompressed size/i.test(message)
          ? 'entry_size_mismatch'
          : /encrypt/i.test(message)
            ? 'encrypted_entry'
            : 'not_a_zip';
  return invalidGroupCopy(reason, `not a valid group copy package: ${message}`);
}

/** Why an entry's header makes it unacceptable, or undefined. */
export function entryHeaderProblem(entry: Pick<Entry, 'externalFileAttributes' | 'uncompressedSize' | 'compressedSize' | 'generalPurposeBitFlag'>, limits: PackageLimits): string | undefined {
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (mode === S_IFLNK) return 'symlink_entry';
  if (mode !== 0 && mode !== S_IFREG && mode !== S_IFDIR) return 'special_file_entry';
  if ((entry.generalPurposeBitFlag & 0x1) !== 0) return 'encrypted_entry';
  if (entry.uncompressedSize > limits.maxEntryBytes) return 'entry_too_large';
  if (entry.uncompressedSize > MiB && entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio) return 'zip_bomb';
  return undefined;
}

/**
 * Walk every entry of a package, validating as it goes, and hand each regular file's bytes to
 * `visit`. Any rule broken rejects with `invalid_group_copy` (details.reason) and stops reading.
 */
export async function scanPackage(source: PackageSource, limits: PackageLimits, visit: EntryVisitor): Promise<ScanResult> {
  if ('buffer' in source && source.buffer.length > limits.maxPackageBytes) {
    throw invalidGroupCopy('package_too_large', `package is ${source.buffer.length} bytes; the limit is ${limits.maxPackageBytes}`);
  }
  const zip = await openZip(source);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw invalidGroupCopy('too_many_entries', `package has ${zip.entryCount} entries; the limit is ${limits.maxEntries}`);
  }
  const names = new Set<string>();
  const hashes = new Map<string, string>();
  let totalBytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(err instanceof IpcError ? err : mapZipError(err as Error));
      };
      zip.on('error', fail);
      zip.on('end', () => {
        if (!failed) resolve();
      });
      zip.on('entry', (entry: Entry) => {
        void (async () => {
          const name = entry.fileName;
          const unsafe = unsafeEntryName(name);
          if (unsafe) throw invalidGroupCopy(unsafe, `unsafe entry name in package: ${JSON.stringify(name)}`, { entry: name });
          const key = name.replace(/\/$/, '');
          if (names.has(key)) throw invalidGroupCopy('duplicate_entry', `duplicate entry in package: ${name}`, { entry: name });
          names.add(key);
          const problem = entryHeaderProblem(entry, limits);
          if (problem) throw invalidGroupCopy(problem, `refused entry ${name}: ${problem}`, { entry: name, size: entry.uncompressedSize });
          if (name.endsWith('/')) {
            zip.readEntry();
            return;
          }
          totalBytes += entry.uncompressedSize;
          if (totalBytes > limits.maxTotalBytes) throw invalidGroupCopy('package_too_large', `package inflates beyond ${limits.maxTotalBytes} bytes`);
          const stream = await new Promise<Readable>((res, rej) => zip.openReadStream(entry, (err, s) => (err || !s ? rej(mapZipError(err)) : res(s))));
          const hash = createHash('sha256');
          let seen = 0;
          const counted = stream.pipe(
            new Transform({
              transform(chunk: Buffer, _enc, cb) {
                seen += chunk.length;
                if (seen > entry.uncompressedSize) {
                  cb(invalidGroupCopy('entry_size_mismatch', `entry ${name} inflates beyond its declared size`, { entry: name }));
                  return;
                }
                hash.update(chunk);
                cb(null, chunk);
              },
            }),
          );
          stream.on('error', (err) => counted.destroy(mapZipError(err)));
          await visit({ name, size: entry.uncompressedSize }, counted);
          if (name.startsWith(GROUP_PREFIX)) hashes.set(name, hash.digest('hex'));
          else if (name !== MANIFEST_ENTRY) throw invalidGroupCopy('unexpected_entry', `unexpected entry ${name}`);
          zip.readEntry();
        })().catch(fail);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { names: [...names], contentDigest: digestOf(hashes), totalBytes };
}

/** The content digest of a set of `group/` entries: sha256 over `name\0hexhash\n`, names sorted. */
export function digestOf(hashes: ReadonlyMap<string, string>): string {
  const h = createHash('sha256');
  for (const name of [...hashes.keys()].sort()) h.update(`${name}\0${hashes.get(name)}\n`);
  return `sha256:${h.digest('hex')}`;
}

/** Collect a stream into memory, refusing more than `max` bytes. */
export async function readAll(stream: Readable, max: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      throw invalidGroupCopy('entry_too_large', `${name} is larger than ${max} bytes`, { entry: name });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Read a stream to its end, keeping nothing. */
export async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream) {
    // the scanner hashes and counts as the bytes pass
  }
}
