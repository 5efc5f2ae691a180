/**
 * @module
 * A sale's page: its facts, the eSIM's usage read from the upstream, its timeline, its webhook deliveries with
 * every attempt, its help requests, and the actions the staff member's role allows (an action the role lacks is
 * not shown at all): resend a delivery, ask for a refund, cancellation or reissue, make a delivery or manage link,
 * erase the traveller's data.
 */
import { useConsole } from '../app/console-context';
import { type PageProps, routeHref } from '../app/console-route';
import { useRemote } from '../hooks/use-remote';
import { StatusTag } from '../sales/status-tag';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatAmount, formatDateTime } from '../ui/formatters';
import { EraseTraveller } from './erase-traveller';
import { HelpRequests } from './help-requests';
import { SaleLinks } from './sale-links';
import { SaleTimeline } from './sale-timeline';
import { SaleUsage } from './sale-usage';
import { WebhookDeliveries } from './webhook-deliveries';

/** The page of the sale `route.id`. */
export function SalePage({ route }: PageProps) {
  const { client, locale, t, can } = useConsole();
  const id = route.id ?? '';
  const sale = useRemote((signal) => client.call('readSale', { params: { checkoutId: id }, signal }), [id]);
  const page = sale.data;

  return (
    <>
      <p>
        <a href={routeHref('sales')}>{t('backToSales')}</a>
      </p>
      <h1>{t('saleHeading', { id })}</h1>
      {sale.error !== undefined && <ErrorNotice error={sale.error} />}
      {!page && sale.error === undefined && <p aria-busy="true">{t('loading')}</p>}
      {page && (
        <>
          <section class={controls.card} aria-labelledby="sale-facts">
            <h2 id="sale-facts">{t('facts')}</h2>
            <dl>
              <dt>{t('status')}</dt>
              <dd>
                <StatusTag status={page.checkout.status} />
              </dd>
              <dt>{t('email')}</dt>
              <dd class={controls.code}>{page.checkout.email ?? '—'}</dd>
              <dt>{t('plan')}</dt>
              <dd>{page.checkout.plan.title}</dd>
              <dt>{t('amount')}</dt>
              <dd>{formatAmount(page.checkout.amount, locale)}</dd>
              <dt>{t('created')}</dt>
              <dd>{formatDateTime(page.checkout.createdAt, locale)}</dd>
              <dt>{t('widget')}</dt>
              <dd class={controls.code}>{page.checkout.widgetId}</dd>
              <dt>{t('paymentReference')}</dt>
              <dd class={controls.code}>{page.checkout.paymentReference ?? '—'}</dd>
              <dt>{t('esimId')}</dt>
              <dd class={controls.code}>{page.checkout.esimId ?? '—'}</dd>
              <dt>{t('orderId')}</dt>
              <dd class={controls.code}>{page.checkout.order?.id ?? '—'}</dd>
            </dl>
          </section>
          <SaleUsage page={page} />
          <SaleTimeline timeline={page.timeline} />
          <WebhookDeliveries deliveries={page.webhookDeliveries} onChanged={sale.reload} />
          <HelpRequests page={page} onChanged={sale.reload} />
          {can('support') && page.checkout.esimId && <SaleLinks checkoutId={page.checkout.id} />}
          {can('admin') && page.checkout.email && (
            <EraseTraveller checkoutId={page.checkout.id} onChanged={sale.reload} />
          )}
        </>
      )}
    </>
  );
}
