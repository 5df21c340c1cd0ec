import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkedBytes } from './chunked-bytes.js';
import { parseMultipart, type MultipartEntry } from './multipart-parser.js';

/** Cut `bytes` at the given points (the chunks a socket might deliver). */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.subarray(prev, c));
    prev = c;
  }
  return out;
}

/** The body and Content-Type the platform (undici, as browsers do) writes for a FormData. */
async function encode(form: FormData): Promise<{ bytes: Buffer; type: string }> {
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { bytes: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

type Plain = { kind: 'field'; name: string; value: string } | { kind: 'file'; name: string; filename: string; type: string; hex: string };

async function platformParse(bytes: Buffer, type: string): Promise<Plain[]> {
  const form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
  const out: Plain[] = [];
  for (const [name, value] of form) {
    if (typeof value === 'string') out.push({ kind: 'field', name, value });
    else out.push({ kind: 'file', name, filename: value.name, type: value.type, hex: Buffer.from(await value.arrayBuffer()).toString('hex') });
  }
  return out;
}

const plain = (entries: MultipartEntry[]): Plain[] =>
  entries.map((e) => (e.kind === 'field' ? e : { kind: 'file', name: e.name, filename: e.filename, type: e.type, hex: Buffer.concat(e.content).toString('hex') }));

const boundaryOf = (type: string) => /boundary=(.+)$/.exec(type)![1]!;

// Names and values with what encoders escape or parsers trip on: quotes, line breaks, %, BOM.
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'Z', 'é', '"', '\n', '\r', '%', '2', '0', 'A', 'D', ';', '=', '\\', '\u{1F600}', '\uFEFF', ' ', '\t'), maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
// Contents that look like delimiters, line breaks and header blocks, and random bytes.
const content = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.array(fc.constantFrom('\r\n', '--', '\r\n--', '\r\n\r\n', 'Content-Disposition: form-data; name="x"', 'a', '%22'), { maxLength: 30 }).map((xs) => new TextEncoder().encode(xs.join(''))),
);
const entry = fc.oneof(
  fc.record({ kind: fc.constant('field' as const), name: text, value: fc.oneof(text, content.map((b) => Buffer.from(b).toString('latin1'))) }),
  fc.record({ kind: fc.constant('file' as const), name: text, filename: text, type: fc.constantFrom('', 'text/plain', 'application/octet-stream', 'Image/PNG', 'text/x;charset=utf-8'), bytes: content }),
);

describe('parseMultipart', () => {
  it('reads what the platform writes exactly as the platform reads it, however the body is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), async (entries, cuts) => {
        const form = new FormData();
        for (const e of entries) {
          if (e.kind === 'field') form.append(e.name, e.value);
          else form.append(e.name, new Blob([e.bytes], { type: e.type }), e.filename);
        }
        const { bytes, type } = await encode(form);
        const ours = parseMultipart(new ChunkedBytes(split(bytes, cuts)), boundaryOf(type));
        expect(ours).not.toBeNull();
        expect(plain(ours!)).toEqual(await platformParse(bytes, type));
      }),
      // A counterexample fast-check found once: two leading BOMs (the platform drops both).
      { numRuns: 300, examples: [[[{ kind: 'field', name: '', value: '\uFEFF\uFEFF' }], []]] },
    );
  });

  it('files are views of the body chunks: no byte is copied', async () => {
    const form = new FormData();
    form.append('text', 'hello');
    form.append('files', new Blob([Buffer.alloc(200_000, 7)]), 'big.bin');
    const { bytes, type } = await encode(form);
    const chunks = split(bytes, [1000, 65_536, 131_072]).map((c) => Buffer.from(c)); // separate allocations
    const [field, file] = parseMultipart(new ChunkedBytes(chunks), boundaryOf(type))!;
    expect(field).toEqual({ kind: 'field', name: 'text', value: 'hello' });
    if (file?.kind !== 'file') throw new Error('expected a file');
    expect(file.size).toBe(200_000);
    const owners = new Set<ArrayBufferLike>(chunks.map((c) => c.buffer));
    expect(file.content.length).toBeGreaterThan(1);
    for (const view of file.content) expect(owners.has(view.buffer)).toBe(true);
  });

  it('reads hand-written bodies with the quirks of other clients as the platform does', async () => {
    const B = 'b0undary-with-enough-characters-xyz';
    const part = (headers: string, body: string) => `--${B}\r\n${headers}\r\n\r\n${body}\r\n`;
    const bodies = [
      part('Content-Disposition: form-data; name="f"; filename="a.png"\r\nContent-Type: Image/PNG', 'x'),
      part('content-disposition: form-data; name="f"; filename*="b.txt"', 'no type'),
      part('Content-Disposition: form-data; name="f"; filename="c"\r\nContent-Type: t\u00e9xt/plain', 'non-ascii type'),
      part('Content-Disposition: form-data; name="v"', '\uFEFFbom first'),
      part('Content-Disposition: form-data; name="n%22q%0Aline%0d"', 'escapes'),
      part('Content-Disposition: form-data; name="f"; filename="d.bin"\r\nContent-Transfer-Encoding: base64', 'aGVsbG8='),
      part('Content-Disposition: form-data; name="x"\r\nX-Other: ignored', 'other header'),
    ];
    for (const b of bodies) {
      const bytes = Buffer.from(`\r\n${b}--${B}--\r\n\r\n`);
      const type = `multipart/form-data; boundary=${B}`;
      expect(plain(parseMultipart(new ChunkedBytes([bytes]), B)!)).toEqual(await platformParse(bytes, type));
    }
  });

  it('refuses malformed bodies', () => {
    const parse = (s: string) => parseMultipart(new ChunkedBytes([Buffer.from(s)]), 'b0undary');
    expect(parse('')).toBeNull();
    expect(parse('--other\r\n')).toBeNull();
    expect(parse('--b0undary\r\nContent-Disposition: form-data; name="a"\r\n\r\nno closing delimiter')).toBeNull();
    expect(parse('--b0undary\r\nContent-Type: text/plain\r\n\r\nx\r\n--b0undary--')).toBeNull(); // no name
    expect(parse('--b0undary\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--b0undary--')).toBeNull();
    expect(parse('--b0undary\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b0undary--')).toEqual([{ kind: 'field', name: 'a', value: 'x' }]);
  });
});

describe('ChunkedBytes.indexOf', () => {
  it('finds what Buffer.indexOf finds, across chunk boundaries', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b).map((x) => x % 3)), fc.uint8Array({ minLength: 1, maxLength: 5 }).map((b) => Buffer.from(b).map((x) => x % 3)), fc.array(fc.nat(), { maxLength: 10 }), fc.nat(), (bytes, needle, cuts, from) => {
        const whole = Buffer.from(bytes);
        const start = from % (whole.length + 1);
        expect(new ChunkedBytes(split(whole, cuts)).indexOf(Buffer.from(needle), start)).toBe(whole.indexOf(Buffer.from(needle), start));
      }),
      { numRuns: 2000 },
    );
  });
});
