import { describe, expect, it } from 'vitest';
import { NdjsonDecoder, encodeLine } from './codec.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('NdjsonDecoder', () => {
  it('joins a line split across chunks, including inside a multibyte code point', () => {
    const d = new NdjsonDecoder(1024);
    const all = bytes('{"t":"héllo ✓"}\n{"b":2}\n');
    const out = [];
    for (let i = 0; i < all.length; i++) out.push(...d.push(all.subarray(i, i + 1)));
    expect(out).toEqual([
      { kind: 'line', text: '{"t":"héllo ✓"}' },
      { kind: 'line', text: '{"b":2}' },
    ]);
    expect(d.pendingBytes).toBe(0);
  });

  it('reports invalid UTF-8 per line and keeps going', () => {
    const d = new NdjsonDecoder(1024);
    const out = d.push(new Uint8Array([0xc3, 0x28, 0x0a, 0x61, 0x0a]));
    expect(out).toEqual([{ kind: 'invalid_utf8', bytes: 2 }, { kind: 'line', text: 'a' }]);
  });

  it('stops at the limit without buffering further input', () => {
    const d = new NdjsonDecoder(10);
    expect(d.push(bytes('12345'))).toEqual([]);
    expect(d.push(bytes('678901'))).toEqual([{ kind: 'too_long', limit: 10 }]);
    expect(d.pendingBytes).toBe(0);
    expect(d.push(bytes('more\n'))).toEqual([]);
    expect(d.pendingBytes).toBe(0);
  });

  it('accepts a line of exactly the limit and strips a CR', () => {
    const d = new NdjsonDecoder(4);
    expect(d.push(bytes('abcd\nxy\r\n'))).toEqual([
      { kind: 'line', text: 'abcd' },
      { kind: 'line', text: 'xy' },
    ]);
  });

  it('hands over buffered bytes on upgrade', () => {
    const d = new NdjsonDecoder(100);
    d.push(bytes('{"a":1}\nraw'));
    expect(new TextDecoder().decode(d.takeBuffered())).toBe('raw');
    expect(d.push(bytes('x\n'))).toEqual([]);
  });

  it('encodes one value per line', () => {
    expect(new TextDecoder().decode(encodeLine({ a: 'x\ny' }))).toBe('{"a":"x\\ny"}\n');
  });
});
