import { en, type Catalog, type MessageKey } from './catalogs/en';
import { translate, type MessageVars } from './translate';

// Pure helpers (no React) build sentences with the page's `t`; English is their default so unit
// tests and callers outside a page read as before.

export type Translate = (key: MessageKey, vars?: MessageVars) => string;

/** A translator over one catalog (what the page's `t` does for the loaded language). */
export const translatorFor =
  (catalog: Catalog): Translate =>
  (key, vars) =>
    translate(catalog, key, vars);

export const english: Translate = translatorFor(en);

/**
 * A daemon enum value in words: the catalog's `prefix.value` when the catalog has one, else the
 * value as the daemon sent it (a value newer than this page stays readable rather than blank).
 */
export function wordFor(t: Translate, prefix: string, value: string): string {
  const key = `${prefix}.${value}`;
  return Object.hasOwn(en, key) ? t(key as MessageKey) : value;
}
