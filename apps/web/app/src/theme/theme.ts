/** The user's choice; "system" follows `prefers-color-scheme`. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

/** Shared with public/boot.js, which applies it before the first paint. */
export const THEME_STORAGE_KEY = 'cccc.theme';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export function parseThemeChoice(raw: string | null | undefined): ThemeChoice {
  return raw === 'light' || raw === 'dark' ? raw : 'system';
}

export function resolveTheme(choice: ThemeChoice, osPrefersLight: boolean): ResolvedTheme {
  if (choice === 'system') return osPrefersLight ? 'light' : 'dark';
  return choice;
}
