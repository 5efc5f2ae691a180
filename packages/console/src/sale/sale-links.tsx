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
  /** The button that makes one kind of link, shown below once made. */
  const linkButton = (label: string, make: () => Promise<string>) => (
    <button class={controls.button} type="button" disabled={link.busy} onClick={() => link.run(make)}>
      {label}
    </button>
  );
  return (
    <section class={controls.card} aria-labelledby="sale-links">
      <h2 id="sale-links">{t('links')}</h2>
      <div class={controls.row}>
        {linkButton(t('deliveryLink'), async () => {
          const answer = await client.call('createDeliveryLink', { params: { checkoutId }, body: {} });
          return answer.url;
        })}
        {linkButton(t('manageLink'), async () => {
          const answer = await client.call('createManageLink', { params: { checkoutId }, body: {} });
          // The partner's own page opens it: its address followed by this fragment.
          return `#${__CONSOLE_CONTRACT__.manageTokenParam}=${answer.widgetId}.${answer.manageToken}`;
        })}
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
