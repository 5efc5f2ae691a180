/**
 * @module
 * "Send to my phone": for a traveller on a computer, a delivery link that opens the installation on the
 * phone, shown as its own QR code and as a link to copy.
 */
import type { WidgetDeliveryLink } from '@esim-embed/shared';
import { useRef, useState } from 'preact/hooks';
import { newIdempotencyKey } from '../api/api-client';
import type { CheckoutHandle } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';
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
  const { client, t, locale } = useWidget();
  const [link, setLink] = useState<WidgetDeliveryLink | null>(null);
  // The same key for every retry of this request: a retried create returns the same link.
  const key = useRef(newIdempotencyKey('delivery-link'));
  const create = useWriteAction(async () => {
    setLink(await client.createDeliveryLink(handle.id, handle.clientSecret, key.current));
  });

  return (
    <div class={css.installSection}>
      <h3>{t('sendToPhone')}</h3>
      <p>{t('sendToPhoneIntro')}</p>
      {!link && (
        <button
          type="button"
          class={controls.button}
          part="button"
          disabled={create.busy}
          aria-busy={create.busy}
          onClick={create.run}
        >
          {t('sendToPhone')}
        </button>
      )}
      {create.error !== null && (
        <ErrorNotice error={create.error} failures={create.failures} actions={{ retry: create.run }} />
      )}
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
