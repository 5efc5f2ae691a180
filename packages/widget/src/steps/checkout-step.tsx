/**
 * @module
 * Steps 3 and 4: the chosen plan is quoted and its price held with a visible countdown (re-quoted on
 * expiry or `price_changed`, the new price shown before the traveller commits), then the checkout: email,
 * consent to the partner's terms, one buy button. `partner_confirm` hands the payment to the host page
 * through `esim-checkout`; `direct` places the order. A top-up of an eSIM (from its own view) goes through
 * this same step with the eSIM's manage token.
 */
import type { NonNegativeMoney, Plan, Quote } from '@esim-embed/shared';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { newIdempotencyKey } from '../api/api-client';
import { type DestinationRef, rememberCheckout, type TopUpOrigin } from '../app/flow-steps';
import { useWidget } from '../app/widget-context';
import { EsimQuoteEvent } from '../element/events';
import { handlingOf } from '../errors/error-recovery';
import { formatPlanData, formatPrice } from '../i18n/formatters';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { StepHeading } from '../ui/step-heading';
import { checkoutEvent, eventAmount } from './checkout-event';
import { DeadlineCountdown } from './deadline-countdown';
import * as css from './steps.css';

/** An email address as the checkout accepts it (the BFF checks it again). */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/** Props of `CheckoutStep`. */
export interface CheckoutStepProps {
  plan: Plan;
  destination: DestinationRef;
  /** A top-up of this eSIM rather than a new eSIM. */
  topUp?: TopUpOrigin | undefined;
}

/** The quote and the checkout form. */
export function CheckoutStep({ plan, destination, topUp }: CheckoutStepProps) {
  const { client, t, locale, config, go, emit, report } = useWidget();
  const [quote, setQuote] = useState<Quote | null>(null);
  const [quoteError, setQuoteError] = useState<unknown>(null);
  const [priceChange, setPriceChange] = useState<{ from: NonNegativeMoney; to: NonNegativeMoney } | null>(
    null,
  );
  const [checkoutError, setCheckoutError] = useState<unknown>(null);
  const [email, setEmail] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [placing, setPlacing] = useState(false);
  // A second click before the re-render must not send a second request.
  const placingNow = useRef(false);
  const shownPrice = useRef(plan.price);
  // Whether a quote was already shown: the next one is a re-quote, and the waiting text says so.
  const [requoting, setRequoting] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const termsInput = useRef<HTMLInputElement>(null);
  const money = (value: NonNegativeMoney) => formatPrice(value, locale, config.wholeRubOnly);

  const requestQuote = useCallback(() => {
    setQuote(null);
    setQuoteError(null);
    client.createQuote(plan.offerId, locale, newIdempotencyKey('quote'), topUp).then(
      (fresh) => {
        if (fresh.price.amountMinor !== shownPrice.current.amountMinor) {
          setPriceChange({ from: shownPrice.current, to: fresh.price });
        }
        shownPrice.current = fresh.price;
        setQuote(fresh);
        setRequoting(true);
        emit(
          new EsimQuoteEvent({
            quoteId: fresh.id,
            offerId: fresh.offerId,
            amount: eventAmount(fresh.price),
            expiresAt: fresh.expiresAt,
          }),
        );
      },
      (error: unknown) => {
        if (client.closed) return;
        setQuoteError(error);
        report(error);
      },
    );
  }, [client, plan.offerId, locale]);
  useEffect(requestQuote, [requestQuote]);

  const emailProblem =
    email.trim() === ''
      ? config.emailRequired
        ? 'emailMissing'
        : null
      : isEmailAddress(email.trim())
        ? null
        : 'emailInvalid';
  const termsProblem = accepted ? null : 'termsMissing';

  async function buy() {
    setAttempted(true);
    if (emailProblem) return emailInput.current?.focus();
    if (termsProblem) return termsInput.current?.focus();
    if (!quote || placingNow.current) return;
    placingNow.current = true;
    setPlacing(true);
    setCheckoutError(null);
    try {
      const trimmed = email.trim();
      const created = await client.createCheckout(
        { quoteId: quote.id, ...(trimmed ? { email: trimmed } : {}), locale, termsAccepted: true },
        // One checkout per quote, however often the button is pressed or the request retried.
        `checkout-${quote.id}`,
        topUp?.manageToken,
      );
      const handle = { id: created.id, clientSecret: created.clientSecret, ...(topUp ? { topUp } : {}) };
      rememberCheckout(config.widgetId, handle);
      // Only now, with the checkout created: a refused create (funding, price) never reaches the host page.
      emit(checkoutEvent(created, false));
      go({ name: 'progress', handle });
    } catch (error) {
      if (client.closed) return;
      placingNow.current = false;
      setPlacing(false);
      setCheckoutError(error);
      report(error);
      // A price that ran out or moved is fetched again at once; the new price shows before buying again.
      if (handlingOf(error).recovery === 'requote') requestQuote();
    }
  }

  const backToPlans = () =>
    go(topUp ? { name: 'my-esim', manageToken: topUp.manageToken } : { name: 'plans', destination });
  // A price problem shows as the new quote and its notice; the error itself only while there is no new quote.
  const showCheckoutError =
    checkoutError !== null && (handlingOf(checkoutError).recovery !== 'requote' || !quote);

  return (
    <section>
      <button type="button" class={controls.linkButton} part="button" onClick={backToPlans}>
        ← {t('back')}
      </button>
      <StepHeading>{t(topUp ? 'topUpHeading' : 'checkoutHeading')}</StepHeading>
      <div class={controls.card}>
        <div class={css.planTop}>
          <span class={css.planData}>
            {destination.flag && <span aria-hidden="true">{destination.flag} </span>}
            {destination.name}: {formatPlanData(plan, locale)} · {t('days', { n: plan.durationDays })}
          </span>
          <span class={css.price} part="price">
            {money(quote?.price ?? shownPrice.current)}
          </span>
        </div>
        <div aria-live="polite">
          {quote ? (
            <DeadlineCountdown
              key={quote.id}
              expiresAt={quote.expiresAt}
              message="priceHeld"
              onExpired={requestQuote}
            />
          ) : (
            !quoteError && (
              <p class={css.secondary} aria-busy="true">
                <span class={controls.spinner} aria-hidden="true" />
                {t(requoting ? 'requoting' : 'quoting')}
              </p>
            )
          )}
        </div>
      </div>
      <div aria-live="polite">
        {priceChange && (
          <p class={controls.infoNotice} role="status">
            {t('priceChanged', { old: money(priceChange.from), new: money(priceChange.to) })}
          </p>
        )}
      </div>
      {quoteError && (
        <ErrorNotice
          error={quoteError}
          actions={{ retry: requestQuote, requote: requestQuote, other_plan: backToPlans }}
        />
      )}

      {/* Nobody emails the traveller (the partner said so): no address is asked for. */}
      {config.emailSender !== 'none' && (
        <div class={css.field}>
          <label class={controls.label} for="esim-email">
            {t('emailLabel')}
          </label>
          <input
            ref={emailInput}
            id="esim-email"
            class={controls.input}
            part="input"
            type="email"
            inputMode="email"
            autocomplete="email"
            required={config.emailRequired}
            aria-required={config.emailRequired}
            aria-invalid={attempted && emailProblem ? 'true' : 'false'}
            aria-describedby={
              attempted && emailProblem ? 'esim-email-hint esim-email-error' : 'esim-email-hint'
            }
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
          <p id="esim-email-hint" class={controls.hint}>
            {t(
              config.emailSender === 'upstream'
                ? 'emailHintPlatform'
                : config.emailRequired
                  ? 'emailHintPartner'
                  : 'emailHintPartnerOptional',
              { brand: config.brand.displayName },
            )}
          </p>
          {attempted && emailProblem && (
            <p id="esim-email-error" class={controls.fieldError}>
              {t(emailProblem)}
            </p>
          )}
        </div>
      )}

      <div class={css.field}>
        <div class={css.checkboxRow}>
          <input
            ref={termsInput}
            id="esim-terms"
            class={css.checkbox}
            type="checkbox"
            checked={accepted}
            aria-invalid={attempted && termsProblem ? 'true' : 'false'}
            aria-describedby={attempted && termsProblem ? 'esim-terms-error' : undefined}
            onChange={(event) => setAccepted(event.currentTarget.checked)}
          />
          <label for="esim-terms">{t('termsConsent', { brand: config.brand.displayName })}</label>
        </div>
        {(config.brand.termsUrl || config.brand.privacyUrl) && (
          <p class={controls.hint}>
            {config.brand.termsUrl && (
              <a class={controls.link} href={config.brand.termsUrl} target="_blank" rel="noopener noreferrer">
                {t('terms')}
              </a>
            )}
            {config.brand.termsUrl && config.brand.privacyUrl && ' · '}
            {config.brand.privacyUrl && (
              <a
                class={controls.link}
                href={config.brand.privacyUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                {t('privacy')}
              </a>
            )}
          </p>
        )}
        {attempted && termsProblem && (
          <p id="esim-terms-error" class={controls.fieldError}>
            {t(termsProblem)}
          </p>
        )}
      </div>

      <div aria-live="polite">
        {showCheckoutError && (
          <ErrorNotice
            error={checkoutError}
            actions={{
              retry: buy,
              requote: requestQuote,
              other_plan: backToPlans,
              start_over: topUp ? backToPlans : () => go({ name: 'destinations' }),
            }}
          />
        )}
      </div>
      <div class={controls.actions}>
        <button
          type="button"
          class={controls.primaryButton}
          part="button primary-button"
          disabled={!quote || placing}
          aria-busy={placing}
          onClick={buy}
        >
          {placing ? t('placing') : t('buy', { price: money(quote?.price ?? shownPrice.current) })}
        </button>
      </div>
    </section>
  );
}
