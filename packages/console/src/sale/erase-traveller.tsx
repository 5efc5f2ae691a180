/** @module Erasing the traveller's data (admins only), after a confirmation: the partner API's erasure job. */
import type { PrivacyErasure } from '@esim-embed/shared';
import { useState } from 'preact/hooks';
import { useConsole } from '../app/console-context';
import { useWrite } from '../hooks/use-write';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';

/** The erasure section. */
export function EraseTraveller({ checkoutId, onChanged }: { checkoutId: string; onChanged: () => void }) {
  const { client, t } = useConsole();
  const [confirming, setConfirming] = useState(false);
  const erase = useWrite<PrivacyErasure>();
  return (
    <section class={controls.card} aria-labelledby="sale-erase">
      <h2 id="sale-erase">{t('erase')}</h2>
      {confirming ? (
        <div role="alertdialog" aria-labelledby="sale-erase-confirm">
          <p id="sale-erase-confirm">{t('eraseConfirm')}</p>
          <div class={controls.row}>
            <button
              class={controls.primaryButton}
              type="button"
              disabled={erase.busy}
              onClick={() =>
                erase
                  .run(() => client.call('eraseTraveller', { params: { checkoutId }, body: {} }))
                  .then(() => {
                    setConfirming(false);
                    onChanged();
                  })
              }
            >
              {t('erase')}
            </button>
            <button class={controls.button} type="button" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </button>
          </div>
        </div>
      ) : (
        <button class={controls.button} type="button" onClick={() => setConfirming(true)}>
          {t('erase')}
        </button>
      )}
      {erase.error !== undefined && <ErrorNotice error={erase.error} />}
      {erase.result && (
        <p class={controls.successNotice} role="status">
          {t('erased', { status: erase.result.status })}
        </p>
      )}
    </section>
  );
}
