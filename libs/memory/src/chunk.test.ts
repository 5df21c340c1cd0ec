import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from './chunk.js';

describe('chunkMarkdown', () => {
  it('skips the front matter and starts a chunk at every heading, with 1-based line ranges', () => {
    const text = '---\nkind: memory\n---\n\n# Title\n\nintro line\n\n## Parser\nuses a lexer\nand a grammar\n\n## Storage\nsqlite\n';
    expect(chunkMarkdown(text)).toEqual([
      { startLine: 5, endLine: 7, text: '# Title\n\nintro line' },
      { startLine: 9, endLine: 11, text: '## Parser\nuses a lexer\nand a grammar' },
      { startLine: 13, endLine: 14, text: '## Storage\nsqlite' },
    ]);
  });

  it('cuts a long section at a blank line and an overlong line into pieces of that line', () => {
    const para = (w: string) => Array.from({ length: 5 }, () => w.repeat(10)).join(' ');
    const text = ['# S', para('a'), '', para('b'), '', para('c')].join('\n');
    const chunks = chunkMarkdown(text, 100);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([[1, 2], [4, 4], [6, 6]]);
    const long = chunkMarkdown('x'.repeat(250), 100);
    expect(long.map((c) => [c.startLine, c.endLine, c.text.length])).toEqual([[1, 1, 100], [1, 1, 100], [1, 1, 50]]);
  });

  it('gives nothing for blank text', () => {
    expect(chunkMarkdown('\n\n  \n')).toEqual([]);
  });
});
