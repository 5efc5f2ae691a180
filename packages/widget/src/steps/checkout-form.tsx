/**
 * @module
 * The checkout form under a held price: the email (when anybody emails the traveller, or the partner requires
 * it), consent to the
 * partner's terms (a checkbox, or the buy button's own words: `terms-consent.tsx`), and one buy button that
 * creates the checkout for the quote. `partner_confirm` hands the payment to the host page through
 * `esim-checkout`; `direct` places the order. Either way the flow goes on to the checkout's progress.
 */
import type { CreateCheckoutRequest, NonNegativeMoney, Quote } from '@esim-embed/shared';
import { useRef, useState } from 'preact/hooks';
import { retryWorth, WidgetApiError } from '../api/api-error';
import { handlingOf } from '../errors/error-recovery';
import { rememberCheckout, type TopUpOrigin } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';
import { formatPrice } from '../i18n/formatters';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { checkoutEvent } from './checkout-event';
import * as css from './steps.css';
import { BUY_CONSENT_ID, ButtonConsent, TermsCheckbox } from './terms-consent';

/** An email address as the checkout accepts it (the BFF checks it again). */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/**
 * Whether the BFF answered a create for good, so that nothing is held under its key: an answer, and not one that
 * passes (a 5xx, a rate limit, a create still running) nor one the widget could not read (a 2xx among them).
 */
function answeredForGood(error: unknown): boolean {
  return error instanceof WidgetApiError && error.code !== 'invalid_response' && retryWorth(error) === null;
}

/** A create as sent: its quote's key and its body. */
interface SentCreate {
  quoteId: string;
  request: CreateCheckoutRequest;
}

/** Props of `CheckoutForm`. */
export interface CheckoutFormProps {
  /** The held price to buy at; null while there is none (the button waits). */
  quote: Quote | null;
  /** The price on the button. */
  price: NonNegativeMoney;
  /** A top-up of this eSIM rather than a new eSIM. */
  topUp: TopUpOrigin | undefined;
  /** Asks for a fresh price (a checkout refused for an expired or moved price). */
  requote: () => void;
  /** Back to where the plan was chosen. */
  otherPlan: () => void;
}

/** Email, consent and the buy button. */
export function CheckoutForm({ quote, price, topUp, requote, otherPlan }: CheckoutFormProps) {
  const { client, t, locale, config, go, emit } = useWidget();
  const [email, setEmail] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [attempted, setAttempted] = useState(false);
  // The create sent last, while its outcome is not known (no answer yet, or one that passes: a 5xx, a create
  // still running): the BFF may hold it under its key with that body. The address stays as sent meanwhile.
  const [unsettled, setUnsettled] = useState<SentCreate | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const termsInput = useRef<HTMLInputElement>(null);

  const emailProblem =
    email.trim() === ''
      ? config.emailRequired
        ? 'emailMissing'
        : null
      : isEmailAddress(email.trim())
        ? null
        : 'emailInvalid';
  // With consent in the button's words, pressing it is the consent; otherwise the box must be ticked.
  const consentInButton = config.consent === 'button';
  const termsProblem = consentInButton || accepted ? null : 'termsMissing';

  const checkout = useWriteAction(
    async (held: Quote) => {
      const trimmed = email.trim();
      const fresh = (): SentCreate => ({
        quoteId: held.id,
        request: { quoteId: held.id, ...(trimmed ? { email: trimmed } : {}), locale, termsAccepted: true },
      });
      // A create whose outcome is not known goes again first, as it was, under its own key — even when a new
      // price is held since (the old one expired): it either finishes that checkout, at the price the traveller
      // first pressed, or is refused for good, and only then does this price's create go. Never two checkouts.
      let sent = unsettled ?? fresh();
      let created: Awaited<ReturnType<typeof client.createCheckout>>;
      for (;;) {
        setUnsettled(sent);
        try {
          // One checkout per quote, however often the button is pressed or the request retried.
          created = await client.createCheckout(sent.request, `checkout-${sent.quoteId}`, topUp?.manageToken);
          break;
        } catch (error) {
          if (!answeredForGood(error)) throw error;
          setUnsettled(null);
          if (sent.quoteId === held.id) throw error;
          sent = fresh();
        }
      }
      const handle = { id: created.id, clientSecret: created.clientSecret, ...(topUp ? { topUp } : {}) };
      rememberCheckout(config.widgetId, handle);
      // Only now, with the checkout created: a refused create (funding, price) never reaches the host page.
      emit(checkoutEvent(created, false));
      go({ name: 'progress', handle });
    },
    {
      // A price that ran out or moved is fetched again at once; the new price shows before buying again.
      onFailure: (error) => {
        if (handlingOf(error).recovery === 'requote') requote();
      },
    },
  );

  function buy() {
    setAttempted(true);
    if (emailProblem) return emailInput.current?.focus();
    if (termsProblem) return termsInput.current?.focus();
    if (quote) void checkout.run(quote);
  }

  // A price problem shows as the new quote and its notice; the error itself only while there is no new quote.
  const showError = checkout.error !== null && (handlingOf(checkout.error).recovery !== 'requote' || !quote);

  return (
    <>
      {/* Asked for when somebody emails the traveller, or when the partner requires it (then nothing is promised). */}
      {(config.emailSender !== 'none' || config.emailRequired) && (
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
            readOnly={unsettled !== null}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
          <p id="esim-email-hint" class={controls.hint}>
            {t(
              config.emailSender === 'upstream'
                ? 'emailHintPlatform'
                : config.emailSender === 'none'
                  ? 'emailHintRequired'
                  : config.emailRequired
                    ? 'emailHintPartner'
                    : 'emailHintPartnerOptional',
              { brand: config.brand.displayName },
            )}
            {unsettled !== null && ` ${t('emailSent')}`}
          </p>
          {attempted && emailProblem && (
            <p id="esim-email-error" class={controls.fieldError}>
              {t(emailProblem)}
            </p>
          )}
        </div>
      )}

      {!consentInButton && (
        <TermsCheckbox
          accepted={accepted}
          onChange={setAccepted}
          inputRef={termsInput}
          problem={attempted && termsProblem !== null}
        />
      )}

      <div aria-live="polite">
        {showError && (
          <ErrorNotice
            error={checkout.error}
            failures={checkout.failures}
            actions={{
              retry: buy,
              requote,
              other_plan: otherPlan,
              start_over: topUp ? otherPlan : () => go({ name: 'destinations' }),
            }}
          />
        )}
      </div>
      {consentInButton && <ButtonConsent />}
      <div class={controls.actions}>
        <button
          type="button"
          class={controls.primaryButton}
          part="button primary-button"
          disabled={!quote || checkout.busy}
          aria-busy={checkout.busy}
          aria-describedby={consentInButton ? BUY_CONSENT_ID : undefined}
          onClick={buy}
        >
          {checkout.busy
            ? t('placing')
            : t('buy', { price: formatPrice(price, locale, config.wholeRubOnly) })}
        </button>
      </div>
    </>
  );
}
