import { preserializedResponseText } from './preserialized.js';

/**
 * NDJSON framing (§4.2) over a byte stream, with a hard line limit so a peer that never sends a
 * newline cannot make us buffer without bound. Browser-safe: only Uint8Array and TextDecoder.
 */

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

export type DecodedLine =
  | { readonly kind: 'line'; readonly text: string }
  /** The line's bytes were not valid UTF-8; the stream stays usable. */
  | { readonly kind: 'invalid_utf8'; readonly bytes: number }
  /** The current line exceeded the limit; the decoder stops and must not be fed again. */
  | { readonly kind: 'too_long'; readonly limit: number };

export class NdjsonDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private overflowed = false;

  constructor(private readonly maxLineBytes: number) {}

  get pendingBytes(): number {
    return this.buffered;
  }

  /** Hand over the bytes of an unfinished line and stop decoding (a connection upgrade). */
  takeBuffered(): Uint8Array {
    const out = new Uint8Array(this.buffered);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.chunks = [];
    this.buffered = 0;
    this.overflowed = true;
    return out;
  }

  /** Feed bytes; returns every complete line they finish, in order. */
  push(chunk: Uint8Array): DecodedLine[] {
    if (this.overflowed) return [];
    const out: DecodedLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      if (this.buffered + piece.length > this.maxLineBytes) return this.overflow(out);
      out.push(this.finishLine(piece));
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (this.buffered + rest.length > this.maxLineBytes) return this.overflow(out);
    if (rest.length > 0) {
      // Copy: the caller may reuse its buffer.
      this.chunks.push(rest.slice());
      this.buffered += rest.length;
    }
    return out;
  }

  private overflow(out: DecodedLine[]): DecodedLine[] {
    this.overflowed = true;
    this.chunks = [];
    this.buffered = 0;
    out.push({ kind: 'too_long', limit: this.maxLineBytes });
    return out;
  }

  private finishLine(tail: Uint8Array): DecodedLine {
    let bytes = tail;
    if (this.chunks.length > 0) {
      bytes = new Uint8Array(this.buffered + tail.length);
      let at = 0;
      for (const c of this.chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      bytes.set(tail, at);
      this.chunks = [];
      this.buffered = 0;
    }
    // Tolerate CRLF framing from hand-written clients.
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    try {
      return { kind: 'line', text: utf8.decode(bytes) };
    } catch {
      return { kind: 'invalid_utf8', bytes: bytes.length };
    }
  }
}

/** One JSON value as one NDJSON line (JSON.stringify never emits a raw newline). */
export function encodeLine(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value) + '\n');
}

export function encodeLineText(value: unknown): string {
  return (preserializedResponseText(value) ?? JSON.stringify(value)) + '\n';
}
