import type { IncomingMessage } from 'node:http';
import { readBodyChunks } from './body.js';
import { ChunkedBytes } from './chunked-bytes.js';
import { HttpError } from './errors.js';
import { parseMultipart } from './multipart-parser.js';

/** An uploaded file: its bytes are views of the request body's chunks, never one copied buffer. */
export interface MultipartFile {
  readonly field: string;
  readonly name: string;
  readonly type: string;
  readonly content: readonly Buffer[];
  readonly size: number;
}

/** One upload request: text fields (last value wins) and the file parts, in order. */
export interface MultipartForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly files: ReadonlyArray<MultipartFile>;
}

export interface MultipartLimits {
  /** The whole request body. */
  readonly maxBodyBytes: number;
  readonly maxFiles: number;
  readonly maxFileBytes: number;
}

/** The `boundary` parameter of a multipart Content-Type (quoted or not). */
function boundaryOf(type: string): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(type);
  const b = m?.[1] ?? m?.[2];
  return b ? b : undefined;
}

/**
 * Read a `multipart/form-data` body within `limits` and parse it in place (`parseMultipart`, held
 * to the platform parser's rules by a property test). The body is bounded before parsing, so a
 * huge upload is refused with 413 `payload_too_large` without being buffered; then
 * `too_many_files` (400) and `file_too_large` (413, naming the file) are checked before anything
 * is stored. The body stays in the chunks it arrived in and files are views of them: one upload
 * holds its body once (it was copied four times: joined, parsed into a Blob, read back, wrapped).
 */
export async function readMultipart(req: IncomingMessage, limits: MultipartLimits): Promise<MultipartForm> {
  const type = String(req.headers['content-type'] ?? '');
  if (type.split(';')[0]!.trim().toLowerCase() !== 'multipart/form-data') {
    throw new HttpError(415, 'unsupported_media_type', 'uploads must be Content-Type: multipart/form-data');
  }
  const chunks = await readBodyChunks(req, limits.maxBodyBytes);
  const boundary = boundaryOf(type);
  const entries = boundary ? parseMultipart(new ChunkedBytes(chunks), boundary) : null;
  if (!entries) throw new HttpError(400, 'invalid_request', 'the multipart body could not be parsed');
  const fields = new Map<string, string>();
  const files: MultipartFile[] = [];
  for (const entry of entries) {
    if (entry.kind === 'field') {
      fields.set(entry.name, entry.value);
      continue;
    }
    if (files.length >= limits.maxFiles) {
      throw new HttpError(400, 'too_many_files', `at most ${limits.maxFiles} files per message`, { limit: limits.maxFiles });
    }
    if (entry.size > limits.maxFileBytes) {
      throw new HttpError(413, 'file_too_large', `${entry.filename || 'a file'} is larger than ${limits.maxFileBytes} bytes`, {
        name: entry.filename,
        bytes: entry.size,
        limit: limits.maxFileBytes,
      });
    }
    files.push({ field: entry.name, name: entry.filename, type: entry.type, content: entry.content, size: entry.size });
  }
  return { fields, files };
}
