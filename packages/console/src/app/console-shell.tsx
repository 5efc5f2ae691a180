/**
 * @module
 * The signed-in console: the sections' navigation (the users and the audit log for admins only) and the current
 * page, read from the URL's fragment; each page is loaded when first opened.
 */
import type { Locale } from '@esim-embed/shared';
import type { ConsoleSession } from '@esim-embed/shared/console';
import type { ComponentType } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ConsoleClient } from '../api/console-client';
import type { MessageKey, Translate } from '../i18n/messages';
import * as controls from '../ui/controls.css';
import { ConsoleContext, type ConsoleContextValue } from './console-context';
import { type ConsolePage, type ConsoleRoute, type PageProps, readRoute, routeHref } from './console-route';
import * as styles from './console-shell.css';

const PAGES: Record<ConsolePage, () => Promise<ComponentType<PageProps>>> = {
  sales: () => import('../sales/sales-search-page').then((page) => page.SalesSearchPage),
  sale: () => import('../sale/sale-page').then((page) => page.SalePage),
  webhooks: () => import('../webhooks/webhooks-page').then((page) => page.WebhooksPage),
  money: () => import('../money/money-page').then((page) => page.MoneyPage),
  users: () => import('../users/users-page').then((page) => page.UsersPage),
  audit: () => import('../audit/audit-page').then((page) => page.AuditPage),
};

/** The sections in the navigation, and the least role that sees each. */
const SECTIONS: readonly { page: ConsolePage; label: MessageKey; admin?: true }[] = [
  { page: 'sales', label: 'navSales' },
  { page: 'webhooks', label: 'navWebhooks' },
  { page: 'money', label: 'navMoney' },
  { page: 'users', label: 'navUsers', admin: true },
  { page: 'audit', label: 'navAudit', admin: true },
];

/** The current route, following the fragment. */
function useRoute(): ConsoleRoute {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const follow = () => setHash(location.hash);
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return useMemo(() => readRoute(hash), [hash]);
}

/** The navigation and the page. */
export function ConsoleShell({
  client,
  session,
  locale,
  t,
}: {
  client: ConsoleClient;
  session: ConsoleSession;
  locale: Locale;
  t: Translate;
}) {
  const route = useRoute();
  const [loaded, setLoaded] = useState<{ page: ConsolePage; Page: ComponentType<PageProps> } | undefined>();
  const context = useMemo<ConsoleContextValue>(
    () => ({ client, session, locale, t }),
    [client, session, locale, t],
  );
  const admin = session.user.role === 'admin';
  const section = route.page === 'sale' ? 'sales' : route.page;
  // An admin's page opened by another role (a link, or the address left by the user signed in before): said
  // here rather than asked of the API, which would refuse it.
  const allowed = admin || !SECTIONS.some((item) => item.page === route.page && item.admin);

  useEffect(() => {
    let current = true;
    if (!allowed) return;
    PAGES[route.page]().then((Page) => current && setLoaded({ page: route.page, Page }));
    return () => {
      current = false;
    };
  }, [route.page, allowed]);

  const Page = loaded?.page === route.page ? loaded.Page : undefined;
  return (
    <ConsoleContext.Provider value={context}>
      <nav class={styles.nav} aria-label={t('navigation')}>
        <ul class={styles.navList}>
          {SECTIONS.filter((item) => admin || !item.admin).map((item) => (
            <li key={item.page}>
              <a
                class={styles.navLink}
                href={routeHref(item.page)}
                aria-current={section === item.page ? 'page' : undefined}
              >
                {t(item.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="content" class={styles.main} tabIndex={-1}>
        {!allowed ? (
          <p class={controls.errorNotice} role="alert">
            {t('errorForbidden')}
          </p>
        ) : Page ? (
          <Page route={route} />
        ) : (
          <p aria-busy="true">{t('loading')}</p>
        )}
      </main>
    </ConsoleContext.Provider>
  );
}
