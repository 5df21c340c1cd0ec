import { describe, expect, it } from 'vitest';
import { isInterruptInput } from './terminal-interrupt.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('isInterruptInput', () => {
  it('a lone ESC key press or a Ctrl-C anywhere in the chunk interrupts', () => {
    expect(isInterruptInput(bytes('\x1b'))).toBe(true);
    expect(isInterruptInput(bytes('\x03'))).toBe(true);
    expect(isInterruptInput(bytes('abc\x03'))).toBe(true);
  });

  it('escape sequences (arrows, function keys, bracketed paste), Enter and text do not', () => {
    for (const text of ['\x1b[A', '\x1bOP', '\x1b[200~pasted\x1b[201~', '\x1b\x1b', '\r', 'y', '']) expect(isInterruptInput(bytes(text))).toBe(false);
  });
});
