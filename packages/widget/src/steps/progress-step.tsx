/**
 * @module
 * Step 5: the order's journey (payment, placing, issuing, ready), polled with backoff and honest about
 * waiting. In `partner_confirm` mode it first waits, visibly, for the partner to confirm the payment, with
 * the time left to pay, and lets the traveller cancel or cancel for another plan (`esim-cancel`); a payment the
 * partner reports declined is said so (`esim-payment-declined`), with no spinner (nothing is under way until the
 * traveller acts) and one way to pay again: another card to try here (`esim-checkout` again, for the next
 * attempt), or, when the element's `payment-retry` is `page`, the host page's own payment form; from the third
 * decline of one checkout it says how many and points to the partner's support, and at the BFF's cap of declines
 * it offers no other card. A checkout that ends without an eSIM says what happens to the money: in
 * `partner_confirm` the partner took it and refunds it (`esim-failed` tells the page), so the widget never claims
 * the traveller was not charged. It resumes
 * after a page reload from the checkout kept in `sessionStorage`, and tells the host page again about a
 * checkout that still awaits payment. A top-up has no installation: when it is ready the traveller goes back
 * to the eSIM's own view.
 *
 * Over 300 lines: the journey, the wait for payment, the declines and the endings share one polled checkout;
 * their tables sit beside it.
 */
import { type Checkout, type CheckoutStatus, MAX_DECLINED_PAYMENT_ATTEMPTS } from '@esim-embed/shared';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorCodeOf, retryWorth } from '../api/api-error';
import {
  EsimCancelEvent,
  type EsimCancelReason,
  EsimFailedEvent,
  EsimPaymentDeclinedEvent,
  EsimPurchaseEvent,
} from '../events';
import { type CheckoutHandle, forgetCheckout } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';
import type { MessageKey } from '../i18n/messages';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { StepHeading } from '../ui/step-heading';
import { supportHref } from '../ui/support-href';
import { checkoutEvent } from './checkout-event';
import { DeadlineCountdown } from './deadline-countdown';
import * as css from './steps.css';

/** Delays between status checks, in ms: quick at first, then every 8 s. */
export const POLL_DELAYS = [1000, 1500, 2000, 3000, 5000, 8000] as const;
/** From this many declines of one checkout the traveller is told so plainly and shown the partner's support. */
export const DECLINES_BEFORE_SUPPORT = 3;
/** After this long the step says that it takes longer than usual. */
const SLOW_AFTER_MS = 60_000;

const JOURNEY: readonly { status: CheckoutStatus; message: MessageKey }[] = [
  { status: 'awaiting_payment', message: 'statusAwaitingPayment' },
  { status: 'placing', message: 'statusPlacing' },
  { status: 'provisioning', message: 'statusProvisioning' },
  { status: 'ready', message: 'statusReady' },
];

/** How a checkout that gives no eSIM ends: a heading that names the end, and what it means. */
const ENDINGS: Partial<Record<CheckoutStatus, { heading: MessageKey; message: MessageKey }>> = {
  failed: { heading: 'headingFailed', message: 'statusFailed' },
  expired: { heading: 'headingExpired', message: 'statusExpired' },
  cancelled: { heading: 'headingCancelled', message: 'statusCancelled' },
};

/**
 * In `partner_confirm` the partner's server charged before it confirmed: an ending says that the partner refunds
 * (it does on `checkout.failed`, `.expired`, `.cancelled`), never that nothing was charged.
 */
const PARTNER_PAYMENT_WORDING: Partial<Record<MessageKey, MessageKey>> = {
  statusFailed: 'statusFailedRefund',
  statusExpired: 'statusExpiredRefund',
  statusCancelled: 'statusCancelledRefund',
};

/** A top-up says what it does: it adds data, it issues nothing. */
const TOP_UP_WORDING: Partial<Record<MessageKey, MessageKey>> = {
  statusProvisioning: 'statusToppingUp',
  statusReady: 'statusToppedUp',
  statusFailed: 'statusTopUpFailed',
  statusFailedRefund: 'statusTopUpFailedRefund',
};

/** Props of `ProgressStep`. */
export interface ProgressStepProps {
  handle: CheckoutHandle;
  /** The checkout was recalled after a page reload rather than just created. */
  resumed?: boolean | undefined;
}

/** Waits for the checkout to become ready, then shows the installation. */
export function ProgressStep({ handle, resumed = false }: ProgressStepProps) {
  const { client, t, config, go, emit, report, paymentRetry } = useWidget();
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [slow, setSlow] = useState(false);
  const [round, setRound] = useState(0);
  const attempt = useRef(0);
  // Whether the first status read still has to tell the host page about a resumed checkout awaiting payment.
  const announce = useRef(resumed);
  // Set when the traveller cancelled here: the way forward then takes the focus the cancel button had.
  const cancelledHere = useRef(false);
  const startOverButton = useRef<HTMLButtonElement>(null);
  // The declined attempts the page was told of (`esim-payment-declined`), and those the traveller moved past.
  const declinesTold = useRef(0);
  const [declinesSeen, setDeclinesSeen] = useState(0);

  const topUp = handle.topUp;
  const startOver = useCallback(() => {
    forgetCheckout(config.widgetId);
    go(topUp ? { name: 'my-esim', manageToken: topUp.manageToken } : { name: 'destinations' });
  }, [config.widgetId, topUp]);

  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies(round): a retry (a new round) starts the checks again
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      try {
        const latest = await client.checkout(handle.id, handle.clientSecret);
        if (!current) return;
        setCheckout(latest);
        setError(null);
        // After a reload the host page has lost its payment form: `esim-checkout` again lets it reopen it.
        if (announce.current && latest.status === 'awaiting_payment') emit(checkoutEvent(latest, true));
        announce.current = false;
        if (latest.status === 'awaiting_payment' && latest.declinedAttempts > declinesTold.current) {
          declinesTold.current = latest.declinedAttempts;
          emit(
            new EsimPaymentDeclinedEvent({
              checkoutId: latest.id,
              kind: latest.kind ?? 'issue',
              esimId: latest.esimId ?? null,
              attempt: latest.declinedAttempts,
              nextAttempt: latest.declinedAttempts + 1,
            }),
          );
        }
        if (latest.status === 'ready') {
          // A top-up has no installation: the traveller goes back to the eSIM's own view.
          const installation = topUp ? null : await client.installation(handle.id, handle.clientSecret);
          if (!current) return;
          if (topUp) forgetCheckout(config.widgetId);
          emit(
            new EsimPurchaseEvent({
              checkoutId: latest.id,
              kind: topUp ? 'top_up' : 'issue',
              esimId: topUp ? topUp.esimId : (latest.esimId ?? null),
              amount: latest.amount,
            }),
          );
          if (topUp) go({ name: 'my-esim', manageToken: topUp.manageToken, toppedUp: true });
          else if (installation) go({ name: 'install', handle, checkout: latest, installation });
          return;
        }
        if (latest.status in ENDINGS) {
          forgetCheckout(config.widgetId);
          if (latest.status === 'failed') {
            emit(
              new EsimFailedEvent({
                checkoutId: latest.id,
                kind: latest.kind ?? 'issue',
                esimId: latest.esimId ?? null,
                mode: latest.mode,
                code: latest.failure?.code ?? 'unknown',
                retryable: latest.failure?.retryable ?? false,
                refundedBy: latest.mode === 'partner_confirm' ? 'partner' : null,
              }),
            );
          }
          return;
        }
      } catch (failure) {
        if (!current || client.closed) return;
        setError(failure);
        report(failure);
        // Only a passing failure is worth checking again by itself; the rest wait for the traveller.
        if (retryWorth(failure) === null) return;
      }
      const delay = POLL_DELAYS[Math.min(attempt.current++, POLL_DELAYS.length - 1)];
      timer = setTimeout(check, delay);
    };
    check();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [handle, topUp, config.widgetId, round]);

  const retry = useCallback(() => {
    attempt.current = 0;
    setRound((value) => value + 1);
  }, []);

  /** The traveller leaves a checkout that awaits payment: it is cancelled, then they start over or pick again. */
  const leave = useWriteAction(
    async (reason: EsimCancelReason) => {
      setError(null);
      let cancelled: Checkout;
      try {
        cancelled = await client.cancelCheckout(handle.id, handle.clientSecret);
      } catch (failure) {
        // Paid in the meantime (the partner confirmed first): the purchase goes on, and the step follows it.
        if (errorCodeOf(failure) !== 'invalid_transition') throw failure;
        retry();
        return;
      }
      forgetCheckout(config.widgetId);
      emit(
        new EsimCancelEvent({
          checkoutId: cancelled.id,
          kind: cancelled.kind ?? 'issue',
          esimId: cancelled.esimId ?? null,
          reason,
        }),
      );
      if (reason === 'other_plan') {
        go(
          topUp
            ? { name: 'my-esim', manageToken: topUp.manageToken }
            : { name: 'plans', destination: cancelled.plan.destination },
        );
        return;
      }
      cancelledHere.current = true;
      setCheckout(cancelled);
      // A status read already under way would show the payment still awaited: read again instead.
      retry();
    },
    // One notice for the step: a failed cancel shows where a failed status read does, and a read clears it.
    { onFailure: setError },
  );

  const status = checkout?.status ?? null;
  const ending = status ? ENDINGS[status] : undefined;
  const awaitingPayment = status === 'awaiting_payment';
  const journey = JOURNEY.filter(
    (entry) => entry.status !== 'awaiting_payment' || checkout?.mode !== 'direct',
  );
  const reached = journey.findIndex((entry) => entry.status === status);
  const partnerPaid = checkout?.mode === 'partner_confirm';
  const declined = checkout !== null && awaitingPayment && checkout.declinedAttempts > declinesSeen;
  const declines = checkout?.declinedAttempts ?? 0;
  // The BFF starts no payment after its cap: another card would be refused.
  const declinesExhausted = declines >= MAX_DECLINED_PAYMENT_ATTEMPTS;
  const support = declines >= DECLINES_BEFORE_SUPPORT ? supportHref(config.brand) : null;
  // One way to pay again: this button, unless the host page's payment form takes the next attempt itself.
  const offerAnotherCard = declined && !declinesExhausted && paymentRetry === 'widget';
  const say = (key: MessageKey) => {
    const paid = (partnerPaid && PARTNER_PAYMENT_WORDING[key]) || key;
    return t((topUp && TOP_UP_WORDING[paid]) || paid, { brand: config.brand.displayName });
  };

  /** The traveller tries another card: the page opens its payment form again, for the next attempt. */
  const tryAnotherCard = useCallback(() => {
    if (checkout === null) return;
    setDeclinesSeen(checkout.declinedAttempts);
    emit(checkoutEvent(checkout, false));
  }, [checkout]);

  useEffect(() => {
    if (ending && cancelledHere.current) startOverButton.current?.focus();
  }, [ending]);

  return (
    <section>
      <StepHeading>
        {t(
          ending
            ? ending.heading
            : declined
              ? 'headingDeclined'
              : awaitingPayment
                ? 'paymentHeading'
                : 'progressHeading',
        )}
      </StepHeading>
      {checkout && awaitingPayment && (
        <>
          {declined ? (
            <p role="alert">
              {declinesExhausted
                ? t('paymentDeclinedLimit', { brand: config.brand.displayName })
                : declines >= DECLINES_BEFORE_SUPPORT
                  ? t('paymentDeclinedAgain', { count: declines, brand: config.brand.displayName })
                  : t('paymentDeclined')}
            </p>
          ) : (
            <p>{t('paymentWaiting', { brand: config.brand.displayName })}</p>
          )}
          {declined && support && (
            <p>
              <a class={controls.link} href={support} target="_blank" rel="noopener noreferrer">
                {t('contactSupport', { brand: config.brand.displayName })}
              </a>
            </p>
          )}
          <DeadlineCountdown expiresAt={checkout.expiresAt} message="paymentWindow" onExpired={retry} />
        </>
      )}
      {/* After a decline nothing moves until the traveller acts: no journey with its spinner. */}
      {!ending && !declined && (
        <ol class={css.progressList}>
          {journey.map((entry, index) => {
            const state =
              reached < 0 ? 'todo' : index < reached ? 'done' : index === reached ? 'current' : 'todo';
            return (
              <li
                key={entry.status}
                class={css.progressItem}
                data-state={state}
                aria-current={state === 'current' ? 'step' : undefined}
              >
                {state === 'current' ? (
                  <span class={controls.spinner} aria-hidden="true" />
                ) : (
                  <span aria-hidden="true">{state === 'done' ? '✓' : '○'}</span>
                )}
                {say(entry.message)}
              </li>
            );
          })}
        </ol>
      )}
      <div aria-live="polite" role="status">
        {ending ? (
          <p>{say(ending.message)}</p>
        ) : (
          status &&
          reached >= 0 &&
          !declined && <p class={controls.visuallyHidden}>{say(journey[reached]?.message ?? 'loading')}</p>
        )}
        {!ending && !awaitingPayment && (
          <p class={controls.hint}>{t(slow ? 'progressSlow' : 'progressPatience')}</p>
        )}
      </div>
      {error !== null && (
        <ErrorNotice
          error={error}
          actions={{ retry, start_over: startOver }}
          afterPayment={(checkout?.mode ?? config.checkoutMode) !== 'direct'}
        />
      )}
      {awaitingPayment && (
        <div class={controls.actions}>
          {offerAnotherCard && (
            <button
              type="button"
              class={controls.primaryButton}
              part="button primary-button"
              onClick={tryAnotherCard}
            >
              {t('tryAnotherCard')}
            </button>
          )}
          <button
            type="button"
            class={controls.button}
            part="button"
            disabled={leave.busy}
            onClick={() => leave.run('other_plan')}
          >
            {t('otherPlan')}
          </button>
          <button
            type="button"
            class={controls.button}
            part="button"
            disabled={leave.busy}
            aria-busy={leave.busy}
            onClick={() => leave.run('cancelled')}
          >
            {t('cancel')}
          </button>
        </div>
      )}
      {ending && (
        <div class={controls.actions}>
          <button
            ref={startOverButton}
            type="button"
            class={controls.primaryButton}
            part="button primary-button"
            onClick={startOver}
          >
            {t(topUp ? 'backToMyEsim' : 'startOver')}
          </button>
        </div>
      )}
    </section>
  );
}
