import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { quickStartBlock, sectionCodeBlock } from './readme-block.js';

describe('quickStartBlock', () => {
  it('takes the first sh block of the section, one command per line, comments apart', () => {
    const readme = [
      '# X', '```sh', 'npm start', '```', '## Using it', 'text', '```sh',
      'a run   # the comment', `b --command "x # not a comment" 'y#z'  # real one`, '', 'c#d', '```', '```sh', 'later', '```',
    ].join('\n');
    expect(quickStartBlock(readme)).toEqual([
      { text: 'a run   # the comment', command: 'a run', comment: 'the comment' },
      { text: `b --command "x # not a comment" 'y#z'  # real one`, command: `b --command "x # not a comment" 'y#z'`, comment: 'real one' },
      { text: 'c#d', command: 'c#d', comment: '' },
    ]);
  });

  it('fails loudly when the section or its block is missing', () => {
    expect(() => quickStartBlock('# none')).toThrow(/no "## Using it" section/);
    expect(() => quickStartBlock('## Using it\ntext\n## Next\n```sh\nx\n```')).toThrow(/no sh code block/);
  });

  it('parses this repository README: every line a cccc command run through npx', () => {
    const lines = quickStartBlock(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));
    for (const l of lines) expect(l.command).toMatch(/^npx --no-install cccc\b/);
  });
});

describe('sectionCodeBlock', () => {
  it('takes the body of the first block of that language in the section, verbatim', () => {
    const readme = ['# X', '```ts', 'before', '```', '## Install', '```sh', 'npm i x', '```', '', '```ts', 'const a = 1;', '', 'a;', '```', '```ts', 'later', '```'].join('\n');
    expect(sectionCodeBlock(readme, '## Install', 'ts')).toBe('const a = 1;\n\na;');
    expect(sectionCodeBlock(readme, '## Install', 'sh')).toBe('npm i x');
  });

  it('does not reach past the next heading', () => {
    expect(() => sectionCodeBlock('## Install\ntext\n## Next\n```ts\nx\n```', '## Install', 'ts')).toThrow(/no ts code block/);
  });
});
