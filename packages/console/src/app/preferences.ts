/**
 * @module
 * The staff member's choices kept in this browser: the console's language (first visit: the browser's, if the
 * console has it) and its theme (as the system, light or dark), applied to `<html>` as `lang` and `data-theme`.
 */
import type { Locale } from '@esim-embed/shared';
import { CONSOLE_LOCALES } from '../i18n/translator';

/** The theme choice: `auto` follows `prefers-color-scheme`. */
export type ThemeChoice = 'auto' | 'light' | 'dark';

const LOCALE_KEY = 'esim-console-locale';
const THEME_KEY = 'esim-console-theme';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    // Storage refused (a privacy setting): the choice lasts as long as the page.
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // As above: not kept, still applied.
  }
}

/** The language to show: the one chosen here before, else the browser's first the console has, else English. */
export function preferredLocale(): Locale {
  const chosen = stored(LOCALE_KEY);
  if (chosen && (CONSOLE_LOCALES as readonly string[]).includes(chosen)) return chosen as Locale;
  for (const language of navigator.languages ?? [navigator.language]) {
    const base = language.slice(0, 2).toLowerCase();
    if ((CONSOLE_LOCALES as readonly string[]).includes(base)) return base as Locale;
  }
  return 'en';
}

/** Keeps and applies a language. */
export function chooseLocale(locale: Locale): void {
  store(LOCALE_KEY, locale);
  document.documentElement.lang = locale;
}

/** The theme chosen here before (`auto` by default). */
export function preferredTheme(): ThemeChoice {
  const chosen = stored(THEME_KEY);
  return chosen === 'light' || chosen === 'dark' ? chosen : 'auto';
}

/** Keeps and applies a theme (`auto` removes the attribute, so the system's preference decides). */
export function chooseTheme(theme: ThemeChoice): void {
  store(THEME_KEY, theme);
  applyTheme(theme);
}

/** Applies a theme without keeping it. */
export function applyTheme(theme: ThemeChoice): void {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}
