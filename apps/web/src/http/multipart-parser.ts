import type { ChunkedBytes } from './chunked-bytes.js';

/** One part of a multipart/form-data body: a text field, or a file whose bytes stay in the body's chunks. */
export type MultipartEntry =
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  | { readonly kind: 'file'; readonly name: string; readonly filename: string; readonly type: string; readonly content: readonly Buffer[]; readonly size: number };

const CRLF = Buffer.from('\r\n');
const CRLFCRLF = Buffer.from('\r\n\r\n');
const DASHES = Buffer.from('--');
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Names are decoded as the platform does: UTF-8, with the %0A / %0D / %22 escapes browsers write. */
/**
 * A field's value as the platform's FormData reads it (undici's UTF-8 decode): one leading BOM is
 * dropped before decoding, and the decoder drops a second one.
 */
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const decodeFieldValue = (bytes: Buffer) =>
  new TextDecoder().decode(UTF8_BOM.every((b, i) => bytes[i] === b) ? bytes.subarray(3) : bytes);

const decodeName = (bytes: Buffer) => new TextDecoder().decode(bytes).replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%22/g, '"');

interface PartHeaders {
  name: string;
  filename: string | null;
  type: string | null;
  base64: boolean;
}

/** `name="..."` (or `filename="..."` / `filename*="..."`) at `at`: the value and where it ended. */
function quoted(line: Buffer, at: number): { value: string; end: number } | null {
  const close = line.indexOf(0x22, at);
  if (close < 0) return null;
  const raw = line.subarray(at, close);
  if (raw.includes(0x0a) || raw.includes(0x0d)) return null;
  return { value: decodeName(raw), end: close + 1 };
}

function parseHeaders(block: Buffer): PartHeaders | null {
  const out: PartHeaders = { name: '', filename: null, type: null, base64: false };
  let named = false;
  for (let start = 0; start <= block.length; ) {
    let end = block.indexOf(CRLF, start);
    if (end < 0) end = block.length;
    const line = block.subarray(start, end);
    start = end + 2;
    const colon = line.indexOf(0x3a);
    if (colon < 0) return null;
    const header = line.subarray(0, colon).toString('latin1').trim();
    if (!TOKEN.test(header)) return null;
    let v = colon + 1;
    while (line[v] === 0x20 || line[v] === 0x09) v++;
    const value = line.subarray(v);
    switch (header.toLowerCase()) {
      case 'content-disposition': {
        const prefix = Buffer.from('form-data; name="');
        if (!value.subarray(0, prefix.length).equals(prefix)) return null;
        const name = quoted(value, prefix.length);
        if (!name) return null;
        out.name = name.value;
        out.filename = null;
        named = true;
        const rest = value.subarray(name.end).toString('latin1');
        const fn = /^; filename\*?="/.exec(rest);
        if (fn) {
          const filename = quoted(value, name.end + fn[0].length);
          if (!filename) return null;
          out.filename = filename.value;
        }
        break;
      }
      case 'content-type':
        out.type = value.toString('latin1').replace(/[\t ]+$/, '');
        break;
      case 'content-transfer-encoding':
        out.base64 = value.toString('latin1').trim().toLowerCase() === 'base64';
        break;
      default:
        break;
    }
  }
  return named ? out : null;
}

/**
 * Parse a multipart/form-data body (RFC 7578) in place: text fields are decoded, files are
 * views of the body's chunks (never copied). The same rules as the platform's parser (undici's
 * `Response.formData`, held against it by a property test): leading and trailing CRLFs are
 * ignored, a part needs `Content-Disposition: form-data; name="..."`, a file without a type is
 * `text/plain`. Null when the body is malformed.
 */
export function parseMultipart(body: ChunkedBytes, boundary: string): MultipartEntry[] | null {
  const dash = Buffer.from(`--${boundary}`, 'utf8');
  const delimiter = Buffer.concat([CRLF, dash]);
  let end = body.length;
  while (end >= 2 && body.byteAt(end - 2) === 0x0d && body.byteAt(end - 1) === 0x0a) end -= 2;
  let pos = 0;
  while (body.byteAt(pos) === 0x0d && body.byteAt(pos + 1) === 0x0a) pos += 2;
  if (!body.startsWith(dash, pos)) return null;
  pos += dash.length;
  const entries: MultipartEntry[] = [];
  for (;;) {
    if (pos === end - 2 && body.startsWith(DASHES, pos)) return entries;
    if (!body.startsWith(CRLF, pos)) return null;
    pos += 2;
    const headersEnd = body.indexOf(CRLFCRLF, pos);
    if (headersEnd < 0 || headersEnd >= end) return null;
    const headers = parseHeaders(body.copy(pos, headersEnd));
    if (!headers) return null;
    const contentStart = headersEnd + 4;
    const next = body.indexOf(delimiter, contentStart);
    if (next < 0 || next >= end) return null;
    pos = next + delimiter.length;
    let content = body.views(contentStart, next);
    if (headers.base64) content = [Buffer.from(Buffer.concat(content).toString('latin1'), 'base64')];
    if (headers.filename === null) {
      entries.push({ kind: 'field', name: headers.name, value: decodeFieldValue(Buffer.concat(content)) });
    } else {
      const type = headers.type ?? 'text/plain';
      entries.push({
        kind: 'file',
        name: headers.name,
        filename: headers.filename,
        // The platform lowercases a File's type and drops one that is not printable ASCII.
        type: /^[\x20-\x7e]*$/.test(type) ? type.toLowerCase() : '',
        content,
        size: content.reduce((n, c) => n + c.length, 0),
      });
    }
  }
}
