import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { PolicyDoc } from './allowlist.js';

const FILE = 'capability-allowlist.default.yaml';

/**
 * The packaged default: copied into dist/ by the build (beside the bundled code); from the
 * sources (tests) it is read from resources/.
 */
export const DEFAULT_ALLOWLIST_PATH = [new URL(`./${FILE}`, import.meta.url), new URL(`../resources/${FILE}`, import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((path) => existsSync(path))!;

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
