/**
 * @module
 * Steps 3 and 4: the chosen plan with its held price and the countdown of the hold (quoting, `use-quote.ts`),
 * a notice when the price moved, the device check (loaded lazily, `device-check-slot.tsx`), then the checkout
 * form (`checkout-form.tsx`). A top-up of an eSIM (from its own view) goes through this same step with the eSIM's
 * manage token. After a reload, a create kept unsettled opens this step again (`pending-create.ts`), at the price it
 * was sent at, and is settled before anything else.
 */
import type { Plan } from '@esim-embed/shared';
import { useState } from 'preact/hooks';
import { type DestinationRef, pendingCreateKey, type TopUpOrigin } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { formatPrice } from '../i18n/formatters';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { PlanSummary } from '../ui/plan-summary';
import { StepHeading } from '../ui/step-heading';
import { CheckoutForm } from './checkout-form';
import { DeadlineCountdown } from './deadline-countdown';
import { DeviceCheckSlot } from './device-check-slot';
import { keptCreate } from './pending-create';
import * as css from './steps.css';
import { useQuote } from './use-quote';

/** Props of `CheckoutStep`. */
export interface CheckoutStepProps {
  plan: Plan;
  destination: DestinationRef;
  /** A top-up of this eSIM rather than a new eSIM. */
  topUp?: TopUpOrigin | undefined;
  /** A create kept from before a reload is settled first, at the price it was sent at (`pending-create.ts`). */
  resume?: boolean | undefined;
}

/** The held price and the checkout form. */
export function CheckoutStep({ plan, destination, topUp, resume }: CheckoutStepProps) {
  const { client, t, locale, config, go } = useWidget();
  const [held] = useState(() => {
    const kept = resume ? keptCreate(pendingCreateKey(config.widgetId, client.apiBase)) : null;
    return kept === null || kept === 'unconfirmed' ? undefined : kept.quote;
  });
  const quoting = useQuote(plan, topUp, held);
  const { quote, requote } = quoting;
  const money = (value: Plan['price']) => formatPrice(value, locale, config.wholeRubOnly);
  const backToPlans = () =>
    go(topUp ? { name: 'my-esim', manageToken: topUp.manageToken } : { name: 'plans', destination });

  return (
    <section>
      <button type="button" class={controls.linkButton} part="button" onClick={backToPlans}>
        ← {t('back')}
      </button>
      <StepHeading>{t(topUp ? 'topUpHeading' : 'checkoutHeading')}</StepHeading>
      <div class={controls.card}>
        <PlanSummary plan={plan} destination={destination} price={money(quoting.price)} />
        <div aria-live="polite">
          {quote ? (
            <DeadlineCountdown
              key={quote.id}
              expiresAt={quote.expiresAt}
              message="priceHeld"
              onExpired={requote}
            />
          ) : (
            !quoting.error && (
              <p class={css.secondary} aria-busy="true">
                <span class={controls.spinner} aria-hidden="true" />
                {t(quoting.requoting ? 'requoting' : 'quoting')}
              </p>
            )
          )}
        </div>
      </div>
      <div aria-live="polite">
        {quoting.priceChange && (
          <p class={controls.infoNotice} role="status">
            {t('priceChanged', { old: money(quoting.priceChange.from), new: money(quoting.priceChange.to) })}
          </p>
        )}
      </div>
      {quoting.error !== null && (
        <ErrorNotice
          error={quoting.error}
          failures={quoting.failures}
          actions={{ retry: requote, requote, other_plan: backToPlans }}
        />
      )}
      {/* A top-up goes on an eSIM the traveller already has: no device to check. */}
      {config.deviceCheck && !topUp && <DeviceCheckSlot />}
      <CheckoutForm
        quote={quote}
        price={quoting.price}
        plan={plan}
        destination={destination}
        topUp={topUp}
        resume={held !== undefined}
        requote={requote}
        otherPlan={backToPlans}
      />
    </section>
  );
}
