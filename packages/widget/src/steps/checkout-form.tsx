/**
 * @module
 * The checkout form under a held price: the email (when anybody emails the traveller, or the partner requires
 * it), consent to the
 * partner's terms (a checkbox, or the buy button's own words: `terms-consent.tsx`), and one buy button that
 * creates the checkout for the quote. `partner_confirm` hands the payment to the host page through
 * `esim-checkout`; `direct` places the order. Either way the flow goes on to the checkout's progress. A create is
 * kept in the tab before it is sent, and one whose outcome is not known is settled before any other, also after a
 * reload (`pending-create.ts`).
 *
 * Over 300 lines: one form whose fields, consent and buy button share the create's state (kept, sent, settled).
 */
import type { NonNegativeMoney, Plan, Quote } from '@esim-embed/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorCodeOf, retryWorth, WidgetApiError } from '../api/api-error';
import { handlingOf } from '../errors/error-recovery';
import {
  type DestinationRef,
  pendingCreateKey,
  rememberCheckout,
  type TopUpOrigin,
} from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';
import { formatPrice } from '../i18n/formatters';
import * as controls from '../ui/controls.css';
import { ErrorNotice } from '../ui/error-notice';
import { checkoutEvent } from './checkout-event';
import { forgetCreate, keepCreate, keptCreate, type PendingCreate, sendCreate } from './pending-create';
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

/** The session a create went under is gone: the BFF's record of it (if any) is out of reach. */
const sessionGone = (error: unknown) => errorCodeOf(error) === 'widget_session_invalid';

/** Props of `CheckoutForm`. */
export interface CheckoutFormProps {
  /** The held price to buy at; null while there is none (the button waits). */
  quote: Quote | null;
  /** The price on the button. */
  price: NonNegativeMoney;
  /** The plan and where it goes, kept with a create so that a reload can show it again. */
  plan: Plan;
  destination: DestinationRef;
  /** A top-up of this eSIM rather than a new eSIM. */
  topUp: TopUpOrigin | undefined;
  /** Settle at once the create kept from before a reload (`Step` `resume`). */
  resume?: boolean | undefined;
  /** Asks for a fresh price (a checkout refused for an expired or moved price). */
  requote: () => void;
  /** Back to where the plan was chosen. */
  otherPlan: () => void;
}

/** Email, consent and the buy button. */
export function CheckoutForm({
  quote,
  price,
  plan,
  destination,
  topUp,
  resume = false,
  requote,
  otherPlan,
}: CheckoutFormProps) {
  const { client, t, locale, config, go, emit } = useWidget();
  // Where this widget keeps a create sent but not settled (`pending-create.ts`), for this BFF and page.
  const place = pendingCreateKey(config.widgetId, client.apiBase);
  const [atStart] = useState(() => keptCreate(place));
  // The create kept, while its outcome is not known (no answer yet, or one that passes: a 5xx, a create still
  // running): the BFF may hold it under its key with that body. The address stays as sent meanwhile.
  const [pending, setPending] = useState<PendingCreate | null>(atStart === 'unconfirmed' ? null : atStart);
  // A create kept earlier whose session expired before it was settled: it may have been made, unseen.
  const [unconfirmed, setUnconfirmed] = useState(atStart === 'unconfirmed');
  const [email, setEmail] = useState(pending?.request.email ?? '');
  const [accepted, setAccepted] = useState(pending !== null);
  const [attempted, setAttempted] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const termsInput = useRef<HTMLInputElement>(null);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  // The price shown is the kept create's, from a session before the reload: once that create is answered for
  // good, the next one needs a price of the client's own session.
  const earlierPrice = useRef(resume);
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
    async (held: Quote | null) => {
      const kept = keptCreate(place);
      // A kept create's session expired since this form looked: say so, and buy only when pressed again.
      if (kept === 'unconfirmed' && !unconfirmed) return setUnconfirmed(true);
      // A create whose outcome is not known goes again first, as it was, under its own key and session — even
      // when a new price is held since (the old one expired), or after a reload: it either finishes that
      // checkout, at the price the traveller first pressed, or is refused for good, and only then does this
      // price's create go. Never two checkouts.
      let sent = kept === 'unconfirmed' ? null : kept;
      let fresh = false;
      for (;;) {
        if (sent === null) {
          if (held === null) return;
          const session = await client.session();
          const trimmed = email.trim();
          sent = {
            plan,
            destination,
            ...(topUp ? { topUp } : {}),
            token: session.token,
            tokenExpiresAt: session.expiresAt,
            // Settleable after a reload until the BFF no longer keeps its answer for this session.
            replayUntil: session.replayUntil ?? session.expiresAt,
            // One checkout per quote, however often the button is pressed or the request retried.
            key: `checkout-${held.id}`,
            request: {
              quoteId: held.id,
              ...(trimmed ? { email: trimmed } : {}),
              locale,
              termsAccepted: true,
            },
            quote: held,
          };
          fresh = true;
          // Kept before it is sent: a reload from now on settles this create before any other.
          keepCreate(place, sent);
        }
        setPending(sent);
        const sending = sendCreate(client, place, sent, fresh);
        try {
          const created = await sending.answer;
          // Sent already by a form before this one (the traveller went back meanwhile): that one shows it.
          if (sending.joined) return;
          const handle = {
            id: created.id,
            clientSecret: created.clientSecret,
            ...(sent.topUp ? { topUp: sent.topUp } : {}),
          };
          rememberCheckout(config.widgetId, handle);
          forgetCreate(place, false);
          // Only now, with the checkout created: a refused create (funding, price) never reaches the host page.
          emit(checkoutEvent(created, false));
          go({ name: 'progress', handle });
          return;
        } catch (error) {
          if (!answeredForGood(error)) throw error;
          // Refused for good: nothing is held under its key. Unless its session is gone: a create sent before
          // under that session may have been made, and nothing can tell any more.
          const lost = !sending.first && sessionGone(error);
          forgetCreate(place, lost);
          setPending(null);
          if (lost) setUnconfirmed(true);
          if (fresh || lost || held === null || sent.quote.id === held.id || !mounted.current) throw error;
          sent = null;
        }
      }
    },
    {
      // A price that ran out or moved is fetched again at once; the new price shows before buying again. So is
      // one held under a session that is gone, or before a reload.
      onFailure: (error) => {
        if (!answeredForGood(error)) return;
        const again = handlingOf(error).recovery === 'requote' || sessionGone(error) || earlierPrice.current;
        earlierPrice.current = false;
        if (again) requote();
      },
    },
  );

  // The create kept from before a reload is settled at once: the traveller sees the checkout it made.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the step opens
  useEffect(() => {
    if (resume && pending) void checkout.run(null);
  }, []);

  function buy() {
    setAttempted(true);
    if (emailProblem) return emailInput.current?.focus();
    if (termsProblem) return termsInput.current?.focus();
    if (quote) void checkout.run(quote);
  }

  // A price problem shows as the new quote and its notice; the error itself only while there is no new quote.
  const showError =
    checkout.error !== null &&
    ((handlingOf(checkout.error).recovery !== 'requote' && !sessionGone(checkout.error)) || !quote);

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
            readOnly={pending !== null}
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
            {pending !== null && ` ${t('emailSent')}`}
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
        {unconfirmed && (
          <p class={controls.infoNotice} role="status">
            {t('earlierPurchaseUnconfirmed', { brand: config.brand.displayName })}
          </p>
        )}
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
