import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { PolicyDoc } from './allowlist.js';

/** The packaged default, shipped beside the code (`resources/`, one level above src/ and dist/). */
export const DEFAULT_ALLOWLIST_PATH = fileURLToPath(new URL('../resources/capability-allowlist.default.yaml', import.meta.url));

let cached: Record<string, unknown> | undefined;

/** The packaged default document (validated once; a broken package fails loudly). */
export function defaultAllowlist(): Record<string, unknown> {
  if (!cached) {
    const doc = parse(readFileSync(DEFAULT_ALLOWLIST_PATH, 'utf8')) as Record<string, unknown>;
    PolicyDoc.parse(doc);
    cached = doc;
  }
  return structuredClone(cached);
}
