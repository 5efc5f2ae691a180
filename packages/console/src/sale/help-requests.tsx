/**
 * @module
 * A sale's help requests (cancellation, refund, reissue) with their status, and — for support and admins — the
 * form that asks for one; the reason names which of the three it is.
 */
import type { PartnerActionRequest } from '@esim-embed/shared';
import type { ConsoleSalePage } from '@esim-embed/shared/console';
import { useConsole } from '../app/console-context';
import { useWrite } from '../hooks/use-write';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { formatDateTime } from '../ui/formatters';

const REASONS = __CONSOLE_CONTRACT__.actionReasons;

/** The help requests' section. */
export function HelpRequests({ page, onChanged }: { page: ConsoleSalePage; onChanged: () => void }) {
  const { client, locale, t, can } = useConsole();
  const ask = useWrite<PartnerActionRequest>();

  function submit(event: Event) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const detail = String(data.get('reasonDetail') ?? '').trim();
    ask
      .run(() =>
        client.call('requestHelp', {
          params: { checkoutId: page.checkout.id },
          body: { reasonCode: String(data.get('reasonCode')), ...(detail ? { reasonDetail: detail } : {}) },
        }),
      )
      .then(onChanged);
  }

  return (
    <section class={controls.card} aria-labelledby="sale-help">
      <h2 id="sale-help">{t('helpRequests')}</h2>
      {page.helpRequests.length === 0 ? (
        <p>{t('noHelpRequests')}</p>
      ) : (
        <ul>
          {page.helpRequests.map((request) => (
            <li key={request.id} data-help-request={request.id}>
              {t(`type_${request.type}`)}: <span class={controls.tag}>{t(`request_${request.status}`)}</span>{' '}
              <span class={controls.muted}>
                {formatDateTime(request.createdAt, locale)} · {t(`reason_${request.reason.code}`)}
                {request.resolution ? ` · ${request.resolution.code}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {can('support') && page.checkout.esimId && (
        <form class={controls.form} onSubmit={submit}>
          <h3>{t('askHelp')}</h3>
          <label class={controls.field}>
            {t('reason')}
            <select class={controls.input} name="reasonCode">
              {REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {t(`reason_${reason}`)}
                </option>
              ))}
            </select>
          </label>
          <label class={controls.field}>
            {t('reasonDetail')}
            <textarea class={controls.input} name="reasonDetail" maxLength={1000} rows={2} />
          </label>
          {ask.error !== undefined && <ErrorNotice error={ask.error} />}
          {ask.result && (
            <p class={controls.successNotice} role="status">
              {t('done')}
            </p>
          )}
          <button class={controls.primaryButton} type="submit" disabled={ask.busy}>
            {t('sendRequest')}
          </button>
        </form>
      )}
    </section>
  );
}
