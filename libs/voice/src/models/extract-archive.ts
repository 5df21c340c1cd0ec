import { createReadStream } from 'node:fs';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ReadEntry } from 'tar';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { unsafeArchiveEntry } from './archive-entry.js';

export type ArchiveFormat = 'tar.gz' | 'tar.bz2';

export interface ExtractOptions {
  /** Names at the top of `dest` no entry may replace (the other artifacts, the installed record). */
  readonly reserved: ReadonlySet<string>;
  /** Bound on the declared sizes of all extracted files (a decompression bomb stops here). */
  readonly maxBytes: number;
}

// tar and the bzip2 decoder load with the first model install, not with every daemon.
const decompressor = async (format: ArchiveFormat): Promise<Transform> => (format === 'tar.gz' ? createGunzip() : (await import('unbzip2-stream')).default());

/**
 * Extract a verified archive artifact into the staging directory with the `tar` package. Every
 * entry passes `unsafeArchiveEntry` first; an unsafe one is never written, and any unsafe entry
 * fails the whole install (`voice_model_archive_unsafe`) — the caller drops staging, so a
 * half-extracted archive is never switched in. Corrupt data is `voice_model_archive_invalid`.
 */
export async function extractArchive(file: string, dest: string, format: ArchiveFormat, options: ExtractOptions): Promise<void> {
  const refused: string[] = [];
  let bytes = 0;
  const { extract } = await import('tar');
  const unpack = extract({
    cwd: dest,
    strict: true,
    preservePaths: false,
    preserveOwner: false,
    noMtime: true,
    filter: (path, entry) => {
      const e = entry as ReadEntry;
      const why = unsafeArchiveEntry(path, e.type, options.reserved);
      if (why) {
        refused.push(`${path}: ${why}`);
        return false;
      }
      bytes += e.size ?? 0;
      if (bytes > options.maxBytes) {
        refused.push(`${path}: the archive passes ${options.maxBytes} bytes`);
        return false;
      }
      return refused.length === 0;
    },
  });
  try {
    await pipeline(createReadStream(file), await decompressor(format), unpack);
  } catch (err) {
    throw voiceError(VoiceErrorCodes.modelArchiveInvalid, `cannot extract ${format} archive: ${(err as Error).message}`);
  }
  if (refused.length > 0) {
    const tooBig = refused.some((r) => r.endsWith(` ${options.maxBytes} bytes`));
    throw voiceError(tooBig ? VoiceErrorCodes.modelArchiveInvalid : VoiceErrorCodes.modelArchiveUnsafe, `archive entries refused: ${refused[0]}`, {
      entries: refused.slice(0, 5),
    });
  }
}
