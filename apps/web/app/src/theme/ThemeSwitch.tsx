import { THEME_CHOICES, type ThemeChoice } from './theme';
import { useTheme } from './use-theme';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** System / light / dark, remembered in this browser. */
export function ThemeSwitch() {
  const [choice, choose] = useTheme();
  return (
    <select className="pref-select" aria-label="Theme" value={choice} onChange={(e) => choose(e.target.value as ThemeChoice)}>
      {THEME_CHOICES.map((c) => (
        <option key={c} value={c}>
          {LABELS[c]}
        </option>
      ))}
    </select>
  );
}
