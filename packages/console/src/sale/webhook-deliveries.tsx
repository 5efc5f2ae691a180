/**
 * @module
 * Webhook deliveries with each attempt and the endpoint's answer, and — for a role that may — a button that sends
 * one again. A sale's page lists its deliveries with it; the webhooks' page the ones failing now.
 */
import type { PartnerWebhookDelivery } from '@esim-embed/shared';
import { useId } from 'preact/hooks';
import { useConsole } from '../app/console-context';
import { useWrite } from '../hooks/use-write';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatDateTime } from '../ui/formatters';
import { DataTable } from '../ui/table-scroll';

/** The deliveries' table; `onChanged` after a resend, to read the page again. */
export function WebhookDeliveries({
  deliveries,
  onChanged,
  heading = 'deliveries',
  within,
}: {
  deliveries: PartnerWebhookDelivery[];
  onChanged: () => void;
  heading?: 'deliveries' | 'failingNow';
  /** The id of the heading of the part it is in, named with its own (one per widget on the webhooks' page). */
  within?: string;
}) {
  const { t } = useConsole();
  const headingId = useId();
  return (
    <section class={controls.card} aria-labelledby={within ? `${within} ${headingId}` : headingId}>
      <h2 id={headingId}>{t(heading)}</h2>
      {deliveries.length === 0 ? (
        <p>{t(heading === 'deliveries' ? 'noDeliveries' : 'noFailing')}</p>
      ) : (
        <DataTable
          label={t(heading)}
          columns={[
            t('event'),
            t('status'),
            t('attempts'),
            <span class={controls.visuallyHidden}>{t('resend')}</span>,
          ]}
        >
          {deliveries.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} onChanged={onChanged} />
          ))}
        </DataTable>
      )}
    </section>
  );
}

function DeliveryRow({ delivery, onChanged }: { delivery: PartnerWebhookDelivery; onChanged: () => void }) {
  const { client, locale, t, can } = useConsole();
  const resend = useWrite<PartnerWebhookDelivery>();
  return (
    <tr data-delivery={delivery.id}>
      <td>
        {delivery.type}
        <div class={`${controls.muted} ${controls.code}`}>{delivery.id}</div>
      </td>
      <td>
        <span class={controls.tag}>{t(`delivery_${delivery.status}`)}</span>
      </td>
      <td>
        <ul>
          {delivery.attempts.map((attempt) => (
            <li key={attempt.at}>
              {t('attemptAnswer', {
                at: formatDateTime(attempt.at, locale),
                answer:
                  attempt.httpStatus === null
                    ? t('noAnswer', { error: attempt.error ?? '?' })
                    : `HTTP ${attempt.httpStatus}`,
              })}
            </li>
          ))}
        </ul>
      </td>
      <td>
        {can('support') && (
          <button
            class={controls.button}
            type="button"
            disabled={resend.busy}
            onClick={() =>
              resend
                .run(() => client.call('resendWebhookDelivery', { params: { id: delivery.id }, body: {} }))
                .then(onChanged)
            }
          >
            {t('resend')}
          </button>
        )}
        {resend.error !== undefined && <ErrorNotice error={resend.error} />}
        {resend.result && (
          <p class={controls.successNotice} role="status">
            {t('resent')}
          </p>
        )}
      </td>
    </tr>
  );
}
