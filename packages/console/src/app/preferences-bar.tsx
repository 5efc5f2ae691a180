/**
 * @module
 * The language and theme switches, at the top of every page (the sign-in page too).
 */
import type { Locale } from '@esim-embed/shared';
import { useState } from 'preact/hooks';
import type { Translate } from '../i18n/messages';
import { CONSOLE_LOCALES, LANGUAGE_NAMES } from '../i18n/translator';
import * as controls from '../ui/controls.css';
import * as styles from './console-shell.css';
import { chooseTheme, preferredTheme, type ThemeChoice } from './preferences';

/** The two switches. */
export function PreferencesBar({
  locale,
  t,
  onLocale,
}: {
  locale: Locale;
  t: Translate;
  onLocale: (locale: Locale) => void;
}) {
  const [theme, setTheme] = useState<ThemeChoice>(preferredTheme);
  return (
    <div class={styles.preferences}>
      <label class={styles.preference}>
        <span>{t('language')}</span>
        <select
          class={controls.input}
          value={locale}
          onChange={(event) => onLocale(event.currentTarget.value as Locale)}
        >
          {CONSOLE_LOCALES.map((option) => (
            <option key={option} value={option} lang={option}>
              {LANGUAGE_NAMES[option]}
            </option>
          ))}
        </select>
      </label>
      <label class={styles.preference}>
        <span>{t('theme')}</span>
        <select
          class={controls.input}
          value={theme}
          onChange={(event) => {
            const next = event.currentTarget.value as ThemeChoice;
            chooseTheme(next);
            setTheme(next);
          }}
        >
          <option value="auto">{t('themeAuto')}</option>
          <option value="light">{t('themeLight')}</option>
          <option value="dark">{t('themeDark')}</option>
        </select>
      </label>
    </div>
  );
}
