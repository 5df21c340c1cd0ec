/** The languages the Web speaks; English is bundled, the others load on demand. */
export type Locale = 'en' | 'zh-CN' | 'ja';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN', 'ja'];
/** Each language named in itself, so a reader can find theirs whatever is showing. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', 'zh-CN': '简体中文', ja: '日本語' };

/** Shared with public/boot.js, which puts the remembered language on <html lang> first. */
export const LOCALE_STORAGE_KEY = 'cccc.lang';

export function parseLocale(raw: string | null | undefined): Locale | null {
  return LOCALES.find((l) => l === raw) ?? null;
}

/**
 * The first browser language we speak, by primary subtag: any Chinese tag reads Simplified
 * Chinese (the only Chinese catalog), `ja*` Japanese, else English.
 */
export function pickLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'ja') return 'ja';
    if (primary === 'en') return 'en';
  }
  return 'en';
}
