import type { Catalog, MessageKey } from './catalogs/en';

export type MessageVars = Readonly<Record<string, string | number>>;

/** `{name}` placeholders filled from `vars`; an unknown placeholder is left as written. */
export function translate(catalog: Catalog, key: MessageKey, vars?: MessageVars): string {
  const text = catalog[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
