/**
 * @module
 * Step 2: the plans of one destination: data (or unlimited, or per day), validity, retail price, 5G,
 * hotspot, top-up, networks and when validity starts; sorted by price or by data.
 */
import { comparePlans, type Plan, type PlanOrder } from '@esim-embed/shared';
import { useState } from 'preact/hooks';
import type { DestinationRef } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { formatPlanData, formatPrice } from '../i18n/formatters';
import type { MessageKey } from '../i18n/messages';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { PlanSummary } from '../ui/plan-summary';
import { StepHeading } from '../ui/step-heading';
import { useRemoteData } from './remote-data';
import * as css from './steps.css';

/** The plans in the chosen order, by the one rule the BFF ranks them with (`comparePlans`). */
export function sortPlans(plans: readonly Plan[], order: PlanOrder): Plan[] {
  return [...plans].sort(comparePlans(order));
}

const ACTIVATION: Record<Plan['activation']['startsAt'], MessageKey> = {
  purchase: 'startsPurchase',
  first_installation: 'startsInstallation',
  first_connection: 'startsConnection',
  unknown: 'startsUnknown',
};

/** Props of `PlansStep`. */
export interface PlansStepProps {
  destination: DestinationRef;
}

/** The plans of a destination. */
export function PlansStep({ destination }: PlansStepProps) {
  const { client, locale, t, go } = useWidget();
  const [data, reload] = useRemoteData(
    () => client.plans(destination.code, locale),
    `${destination.code} ${locale}`,
  );
  const [order, setOrder] = useState<PlanOrder>('price');
  const known = data.state === 'loaded' ? data.value.destination : null;
  const place = known ? { code: known.code, name: known.name, flag: known.flag } : destination;

  return (
    <section>
      <button
        type="button"
        class={controls.linkButton}
        part="button"
        onClick={() => go({ name: 'destinations' })}
      >
        ← {t('back')}
      </button>
      <StepHeading>
        {place.flag && <span aria-hidden="true">{place.flag} </span>}
        {t('plansHeading', { destination: place.name })}
      </StepHeading>
      {data.state === 'loading' && (
        <p aria-busy="true">
          <span class={controls.spinner} aria-hidden="true" />
          {t('loading')}
        </p>
      )}
      {data.state === 'failed' && (
        <ErrorNotice
          error={data.error}
          failures={data.failures}
          actions={{ retry: reload, other_plan: () => go({ name: 'destinations' }) }}
        />
      )}
      {data.state === 'loaded' && data.value.plans.length === 0 && <p>{t('noPlans')}</p>}
      {data.state === 'loaded' && data.value.plans.length > 0 && (
        <>
          <div class={css.toolbar}>
            <label for="esim-plan-order">{t('sortBy')}</label>
            <select
              id="esim-plan-order"
              class={css.select}
              part="input"
              value={order}
              onChange={(event) => setOrder(event.currentTarget.value as PlanOrder)}
            >
              <option value="price">{t('sortPrice')}</option>
              <option value="data">{t('sortData')}</option>
            </select>
          </div>
          <ul class={css.planList}>
            {sortPlans(data.value.plans, order).map((plan) => (
              <PlanCard
                key={plan.offerId}
                plan={plan}
                onChoose={() => go({ name: 'checkout', plan, destination: place })}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function PlanCard({ plan, onChoose }: { plan: Plan; onChoose: () => void }) {
  const { t, locale, config } = useWidget();
  const price = formatPrice(plan.price, locale, config.wholeRubOnly);
  const data = formatPlanData(plan, locale);
  const days = t('days', { n: plan.durationDays });
  return (
    <li class={controls.card} part="plan">
      <PlanSummary plan={plan} price={price} />
      <ul class={css.tags}>
        {plan.fiveG === 'supported' && <li class={css.tag}>{t('fiveG')}</li>}
        {plan.tethering === 'supported' && <li class={css.tag}>{t('hotspot')}</li>}
        {plan.topUp === 'guaranteed' && <li class={css.tag}>{t('topUp')}</li>}
      </ul>
      {plan.networks.length > 0 && (
        <p class={css.secondary}>{t('networks', { list: plan.networks.join(', ') })}</p>
      )}
      <p class={css.secondary}>
        {t(ACTIVATION[plan.activation.startsAt])}
        {plan.activation.windowDays !== null && (
          <> · {t('activationWindow', { n: plan.activation.windowDays })}</>
        )}
      </p>
      <div class={controls.actions}>
        <button
          type="button"
          class={controls.primaryButton}
          part="button primary-button"
          aria-label={t('choosePlanLabel', { plan: `${data}, ${days}`, price })}
          onClick={onChoose}
        >
          {t('choosePlan')}
        </button>
      </div>
    </li>
  );
}
