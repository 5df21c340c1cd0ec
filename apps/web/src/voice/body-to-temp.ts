import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpError } from '../http/errors.js';

/** HTTP transcription accepts audio up to 100 MiB (spec §8.3). */
export const MAX_AUDIO_BYTES = 100 * 1024 * 1024;

/**
 * Stream a request body into a private temporary file, refusing it (413 audio_too_large) as soon
 * as it passes `maxBytes`, announced or not; the file is removed whatever happens next.
 */
/** An announced body past the bound is refused before anything else is looked at. */
export function refuseDeclaredOversize(req: IncomingMessage, maxBytes: number): void {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw new HttpError(413, 'audio_too_large', `audio payload exceeds ${maxBytes} bytes`, { max_bytes: maxBytes });
  }
}

export async function withBodyInTempFile<T>(req: IncomingMessage, maxBytes: number, use: (bytes: Buffer) => Promise<T>): Promise<T> {
  refuseDeclaredOversize(req, maxBytes);
  const dir = await mkdtemp(join(tmpdir(), 'cccc-voice-'));
  try {
    const path = join(dir, 'audio.bin');
    const out = createWriteStream(path, { mode: 0o600 });
    let bytes = 0;
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          req.resume();
          throw new HttpError(413, 'audio_too_large', `audio payload exceeds ${maxBytes} bytes`, { max_bytes: maxBytes });
        }
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
    } finally {
      out.destroy();
    }
    return await use(await readFile(path));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
