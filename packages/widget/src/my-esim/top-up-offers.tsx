/**
 * @module
 * Top-up on the eSIM's own view: the offers at retail prices when the eSIM can take one, otherwise an honest
 * word for each of the contract's reasons (`not_supported`, `not_enabled`, `compatibility_unverified`,
 * `temporarily_unavailable`, `profile_ineligible`), with "check again" where asking again may help.
 * Choosing an offer goes through the same quote → checkout → progress steps as a first purchase.
 */
import type { EsimTopUpView, TopUpStatus } from '@esim-embed/shared';
import { useWidget } from '../flow/widget-context';
import { formatPlanData, formatPrice } from '../i18n/formatters';
import type { MessageKey } from '../i18n/messages';
import * as installCss from '../install/install-step.css';
import * as steps from '../steps/steps.css';
import * as controls from '../ui/controls.css';
import { PlanSummary } from '../ui/plan-summary';

/** What the traveller reads for each top-up status other than `available`. */
export const TOP_UP_STATUS_MESSAGES: Record<Exclude<TopUpStatus, 'available'>, MessageKey> = {
  not_supported: 'topUpNotSupported',
  not_enabled: 'topUpNotEnabled',
  compatibility_unverified: 'topUpCompatibilityUnverified',
  temporarily_unavailable: 'topUpTemporarilyUnavailable',
  profile_ineligible: 'topUpProfileIneligible',
};

/** Props of `TopUpOffers`. */
export interface TopUpOffersProps {
  esimId: string;
  manageToken: string;
  topUp: EsimTopUpView;
  /** Asks the BFF again (for a status that may change). */
  checkAgain(): void;
}

/** The eSIM's top-up offers, or why there are none. */
export function TopUpOffers({ esimId, manageToken, topUp, checkAgain }: TopUpOffersProps) {
  const { t, locale, config, go } = useWidget();
  const money = (offer: EsimTopUpView['offers'][number]) =>
    formatPrice(offer.price, locale, config.wholeRubOnly);
  const available = topUp.status === 'available';

  return (
    <div class={installCss.installSection} data-top-up-status={topUp.status}>
      <h3>{t('topUpHeading')}</h3>
      {available && topUp.offers.length > 0 && (
        <>
          <p>{t('topUpIntro')}</p>
          <ul class={steps.planList}>
            {topUp.offers.map((offer) => {
              const name = `${formatPlanData(offer, locale)} · ${t('days', { n: offer.durationDays })}`;
              return (
                <li key={offer.offerId} class={controls.card} part="plan">
                  <PlanSummary plan={offer} price={money(offer)} />
                  <div class={controls.actions}>
                    <button
                      type="button"
                      class={controls.primaryButton}
                      part="button primary-button"
                      aria-label={t('topUpChooseLabel', { plan: name, price: money(offer) })}
                      onClick={() =>
                        go({
                          name: 'checkout',
                          plan: offer,
                          destination: offer.destination,
                          topUp: { esimId, manageToken },
                        })
                      }
                    >
                      {t('topUpChoose')}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {available && topUp.offers.length === 0 && <p>{t('topUpNone')}</p>}
      {topUp.status !== 'available' && (
        <p>{t(TOP_UP_STATUS_MESSAGES[topUp.status], { brand: config.brand.displayName })}</p>
      )}
      {!available && topUp.retryable && (
        <button type="button" class={controls.button} part="button" onClick={checkAgain}>
          {t('checkAgain')}
        </button>
      )}
    </div>
  );
}
