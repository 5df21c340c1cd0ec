// Pure query helpers of the local provider: the tokens FTS5's unicode61 tokenizer
// (remove_diacritics 2) makes, a MATCH expression no query syntax can escape, and the sentence
// of a source that best answers the question.

export function tokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/** The distinct terms of a question, at most 32. */
export function queryTerms(question: string): string[] {
  return [...new Set(tokens(question))].slice(0, 32);
}

/** Terms OR-ed as quoted FTS5 strings. */
export function matchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

/** The sentence (or line) of `content` holding the most query terms, trimmed to 280 characters. */
export function bestSentence(content: string, terms: readonly string[]): string {
  const want = new Set(terms);
  let best = '';
  let bestScore = -1;
  for (const raw of content.split(/(?<=[.!?])\s+|\n+/u)) {
    const s = raw.replace(/^[#>*\-\s]+/u, '').trim();
    if (s === '') continue;
    const score = new Set(tokens(s).filter((t) => want.has(t))).size;
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best.length > 280 ? `${best.slice(0, 277)}…` : best;
}
