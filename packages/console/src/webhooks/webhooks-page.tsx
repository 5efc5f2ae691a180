/**
 * @module
 * The webhooks' health, per widget: the endpoint, its circuit (closed, or open and until when), the deliveries
 * failing now with each attempt, and — for support and admins — a resend of every failed delivery since a time.
 */
import type { ResendFailedDeliveriesResult } from '@esim-embed/shared/console';
import { useConsole } from '../app/console-context';
import type { PageProps } from '../app/console-route';
import { useRemote } from '../hooks/use-remote';
import { useWrite } from '../hooks/use-write';
import { WebhookDeliveries } from '../sale/webhook-deliveries';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatDateTime } from '../ui/formatters';

/** A day ago, as a `datetime-local` value in the browser's time: the resend's default start. */
function dayAgo(): string {
  const then = new Date(Date.now() - 24 * 3600_000);
  return new Date(then.getTime() - then.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The webhooks page. */
export function WebhooksPage(_: PageProps) {
  const { client, locale, t, can } = useConsole();
  const health = useRemote((signal) => client.call('readWebhooksHealth', { signal }), []);
  const resend = useWrite<ResendFailedDeliveriesResult>();

  function resendFailed(event: Event) {
    event.preventDefault();
    const since = String(new FormData(event.currentTarget as HTMLFormElement).get('since'));
    resend
      .run(() =>
        client.call('resendFailedWebhookDeliveries', { body: { since: new Date(since).toISOString() } }),
      )
      .then(health.reload);
  }

  return (
    <>
      <h1>{t('webhooksHeading')}</h1>
      {health.error !== undefined && <ErrorNotice error={health.error} />}
      {can('support') && (
        <form class={controls.row} onSubmit={resendFailed}>
          <label class={controls.field}>
            {t('resendSince')}
            <input
              class={controls.input}
              type="datetime-local"
              name="since"
              defaultValue={dayAgo()}
              required
            />
          </label>
          <button class={controls.primaryButton} type="submit" disabled={resend.busy}>
            {t('resendAll')}
          </button>
        </form>
      )}
      {resend.error !== undefined && <ErrorNotice error={resend.error} />}
      {resend.result && (
        <p class={controls.successNotice} role="status">
          {t('resentCount', { n: resend.result.resent })}
        </p>
      )}
      {health.data?.widgets.map((widget) => (
        <section key={widget.widgetId} aria-labelledby={`webhooks-${widget.widgetId}`}>
          <h2 id={`webhooks-${widget.widgetId}`} class={controls.code}>
            {widget.widgetId}
          </h2>
          <dl>
            <dt>{t('endpoint')}</dt>
            <dd class={controls.code}>{widget.endpoint ?? t('noEndpoint')}</dd>
            <dt>{t('circuit')}</dt>
            <dd>
              {widget.circuit.state === 'closed'
                ? t('circuitClosed')
                : t('circuitOpen', {
                    n: widget.circuit.consecutiveFailures,
                    until: widget.circuit.pausedUntil
                      ? formatDateTime(widget.circuit.pausedUntil, locale)
                      : '—',
                  })}
            </dd>
          </dl>
          <WebhookDeliveries
            deliveries={widget.failing}
            onChanged={health.reload}
            heading="failingNow"
            within={`webhooks-${widget.widgetId}`}
          />
        </section>
      ))}
    </>
  );
}
