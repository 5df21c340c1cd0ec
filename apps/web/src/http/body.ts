import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { HttpError } from './errors.js';
import { parseJsonText } from './json-text.js';

/** JSON bodies are small control requests (uploads have their own limit). */
export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;

/**
 * How much of an oversized body is still read (and dropped) before answering 413: a client that
 * is still sending when the server answers and closes sees a reset instead of the 413. Beyond
 * this the connection is cut.
 */
const MAX_DRAIN_BYTES = 128 * 1024 * 1024;

/** Read the raw body, refusing more than `limit` bytes with 413 payload_too_large. */
export async function readBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<Buffer> {
  return Buffer.concat(await readBodyChunks(req, limit));
}

/** The raw body as the chunks it arrived in (no copy into one buffer), within `limit` like `readBody`. */
export async function readBodyChunks(req: IncomingMessage, limit: number): Promise<Buffer[]> {
  const tooLarge = () => new HttpError(413, 'payload_too_large', `request body exceeds ${limit} bytes`, { limit });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit + MAX_DRAIN_BYTES) {
    req.resume();
    throw tooLarge();
  }
  let over = Number.isFinite(declared) && declared > limit;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) over = true;
    if (!over) chunks.push(chunk as Buffer);
    else if (size > limit + MAX_DRAIN_BYTES) {
      req.destroy();
      break;
    }
  }
  if (over) throw tooLarge();
  return chunks;
}

/** Parse a JSON body with a zod schema: empty body = `{}`, bad JSON or shape = 400 invalid_request. */
export async function parseJsonBody<S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.infer<S>> {
  return parseWith(schema, await readJson(req), 'body');
}

/** A JSON body as a value still to be parsed: empty body = `{}`, bad JSON = 400 invalid_request. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  let value: unknown = {};
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (raw.length > 0 && type !== 'application/json') {
    // Only JSON: a cross-site page can send text/plain or form bodies without a CORS preflight.
    throw new HttpError(415, 'unsupported_media_type', 'request bodies must be Content-Type: application/json');
  }
  if (raw.length > 0) value = parseJsonText(raw.toString('utf8'), 'request body');
  return value;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new HttpError(400, 'invalid_request', `invalid ${where}${field ? ` field ${field}` : ''}: ${issue?.message ?? 'invalid'}`, {
      field,
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  return parsed.data;
}

/** Query helpers. */
export function queryInt(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new HttpError(400, 'invalid_request', `query ${name} must be a non-negative integer`, { field: name });
  return n;
}

export function queryBool(url: URL, name: string): boolean | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new HttpError(400, 'invalid_request', `query ${name} must be true or false`, { field: name });
}

/** Repeated or comma-separated values (`?kind=a&kind=b` or `?kinds=a,b`). */
export function queryList(url: URL, ...names: string[]): string[] | undefined {
  const values = names.flatMap((n) => url.searchParams.getAll(n)).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return values.length > 0 ? values : undefined;
}
