/**
 * @module
 * Finding a sale: one field that takes an e-mail address, a checkout id, an eSIM id or a payment reference,
 * searched as the staff member types, with the status, widget and date filters; newest first, "More" follows the
 * list's cursor. The search is kept in the page's address, so a reload or a shared link shows the same list.
 */
import type { CheckoutStatus, PartnerCheckout } from '@esim-embed/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useConsole } from '../app/console-context';
import { type PageProps, routeHref } from '../app/console-route';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatAmount, formatDateTime } from '../ui/formatters';
import { DataTable } from '../ui/table-scroll';
import { StatusTag } from './status-tag';

const STATUSES: readonly CheckoutStatus[] = [
  'awaiting_payment',
  'placing',
  'provisioning',
  'ready',
  'failed',
  'expired',
  'cancelled',
];

/** How long typing must pause before the list follows it. */
const SEARCH_DEBOUNCE_MS = 250;

/** The search's fields, as kept in the address. */
interface SalesFilters {
  q: string;
  status: string;
  widgetId: string;
  from: string;
  to: string;
}

function filtersOf(query: URLSearchParams): SalesFilters {
  return {
    q: query.get('q') ?? '',
    status: query.get('status') ?? '',
    widgetId: query.get('widgetId') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
  };
}

/** The sales search. */
export function SalesSearchPage({ route }: PageProps) {
  const { client, session, locale, t } = useConsole();
  const [filters, setFilters] = useState(() => filtersOf(route.query));
  const [searched, setSearched] = useState(filters);
  const [page, setPage] = useState<{ sales: PartnerCheckout[]; nextCursor: string | null } | undefined>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(false);
  const searchField = useRef<HTMLInputElement>(null);

  // The page's one purpose is this field: a support agent types at once (the page mounts after the document's
  // load, when an `autofocus` attribute no longer moves the focus).
  useEffect(() => searchField.current?.focus(), []);

  // The typed text waits for a pause; a filter chosen applies at once.
  useEffect(() => {
    const timer = setTimeout(() => setSearched(filters), filters.q === searched.q ? 0 : SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [filters, searched.q]);

  const query = (cursor?: string) => ({
    q: searched.q.trim() || undefined,
    status: searched.status || undefined,
    widgetId: searched.widgetId || undefined,
    createdFrom: searched.from ? `${searched.from}T00:00:00Z` : undefined,
    createdTo: searched.to ? `${searched.to}T23:59:59Z` : undefined,
    cursor,
  });

  useEffect(() => {
    const kept = new URLSearchParams(
      Object.entries(searched).filter(([, value]) => value !== '') as [string, string][],
    );
    history.replaceState(null, '', routeHref('sales', undefined, kept));
    const controller = new AbortController();
    setLoading(true);
    client.call('searchSales', { query: query(), signal: controller.signal }).then(
      (answer) => {
        setPage({ sales: answer.data, nextCursor: answer.nextCursor });
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [searched]);

  async function more() {
    if (!page?.nextCursor) return;
    try {
      const answer = await client.call('searchSales', { query: query(page.nextCursor) });
      setPage({ sales: [...page.sales, ...answer.data], nextCursor: answer.nextCursor });
    } catch (failure) {
      setError(failure);
    }
  }

  const set = (name: keyof SalesFilters) => (event: Event) =>
    setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value });

  return (
    <>
      <h1>{t('salesHeading')}</h1>
      <search>
        <div class={controls.row}>
          <label class={controls.field}>
            {t('search')}
            <input
              class={controls.input}
              type="search"
              name="q"
              value={filters.q}
              onInput={set('q')}
              aria-describedby="sales-search-hint"
              autoComplete="off"
              ref={searchField}
            />
          </label>
          <label class={controls.field}>
            {t('status')}
            <select class={controls.input} value={filters.status} onChange={set('status')}>
              <option value="">{t('anyStatus')}</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`status_${status}`)}
                </option>
              ))}
            </select>
          </label>
          {session.widgets.length > 1 && (
            <label class={controls.field}>
              {t('widget')}
              <select class={controls.input} value={filters.widgetId} onChange={set('widgetId')}>
                <option value="">{t('anyWidget')}</option>
                {session.widgets.map((widget) => (
                  <option key={widget.id} value={widget.id}>
                    {widget.displayName}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label class={controls.field}>
            {t('createdFrom')}
            <input class={controls.input} type="date" value={filters.from} onChange={set('from')} />
          </label>
          <label class={controls.field}>
            {t('createdTo')}
            <input class={controls.input} type="date" value={filters.to} onChange={set('to')} />
          </label>
        </div>
        <p id="sales-search-hint" class={controls.muted}>
          {t('searchHint')}
        </p>
      </search>
      {error !== undefined && <ErrorNotice error={error} />}
      <p class={controls.muted} aria-live="polite">
        {page && !loading ? t('resultCount', { n: page.sales.length }) : ''}
      </p>
      {page && page.sales.length === 0 && <p>{t('noSales')}</p>}
      {page && page.sales.length > 0 && (
        <div class={controls.card}>
          <DataTable
            label={t('salesHeading')}
            columns={[t('created'), t('email'), t('plan'), t('amount'), t('status')]}
          >
            {page.sales.map((sale) => (
              <tr key={sale.id}>
                <td>
                  <a href={routeHref('sale', sale.id)}>{formatDateTime(sale.createdAt, locale)}</a>
                  <div class={`${controls.muted} ${controls.code}`}>{sale.id}</div>
                </td>
                <td class={controls.code}>{sale.email ?? '—'}</td>
                <td>{sale.plan.title}</td>
                <td>{formatAmount(sale.amount, locale)}</td>
                <td>
                  <StatusTag status={sale.status} />
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
      {page?.nextCursor && (
        <button class={controls.button} type="button" onClick={more}>
          {t('more')}
        </button>
      )}
    </>
  );
}
