import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SequenceScanner } from './sequence-scanner.js';

const patterns = { on: '\x1b[?2004h', off: '\x1b[?2004l', dsr: '\x1b[6n' };

describe('SequenceScanner', () => {
  it('finds sequences split across chunks, once each, in order', () => {
    const s = new SequenceScanner(patterns);
    expect(s.scan(Buffer.from('abc\x1b[?20'))).toEqual([]);
    expect(s.scan(Buffer.from('04hxx\x1b'))).toEqual(['on']);
    expect(s.scan(Buffer.from('[6n\x1b[?2004l'))).toEqual(['dsr', 'off']);
    expect(s.scan(Buffer.from('plain'))).toEqual([]);
  });

  it('reports the same matches however the stream is cut (property)', () => {
    const piece = fc.constantFrom('a', 'xyz', '\x1b', '[', '\x1b[?2004h', '\x1b[?2004l', '\x1b[6n', '?2004', 'h');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat({ max: 20 }), { maxLength: 10 }), (pieces, cuts) => {
        const stream = Buffer.from(pieces.join(''));
        const whole = new SequenceScanner(patterns).scan(stream);
        const chunked = new SequenceScanner(patterns);
        const got: string[] = [];
        let pos = 0;
        for (const c of cuts) {
          const next = Math.min(stream.length, pos + c);
          got.push(...chunked.scan(stream.subarray(pos, next)));
          pos = next;
        }
        got.push(...chunked.scan(stream.subarray(pos)));
        expect(got).toEqual(whole);
      }),
    );
  });
  it('carries only a possible pattern start, so plain output after a sequence is not rescanned', () => {
    const s = new SequenceScanner(patterns);
    expect(s.scan(Buffer.from('x\x1b[?2004hyyyyyyy'))).toEqual(['on']);
    expect(s.scan(Buffer.from('\x1b[?2004lzz\x1b[?2'))).toEqual(['off']);
    expect(s.scan(Buffer.from('00'))).toEqual([]);
    expect(s.scan(Buffer.from('4h'))).toEqual(['on']);
    expect(s.scan(Buffer.from('\x1b'))).toEqual([]);
    expect(s.scan(Buffer.from('\x1b[6'))).toEqual([]);
    expect(s.scan(Buffer.from('n'))).toEqual(['dsr']);
  });
});
