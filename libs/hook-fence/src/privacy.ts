/** Longest tool label we ever keep. */
export const TOOL_NAME_MAX = 64;

/**
 * Reduce a provider tool name to a display label of at most 64 characters from
 * `[A-Za-z0-9_.:/-]`. Anything else is dropped, so no input, argument or output can leak
 * through a crafted name. Returns null when nothing printable remains.
 */
export function sanitizeToolName(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const label = name.replace(/[^A-Za-z0-9_.:/-]/g, '').slice(0, TOOL_NAME_MAX);
  return label.length > 0 ? label : null;
}

/** Identifiers (session, turn, tool use) are kept verbatim only when short and printable. */
export function sanitizeId(id: unknown): string | null {
  if (typeof id !== 'string' || id.length === 0 || id.length > 256) return null;
  return /^[\x21-\x7e]+$/.test(id) ? id : null;
}
