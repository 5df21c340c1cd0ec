import { describe, expect, it } from 'vitest';
import { normalizeCommand, splitCommandLine } from './command-line.js';

describe('splitCommandLine', () => {
  it.each([
    ['codex', ['codex']],
    ['  claude   --model  opus ', ['claude', '--model', 'opus']],
    [`bash -lc 'echo "hi there"'`, ['bash', '-lc', 'echo "hi there"']],
    [`run "a b" c`, ['run', 'a b', 'c']],
    [`run "" ''`, ['run', '', '']],
    [`a\\ b`, ['a b']],
    [`"say \\"x\\"" '\\n'`, ['say "x"', '\\n']],
    [`pre"mid dle"post`, ['premid dlepost']],
    ['', []],
  ])('%j → %j', (line, argv) => {
    expect(splitCommandLine(line)).toEqual(argv);
  });

  it.each([`"open`, `'open`])('%j is invalid_command', (line) => {
    expect(() => splitCommandLine(line)).toThrowError(expect.objectContaining({ code: 'invalid_command' }));
  });
});

describe('normalizeCommand', () => {
  it('keeps argv arrays exactly, including spaces and empty arguments', () => {
    const argv = ['node', 'a script.js', '', '--flag="x y"'];
    expect(normalizeCommand(argv)).toEqual(argv);
  });
  it('splits strings and treats absence as empty', () => {
    expect(normalizeCommand('a "b c"')).toEqual(['a', 'b c']);
    expect(normalizeCommand(undefined)).toEqual([]);
  });
  it('rejects other shapes', () => {
    expect(() => normalizeCommand([1, 2])).toThrowError(expect.objectContaining({ code: 'invalid_command' }));
  });
});
