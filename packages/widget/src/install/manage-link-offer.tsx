/**
 * @module
 * The way back after a purchase: a manage link for the partner's page (the page's address with the manage
 * token in its fragment, `#esim=<widget id>.<token>`, so it never reaches a server log; the widget id keeps
 * the other widgets of a page with several on their store; one link per purchase, the same after a reload) that reopens the widget on
 * this eSIM's own view: data left, top-up, help. Offered as actions (copy, share), the address itself shown on
 * request, and given to the host page through `esim-manage-link`, so that the partner can keep it for the traveller.
 */
import type { ManageLink } from '@esim-embed/shared';
import { useEffect, useState } from 'preact/hooks';
import { EsimManageLinkEvent } from '../events';
import type { CheckoutHandle } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';
import { formatDateTime } from '../i18n/formatters';
import * as controls from '../ui/controls.css';
import * as css from './install-step.css';
import { LinkActions } from './link-actions';
import { manageLinkFor } from './manage-link-address';

/** Props of `ManageLinkOffer`. */
export interface ManageLinkOfferProps {
  handle: CheckoutHandle;
  /** Called once the link exists (the help panel then knows the eSIM's id). */
  onCreated(link: ManageLink): void;
}

/** Creates the manage link of a ready purchase and shows it. */
export function ManageLinkOffer({ handle, onCreated }: ManageLinkOfferProps) {
  const { client, t, locale, config, emit } = useWidget();
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null);

  const create = useWriteAction(async () => {
    const created = await client.createManageLink(handle.id, handle.clientSecret);
    const url = manageLinkFor(globalThis.location.href, created.manageToken, config.widgetId);
    setLink({ url, expiresAt: created.expiresAt });
    onCreated(created);
    emit(
      new EsimManageLinkEvent({
        url,
        esimId: created.esimId,
        manageLinkId: created.id,
        expiresAt: created.expiresAt,
      }),
    );
  });
  const { run } = create;
  // Asked for as soon as the purchase is ready: the host page hears of the link without a click.
  useEffect(() => void run(), []);
  const failed = create.error !== null;

  return (
    <div class={css.installSection}>
      <h3>{t('manageLinkHeading')}</h3>
      <div aria-live="polite">
        {link && (
          <>
            <p>{t('manageLinkIntro')}</p>
            <LinkActions url={link.url} />
            <p class={controls.hint}>
              {t('manageLinkValidUntil', { time: formatDateTime(link.expiresAt, locale) })}
            </p>
          </>
        )}
        {failed && <p>{t('manageLinkFailed')}</p>}
      </div>
      {!link && !failed && <span class={controls.spinner} aria-hidden="true" />}
      {failed && (
        <button type="button" class={controls.button} part="button" onClick={create.run}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}
