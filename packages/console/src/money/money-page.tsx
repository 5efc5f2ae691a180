/**
 * @module
 * Money and sales: each widget's account (balance, holds and spend against the limits), the period's sales per
 * day (count, revenue, margin) and its funnel (widget opened → installation shown) as charts with their tables,
 * and the period's sales as CSV for accounting.
 */
import type { Money } from '@esim-embed/shared';
import { useState } from 'preact/hooks';
import { routeUrl } from '../api/console-client';
import { useConsole } from '../app/console-context';
import type { PageProps } from '../app/console-route';
import { BarChart } from '../charts/bar-chart';
import { useRemote } from '../hooks/use-remote';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatAmount, formatDay } from '../ui/formatters';
import { DataTable, TableScroll } from '../ui/table-scroll';

/** A UTC day `days` from today: `2026-11-29`. */
function utcDay(days = 0): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The money page. */
export function MoneyPage(_: PageProps) {
  const { client, session, locale, t } = useConsole();
  // The last 30 days up to today included (`to` is exclusive: tomorrow).
  const [period, setPeriod] = useState({ from: utcDay(-29), to: utcDay(1), widgetId: '' });
  const query = { from: period.from, to: period.to, widgetId: period.widgetId || undefined };
  const money = useRemote((signal) => client.call('readMoney', { signal }), []);
  const sales = useRemote((signal) => client.call('readSalesChart', { query, signal }), [period]);
  const funnel = useRemote((signal) => client.call('readFunnelChart', { query, signal }), [period]);
  const amount = (amountMinor: number, currency: string) =>
    formatAmount({ amountMinor, currency } as Money, locale);

  function show(event: Event) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    setPeriod({
      from: String(data.get('from')),
      to: String(data.get('to')),
      widgetId: String(data.get('widgetId') ?? ''),
    });
  }

  const funnelTotals = __CONSOLE_CONTRACT__.funnelSteps.map((step) => ({
    step,
    count: (funnel.data?.days ?? []).reduce((total, day) => total + day.steps[step], 0),
  }));

  return (
    <>
      <h1>{t('moneyHeading')}</h1>
      {money.error !== undefined && <ErrorNotice error={money.error} />}
      {money.data?.widgets.map(({ widgetId, account, unavailable }) => (
        <section key={widgetId} class={controls.card} aria-labelledby={`money-${widgetId}`}>
          <h2 id={`money-${widgetId}`} class={controls.code}>
            {widgetId}
          </h2>
          {unavailable && <p>{t('accountUnavailable', { code: unavailable })}</p>}
          {account && (
            <dl>
              <dt>{t('balance')}</dt>
              <dd>{formatAmount(account.balance, locale)}</dd>
              <dt>{t('available')}</dt>
              <dd>{formatAmount(account.availableBalance, locale)}</dd>
              <dt>{t('held')}</dt>
              <dd>{formatAmount(account.heldByCheckouts, locale)}</dd>
              <dt>{t('placedThisMonth')}</dt>
              <dd>
                {formatAmount(account.placedThisMonth, locale)}
                {account.limits.monthlySpend && account.limits.monthlySpend.amountMinor > 0 && (
                  <meter
                    min={0}
                    max={account.limits.monthlySpend.amountMinor}
                    value={account.placedThisMonth.amountMinor + account.heldByCheckouts.amountMinor}
                    aria-label={t('monthlyLimit')}
                  />
                )}
              </dd>
              <dt>{t('monthlyLimit')}</dt>
              <dd>
                {account.limits.monthlySpend
                  ? formatAmount(account.limits.monthlySpend, locale)
                  : t('noLimit')}
              </dd>
              <dt>{t('singleOrderLimit')}</dt>
              <dd>
                {account.limits.singleOrder ? formatAmount(account.limits.singleOrder, locale) : t('noLimit')}
              </dd>
              <dt>{t('spendable')}</dt>
              <dd>{formatAmount(account.spendable, locale)}</dd>
            </dl>
          )}
        </section>
      ))}

      <form class={controls.row} onSubmit={show} aria-label={t('period')}>
        <label class={controls.field}>
          {t('createdFrom')}
          <input class={controls.input} type="date" name="from" defaultValue={period.from} required />
        </label>
        <label class={controls.field}>
          {t('createdTo')}
          <input class={controls.input} type="date" name="to" defaultValue={period.to} required />
        </label>
        {session.widgets.length > 1 && (
          <label class={controls.field}>
            {t('widget')}
            <select class={controls.input} name="widgetId">
              <option value="">{t('anyWidget')}</option>
              {session.widgets.map((widget) => (
                <option key={widget.id} value={widget.id} selected={widget.id === period.widgetId}>
                  {widget.displayName}
                </option>
              ))}
            </select>
          </label>
        )}
        <button class={controls.button} type="submit">
          {t('show')}
        </button>
        <a class={controls.button} href={routeUrl('exportSales', { query })} download>
          {t('downloadCsv')}
        </a>
      </form>

      <section class={controls.card} aria-labelledby="money-sales">
        <h2 id="money-sales">{t('salesPerDay')}</h2>
        {sales.error !== undefined && <ErrorNotice error={sales.error} />}
        {sales.data && sales.data.days.length === 0 && <p>{t('noSalesInPeriod')}</p>}
        {sales.data && sales.data.days.length > 0 && (
          <>
            <BarChart
              bars={sales.data.days.map((day) => ({
                label: `${formatDay(day.day, locale)} ${day.currency}`,
                value: day.revenueMinor,
                text: `${day.count} · ${amount(day.revenueMinor, day.currency)}`,
              }))}
            />
            <DataTable
              label={t('salesPerDay')}
              columns={[t('day'), t('widget'), t('count'), t('revenue'), t('margin')]}
              caption={t('salesPerDay')}
              chart="sales"
            >
              {sales.data.days.map((day) => (
                <tr key={`${day.day}-${day.widgetId}-${day.currency}`}>
                  <th scope="row">{formatDay(day.day, locale)}</th>
                  <td class={controls.code}>{day.widgetId}</td>
                  <td>{day.count}</td>
                  <td>{amount(day.revenueMinor, day.currency)}</td>
                  <td>{amount(day.marginMinor, day.currency)}</td>
                </tr>
              ))}
            </DataTable>
          </>
        )}
      </section>

      <section class={controls.card} aria-labelledby="money-funnel">
        <h2 id="money-funnel">{t('funnel')}</h2>
        {funnel.error !== undefined && <ErrorNotice error={funnel.error} />}
        {funnel.data && (
          <>
            <BarChart
              bars={funnelTotals.map(({ step, count }) => ({
                label: t(`step_${step}`),
                value: count,
                text: String(count),
              }))}
            />
            <TableScroll label={t('funnel')}>
              <table data-chart="funnel">
                <caption class={controls.visuallyHidden}>{t('funnel')}</caption>
                <tbody>
                  {funnelTotals.map(({ step, count }) => (
                    <tr key={step} data-step={step}>
                      <th scope="row">{t(`step_${step}`)}</th>
                      <td>{count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
      </section>
    </>
  );
}
