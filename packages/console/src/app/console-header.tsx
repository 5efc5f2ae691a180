/**
 * @module
 * The top of every page: a link to skip to the content, the console's name, the language and theme switches and,
 * once signed in, who is signed in with which role and the sign-out button.
 */
import type { Locale } from '@esim-embed/shared';
import type { ConsoleSession } from '@esim-embed/shared/console';
import type { MessageKey, Translate } from '../i18n/messages';
import * as controls from '../ui/controls.css';
import * as styles from './console-shell.css';
import { PreferencesBar } from './preferences-bar';

const ROLE_NAMES = {
  viewer: 'roleViewer',
  support: 'roleSupport',
  admin: 'roleAdmin',
} as const satisfies Record<string, MessageKey>;

/** The header; `onSignOut` only once signed in. */
export function ConsoleHeader({
  locale,
  t,
  onLocale,
  session,
  onSignOut,
}: {
  locale: Locale;
  t: Translate;
  onLocale: (locale: Locale) => void;
  session?: ConsoleSession | undefined;
  onSignOut?: () => void;
}) {
  return (
    <>
      <button
        class={styles.skipLink}
        type="button"
        // The fragment names the console's page: a skip link moves the focus, not the address.
        onClick={() => document.getElementById('content')?.focus()}
      >
        {t('skipToContent')}
      </button>
      <header class={styles.header}>
        <p class={styles.appName}>{t('appName')}</p>
        <PreferencesBar locale={locale} t={t} onLocale={onLocale} />
        {session && (
          <div class={styles.user}>
            <span>
              {t('signedInAs', { name: session.user.username, role: t(ROLE_NAMES[session.user.role]) })}
            </span>
            <button class={controls.button} type="button" onClick={onSignOut}>
              {t('signOut')}
            </button>
          </div>
        )}
      </header>
    </>
  );
}
