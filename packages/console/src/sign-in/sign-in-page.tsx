/**
 * @module
 * The sign-in page: a name and a password, then — for a user with a second factor, when the BFF asks for it —
 * the code of their authenticator app. A wrong name, password or code are told alike.
 */
import type { ConsoleSession } from '@esim-embed/shared/console';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConsoleApiError } from '../api/console-api-error';
import type { ConsoleClient } from '../api/console-client';
import type { Translate } from '../i18n/messages';
import * as controls from '../ui/controls.css';
import { TextField } from '../ui/text-field';
import * as styles from './sign-in-page.css';

/** The sign-in form; `onSignedIn` gets the session. */
export function SignInPage({
  client,
  t,
  notice,
  onSignedIn,
}: {
  client: ConsoleClient;
  t: Translate;
  /** Why the page shows (the session ended), said above the form. */
  notice?: string | undefined;
  onSignedIn: (session: ConsoleSession) => void;
}) {
  const [askCode, setAskCode] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const codeField = useRef<HTMLInputElement>(null);

  // The field appears once the password was accepted: the code is what to type next.
  useEffect(() => {
    if (askCode) codeField.current?.focus();
  }, [askCode]);

  async function submit(event: Event) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const totp = String(data.get('totp') ?? '').trim();
    setBusy(true);
    setError(undefined);
    try {
      const session = await client.call('signIn', {
        body: {
          username: String(data.get('username') ?? ''),
          password: String(data.get('password') ?? ''),
          ...(askCode && totp ? { totp } : {}),
        },
      });
      onSignedIn(session);
    } catch (failure) {
      if (failure instanceof ConsoleApiError && failure.params.reason === 'second_factor' && !askCode) {
        setAskCode(true);
      } else if (failure instanceof ConsoleApiError && failure.code === 'rate_limited') {
        setError(t('signInLocked'));
      } else if (failure instanceof ConsoleApiError && failure.status === 401) {
        setError(t('signInFailed'));
      } else {
        setError(t('errorGeneric', { code: failure instanceof ConsoleApiError ? failure.code : 'network' }));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="content" class={styles.page}>
      <h1>{t('signInHeading')}</h1>
      {notice && <p class={controls.muted}>{notice}</p>}
      <form class={controls.form} onSubmit={submit} noValidate>
        <TextField label={t('userName')} name="username" autoComplete="username" required />
        <TextField
          label={t('password')}
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        {askCode && (
          <div class={controls.field}>
            <TextField
              label={t('totpCode')}
              name="totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              aria-describedby="totp-hint"
              inputRef={codeField}
            />
            <span id="totp-hint" class={controls.muted}>
              {t('totpHint')}
            </span>
          </div>
        )}
        {error && (
          <p class={controls.errorNotice} role="alert">
            {error}
          </p>
        )}
        <button class={controls.primaryButton} type="submit" disabled={busy}>
          {t('signIn')}
        </button>
      </form>
    </main>
  );
}
