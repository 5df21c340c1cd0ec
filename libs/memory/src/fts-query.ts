// The query side of the index, kept pure: the same tokens FTS5's unicode61 tokenizer
// (remove_diacritics 2) makes, the MATCH expression, and the score of a candidate.

/** Lower-case, diacritics removed, split on anything that is not a letter or a digit. */
export function tokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/** The distinct terms of a query, in order, at most 32. */
export function queryTerms(query: string): string[] {
  return [...new Set(tokens(query))].slice(0, 32);
}

/** Any term may match (OR); each is a quoted string, so no FTS5 syntax reaches the engine. */
export function matchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

/**
 * A hit's score in [0, 1]: the share of the query's terms the chunk contains, weighted by its
 * bm25 relative to the best candidate (half fixed, half relative), so a chunk with every term
 * ranks above one with a few, and bm25 orders chunks of equal coverage.
 */
export function hitScore(chunkText: string, terms: readonly string[], bm25: number, bestBm25: number): number {
  if (terms.length === 0) return 0;
  const have = new Set(tokens(chunkText));
  const coverage = terms.filter((t) => have.has(t)).length / terms.length;
  const relative = bestBm25 < 0 ? Math.min(1, bm25 / bestBm25) : 1;
  return Math.round(coverage * (0.5 + 0.5 * relative) * 10_000) / 10_000;
}
