import { useCallback, useEffect, useState } from 'react';
import { parseThemeChoice, resolveTheme, THEME_STORAGE_KEY, type ThemeChoice } from './theme';

const LIGHT_QUERY = '(prefers-color-scheme: light)';

function readChoice(): ThemeChoice {
  try {
    return parseThemeChoice(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

/**
 * The theme choice, remembered in localStorage and applied as `data-theme` on <html>; with
 * "system" it follows the OS setting live (boot.js did the first application before React).
 */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(readChoice);
  useEffect(() => {
    const media = window.matchMedia(LIGHT_QUERY);
    const apply = () => document.documentElement.setAttribute('data-theme', resolveTheme(choice, media.matches));
    apply();
    if (choice !== 'system') return;
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [choice]);
  const choose = useCallback((next: ThemeChoice) => {
    try {
      if (next === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
      else localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
    setChoice(next);
  }, []);
  return [choice, choose];
}
