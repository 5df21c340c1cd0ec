import { useT } from '../i18n/I18nProvider';
import { THEME_CHOICES, type ThemeChoice } from './theme';
import { useTheme } from './use-theme';

/** System / light / dark, remembered in this browser. */
export function ThemeSwitch() {
  const t = useT();
  const [choice, choose] = useTheme();
  return (
    <select className="pref-select" aria-label={t('prefs.theme')} data-testid="theme-select" value={choice} onChange={(e) => choose(e.target.value as ThemeChoice)}>
      {THEME_CHOICES.map((c) => (
        <option key={c} value={c}>
          {t(`prefs.theme.${c}`)}
        </option>
      ))}
    </select>
  );
}
