/**
 * @module
 * "Send to my phone": for a traveller on a computer, a delivery link that opens the installation on the
 * phone, shown as its own QR code and as a link to copy.
 */
import type { WidgetDeliveryLink } from '@esim-embed/shared';
import { useRef, useState } from 'preact/hooks';
import { newIdempotencyKey } from '../api/api-client';
import type { CheckoutHandle } from '../app/flow-steps';
import { useWidget } from '../app/widget-context';
import { formatDateTime } from '../i18n/formatters';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { CopyField } from './copy-field';
import * as css from './install-step.css';
import { QrCode } from './qr-code';

/** Props of `SendToPhone`. */
export interface SendToPhoneProps {
  handle: CheckoutHandle;
}

/** Creates and shows a delivery link. */
export function SendToPhone({ handle }: SendToPhoneProps) {
  const { client, t, locale, report } = useWidget();
  const [link, setLink] = useState<WidgetDeliveryLink | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // The same key for every retry of this request: a retried create returns the same link.
  const key = useRef(newIdempotencyKey('delivery-link'));

  async function create() {
    setBusy(true);
    setError(null);
    try {
      setLink(await client.createDeliveryLink(handle.id, handle.clientSecret, key.current));
    } catch (failure) {
      if (client.closed) return;
      setError(failure);
      report(failure);
    }
    setBusy(false);
  }

  return (
    <div class={css.installSection}>
      <h3>{t('sendToPhone')}</h3>
      <p>{t('sendToPhoneIntro')}</p>
      {!link && (
        <button
          type="button"
          class={controls.button}
          part="button"
          disabled={busy}
          aria-busy={busy}
          onClick={create}
        >
          {t('sendToPhone')}
        </button>
      )}
      {error !== null && <ErrorNotice error={error} actions={{ retry: create }} />}
      {link && (
        <div aria-live="polite">
          <div class={css.qrFrame}>
            <QrCode value={link.url} label={t('linkQrLabel')} size={180} />
          </div>
          <CopyField label={t('linkLabel')} value={link.url} />
          <p class={controls.hint}>{t('linkValidUntil', { time: formatDateTime(link.expiresAt, locale) })}</p>
        </div>
      )}
    </div>
  );
}
