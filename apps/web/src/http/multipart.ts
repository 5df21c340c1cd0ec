import type { IncomingMessage } from 'node:http';
import { readBody } from './body.js';
import { HttpError } from './errors.js';

/** One upload request: text fields (last value wins) and the file parts, in order. */
export interface MultipartForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly files: ReadonlyArray<{ readonly field: string; readonly name: string; readonly type: string; readonly content: Buffer }>;
}

export interface MultipartLimits {
  /** The whole request body. */
  readonly maxBodyBytes: number;
  readonly maxFiles: number;
  readonly maxFileBytes: number;
}

/**
 * Read a `multipart/form-data` body within `limits` and parse it with the platform's own
 * parser (undici's `Response.formData`). The body is bounded before parsing, so a huge upload
 * is refused with 413 `payload_too_large` without being buffered; then `too_many_files` (400)
 * and `file_too_large` (413, naming the file) are checked before anything is stored.
 */
export async function readMultipart(req: IncomingMessage, limits: MultipartLimits): Promise<MultipartForm> {
  const type = String(req.headers['content-type'] ?? '');
  if (type.split(';')[0]!.trim().toLowerCase() !== 'multipart/form-data') {
    throw new HttpError(415, 'unsupported_media_type', 'uploads must be Content-Type: multipart/form-data');
  }
  const body = await readBody(req, limits.maxBodyBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new HttpError(400, 'invalid_request', 'the multipart body could not be parsed');
  }
  const fields = new Map<string, string>();
  const files: Array<MultipartForm['files'][number]> = [];
  for (const [field, value] of form) {
    if (typeof value === 'string') {
      fields.set(field, value);
      continue;
    }
    if (files.length >= limits.maxFiles) {
      throw new HttpError(400, 'too_many_files', `at most ${limits.maxFiles} files per message`, { limit: limits.maxFiles });
    }
    if (value.size > limits.maxFileBytes) {
      throw new HttpError(413, 'file_too_large', `${value.name || 'a file'} is larger than ${limits.maxFileBytes} bytes`, {
        name: value.name,
        bytes: value.size,
        limit: limits.maxFileBytes,
      });
    }
    files.push({ field, name: value.name, type: value.type, content: Buffer.from(await value.arrayBuffer()) });
  }
  return { fields, files };
}
