// Pure @-recipient completion and recipient extraction for the composer.

/** Selector tokens of the spec (REFERENCE_NOTES §1.5) offered besides actor ids. */
export const SELECTORS = ['@all', '@foreman', '@peers'] as const;

export interface Candidate {
  /** What is inserted (`@peer1`, `@all`). */
  readonly token: string;
  readonly label: string;
}

/** The `@word` being typed just before the caret, or null. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([\w.-]*)$/.exec(before);
  if (!m) return null;
  return { start: caret - m[2]!.length - 1, query: m[2]!.toLowerCase() };
}

/**
 * Candidates matching `query` by id or title prefix (then substring). With nothing typed the
 * selectors come first; once a prefix is typed, actors rank before selectors (`@pe` → `@peer1`
 * before `@peers`), since naming one agent is the common case.
 */
export function candidates(query: string, actors: ReadonlyArray<{ id: string; title?: string }>): Candidate[] {
  const selectors = SELECTORS.map((s) => ({ token: s, label: s }));
  const named = actors.map((a) => ({ token: `@${a.id}`, label: a.title && a.title !== a.id ? `@${a.id} · ${a.title}` : `@${a.id}` }));
  if (!query) return [...selectors, ...named];
  const all: Candidate[] = [...named, ...selectors];
  const q = query.toLowerCase();
  const prefix = all.filter((c) => c.token.slice(1).toLowerCase().startsWith(q) || c.label.toLowerCase().includes(` · ${q}`));
  const rest = all.filter((c) => !prefix.includes(c) && c.label.toLowerCase().includes(q));
  return [...prefix, ...rest];
}

/** Replace the mention being typed with `token` and a space; returns the new text and caret. */
export function applyCandidate(text: string, start: number, caret: number, token: string): { text: string; caret: number } {
  const next = text.slice(0, start) + token + ' ' + text.slice(caret).replace(/^ /, '');
  return { text: next, caret: start + token.length + 1 };
}

/**
 * The `to` list a message addresses: every `@token` in the text that names a known actor or a
 * selector, in first-seen order. Unknown `@words` stay plain text (an email, a decorator).
 */
export function recipientsOf(text: string, actorIds: readonly string[]): string[] {
  const known = new Set(actorIds);
  const out: string[] = [];
  for (const m of text.matchAll(/(^|\s)@([\w.-]+)/g)) {
    const word = m[2]!.replace(/[.-]+$/, '');
    const token = (SELECTORS as readonly string[]).includes(`@${word}`) ? `@${word}` : known.has(word) ? word : null;
    if (token && !out.includes(token)) out.push(token);
  }
  return out;
}
