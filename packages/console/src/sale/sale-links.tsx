/**
 * @module
 * Links for the traveller (support and admins): a delivery link (the installation, for a few views) and a manage
 * link ("my eSIM"). Each is shown once, here, to be sent on; the console keeps neither.
 */
import { useConsole } from '../app/console-context';
import { useWrite } from '../hooks/use-write';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';

/** The links' section. */
export function SaleLinks({ checkoutId }: { checkoutId: string }) {
  const { client, t } = useConsole();
  const link = useWrite<string>();
  return (
    <section class={controls.card} aria-labelledby="sale-links">
      <h2 id="sale-links">{t('links')}</h2>
      <div class={controls.row}>
        <button
          class={controls.button}
          type="button"
          disabled={link.busy}
          onClick={() =>
            link.run(async () => {
              const made = await client.call('createDeliveryLink', { params: { checkoutId }, body: {} });
              return made.url;
            })
          }
        >
          {t('deliveryLink')}
        </button>
        <button
          class={controls.button}
          type="button"
          disabled={link.busy}
          onClick={() =>
            link.run(async () => {
              const made = await client.call('createManageLink', { params: { checkoutId }, body: {} });
              // The partner's own page opens it: its address followed by this fragment.
              return `#${__CONSOLE_CONTRACT__.manageTokenParam}=${made.widgetId}.${made.manageToken}`;
            })
          }
        >
          {t('manageLink')}
        </button>
      </div>
      {link.error !== undefined && <ErrorNotice error={link.error} />}
      {link.result && (
        <p role="status">
          {t('linkMade')} <output class={controls.code}>{link.result}</output>
        </p>
      )}
    </section>
  );
}
