/**
 * Limits on the shape of JSON a peer may send (issue 20): nesting depth and node count, checked
 * on the text before it is parsed, so no recursive step (the parser, schema validation, a
 * serializer) ever sees a hostile shape, and nothing a standard JSON reader of another language
 * cannot read (Python's `json` stops near 1,000 levels) reaches the ledger. Browser-safe: a
 * single linear pass over the string, no allocation per token.
 */

/** Deepest nesting of objects and arrays accepted. */
export const MAX_JSON_DEPTH = 64;
/** Most values (objects, arrays, strings, numbers, literals; keys included) in one document. */
export const MAX_JSON_NODES = 100_000;

export interface JsonShapeLimits {
  readonly depth: number;
  readonly nodes: number;
}

/** Which limit a text exceeded, for an `invalid_request`'s `details`. */
export interface JsonShapeViolation {
  readonly limit: 'json_depth' | 'json_nodes';
  readonly max: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** A character that can appear in a number or a literal (true, false, null). */
function isScalarChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x61 && c <= 0x7a) || c === 0x45;
}

/**
 * The first limit `text` exceeds, or null. Malformed JSON is not judged here (the parser
 * rejects it next); the pass only bounds what a parse could build.
 */
export function jsonShapeViolation(text: string, limits: JsonShapeLimits = { depth: MAX_JSON_DEPTH, nodes: MAX_JSON_NODES }): JsonShapeViolation | null {
  let depth = 0;
  let nodes = 0;
  let inScalar = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      inScalar = false;
      if (++nodes > limits.nodes) return { limit: 'json_nodes', max: limits.nodes };
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return null;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      inScalar = false;
      if (++depth > limits.depth) return { limit: 'json_depth', max: limits.depth };
      if (++nodes > limits.nodes) return { limit: 'json_nodes', max: limits.nodes };
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      inScalar = false;
      depth--;
      continue;
    }
    if (isScalarChar(c)) {
      if (!inScalar && ++nodes > limits.nodes) return { limit: 'json_nodes', max: limits.nodes };
      inScalar = true;
    } else {
      inScalar = false;
    }
  }
  return null;
}
