import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type Catalog, type MessageKey } from './catalogs/en';
import { LOCALE_STORAGE_KEY, parseLocale, pickLocale, type Locale } from './locales';
import { translate, type MessageVars } from './translate';

/**
 * Non-English catalogs are separate chunks (dynamic import), so the first load carries English
 * only; until a chosen catalog arrives the page reads English rather than blank keys.
 */
const LOADERS: Readonly<Record<Exclude<Locale, 'en'>, () => Promise<Catalog>>> = {
  'zh-CN': () => import('./catalogs/zh-CN').then((m) => m.zhCN),
  ja: () => import('./catalogs/ja').then((m) => m.ja),
};

export interface I18n {
  readonly locale: Locale;
  readonly t: (key: MessageKey, vars?: MessageVars) => string;
  readonly setLocale: (locale: Locale) => void;
}

const I18nContext = createContext<I18n>({ locale: 'en', t: (key, vars) => translate(en, key, vars), setLocale: () => undefined });

function initialLocale(): Locale {
  try {
    const stored = parseLocale(localStorage.getItem(LOCALE_STORAGE_KEY));
    if (stored) return stored;
  } catch {
    // storage blocked: the browser's languages decide
  }
  return pickLocale(navigator.languages ?? [navigator.language]);
}

/** The language: the remembered choice, else the browser's; `setLocale` remembers a new one. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const [catalog, setCatalog] = useState<{ locale: Locale; catalog: Catalog }>({ locale: 'en', catalog: en });

  useEffect(() => {
    document.documentElement.lang = locale;
    if (locale === 'en') {
      setCatalog({ locale, catalog: en });
      return;
    }
    let live = true;
    LOADERS[locale]().then(
      (loaded) => live && setCatalog({ locale, catalog: loaded }),
      () => undefined, // a failed chunk load leaves English showing
    );
    return () => {
      live = false;
    };
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    try {
      localStorage.setItem(LOCALE_STORAGE_KEY, next);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
    setLocaleState(next);
  }, []);

  const value = useMemo<I18n>(
    // Dates and numbers follow the catalog actually showing, so a page never mixes languages.
    () => ({ locale: catalog.locale, t: (key, vars) => translate(catalog.catalog, key, vars), setLocale }),
    [catalog, setLocale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useI18n = (): I18n => useContext(I18nContext);
export const useT = (): I18n['t'] => useContext(I18nContext).t;
