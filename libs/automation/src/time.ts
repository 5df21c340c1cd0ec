// UTC timestamps as the rules and the state file store them (RFC 3339, `Z`, no fraction).

export function isoUtc(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** RFC 3339 with an explicit offset or `Z`; anything else (a bare date, local time) is undefined. */
export function parseRfc3339(text: string | undefined): number | undefined {
  if (!text) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text.trim())) return undefined;
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? undefined : ms;
}
