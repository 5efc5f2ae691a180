/**
 * @module
 * The console's root: the language's messages, then the session — read from the cookie the BFF set (a single
 * sign-on proxy's header opens one too) — and either the sign-in page or the console itself.
 */
import type { Locale } from '@esim-embed/shared';
import type { ConsoleSession } from '@esim-embed/shared/console';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ConsoleClient } from '../api/console-client';
import type { Messages } from '../i18n/messages';
import { createTranslator, loadMessages } from '../i18n/translator';
import { SignInPage } from '../sign-in/sign-in-page';
import { ConsoleHeader } from './console-header';
import { ConsoleShell } from './console-shell';
import { chooseLocale, preferredLocale } from './preferences';

/** The console page; `client` is given by tests. */
export function ConsoleApp({ client: given }: { client?: ConsoleClient }) {
  const client = useMemo(() => given ?? new ConsoleClient(), [given]);
  const [locale, setLocale] = useState<Locale>(preferredLocale);
  const [messages, setMessages] = useState<{ locale: Locale; table: Messages } | undefined>();
  // undefined: not read yet; null: signed out.
  const [session, setSession] = useState<ConsoleSession | null | undefined>();
  const [ended, setEnded] = useState(false);

  useEffect(() => {
    let current = true;
    document.documentElement.lang = locale;
    loadMessages(locale).then((table) => current && setMessages({ locale, table }));
    return () => {
      current = false;
    };
  }, [locale]);

  useEffect(() => {
    client.onSessionEnded = () => {
      client.csrfToken = undefined;
      setEnded(true);
      setSession(null);
    };
    client.call('readSession').then(
      (read) => {
        client.csrfToken = read.csrfToken;
        setSession(read);
      },
      // Signed out (401), or the API unreachable: the sign-in page says what the next attempt meets.
      () => setSession(null),
    );
  }, [client]);

  const t = useMemo(() => messages && createTranslator(messages.locale, messages.table), [messages]);
  if (!t || !messages || session === undefined) return <p aria-busy="true">…</p>;

  const changeLocale = (next: Locale) => {
    chooseLocale(next);
    setLocale(next);
  };
  const header = (
    <ConsoleHeader
      locale={messages.locale}
      t={t}
      onLocale={changeLocale}
      session={session ?? undefined}
      onSignOut={() => {
        client.call('signOut').finally(() => {
          client.csrfToken = undefined;
          setSession(null);
        });
      }}
    />
  );
  if (session === null) {
    return (
      <>
        {header}
        <SignInPage
          client={client}
          t={t}
          notice={ended ? t('sessionEnded') : undefined}
          onSignedIn={(opened) => {
            client.csrfToken = opened.csrfToken;
            setEnded(false);
            setSession(opened);
          }}
        />
      </>
    );
  }
  return (
    <>
      {header}
      <ConsoleShell client={client} session={session} locale={messages.locale} t={t} />
    </>
  );
}
