/** One indexed piece of a Markdown file, with its 1-based inclusive line range. */
export interface Chunk {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/** About 400 tokens at ~4 characters a token. */
export const MAX_CHUNK_CHARS = 1600;

/**
 * Split Markdown into chunks a search hit can point at: a new chunk starts at every heading, and
 * a section longer than MAX_CHUNK_CHARS is cut at its last blank line before the limit (or, with
 * none, before the line that would overflow). The front matter and blank-only chunks are not
 * indexed. Pure: the same text always gives the same chunks.
 */
export function chunkMarkdown(text: string, maxChars = MAX_CHUNK_CHARS): Chunk[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let first = 0;
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) first = end + 1;
  }
  const chunks: Chunk[] = [];
  let cur: { line: number; text: string }[] = [];
  let size = 0;
  const flush = (upTo = cur.length) => {
    const part = cur.slice(0, upTo);
    cur = cur.slice(upTo);
    size = cur.reduce((n, l) => n + l.text.length + 1, 0);
    while (part.length > 0 && part[0]!.text.trim() === '') part.shift();
    while (part.length > 0 && part.at(-1)!.text.trim() === '') part.pop();
    if (part.length === 0) return;
    chunks.push({ startLine: part[0]!.line, endLine: part.at(-1)!.line, text: part.map((l) => l.text).join('\n') });
  };
  for (let i = first; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6}\s/.test(line)) flush();
    // A single overlong line is indexed in pieces that all point at that line.
    for (let at = 0; at === 0 || at < line.length; at += maxChars) {
      const piece = line.slice(at, at + maxChars);
      if (size + piece.length + 1 > maxChars && cur.length > 0) {
        let cut = cur.length;
        for (let j = cur.length - 1; j > 0; j--) {
          if (cur[j]!.text.trim() === '') {
            cut = j;
            break;
          }
        }
        flush(cut);
        if (size + piece.length + 1 > maxChars) flush();
      }
      cur.push({ line: i + 1, text: piece });
      size += piece.length + 1;
    }
  }
  flush();
  return chunks;
}
