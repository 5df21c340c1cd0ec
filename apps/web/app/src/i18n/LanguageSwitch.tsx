import { useI18n } from './I18nProvider';
import { LOCALE_NAMES, LOCALES, type Locale } from './locales';

/** The language choice, each option named in its own language. */
export function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  return (
    <select className="pref-select" aria-label={t('prefs.language')} data-testid="language-select" value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
