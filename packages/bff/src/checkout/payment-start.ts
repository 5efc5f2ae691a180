/**
 * @module
 * The partner starts taking a checkout's payment (`POST /v1/partner/checkouts/{id}/payment-started`), once, right
 * before it charges: the checkout's order is funded again beside the firm holds and the other payments in
 * progress, and its hold is kept firmly while the payment runs (3-D Secure, a bank redirect) — for the config's
 * `paymentHolds.holdSeconds` at most, within caps of payments in progress per address and session that opened the
 * checkout and per account (`429 rate_limited`, reason `payments_in_progress`) — so that nothing unpaid can take
 * the money meanwhile and a charge is never taken for an order the account can no longer fund. Until the confirm
 * the hold stays counted against the unpaid caps of whoever opened the checkout; a decline, or the payment's time
 * running out, makes it unpaid again. Started again while it runs, nothing changes. After
 * `MAX_DECLINED_PAYMENT_ATTEMPTS` declined attempts no payment starts (`invalid_transition`, reason
 * `declined_attempts_exhausted`): a traveller trying card after card is stopped, and the partner cancels.
 */
import { MAX_DECLINED_PAYMENT_ATTEMPTS, type PartnerCheckout } from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type CheckoutContext, loadForPartner } from './checkout-context';
import { toPartnerCheckout } from './checkout-reads';

const PAID = ['placing', 'provisioning', 'ready'];

/** `partnerPaymentStarted` of the checkout service. */
export function paymentStart(context: CheckoutContext) {
  const { funding, logger, sync } = context;

  return {
    async partnerPaymentStarted(
      widgets: ReadonlyMap<string, WidgetRuntime>,
      id: string,
    ): Promise<PartnerCheckout> {
      const { stored, widget } = await loadForPartner(context, widgets, id);
      const record = (await sync.refresh(stored, widget)).record;
      if (record.mode !== 'partner_confirm') {
        throw new ApiError('invalid_transition', {
          params: { status: record.status, reason: 'direct_checkout' },
        });
      }
      // Started again, or paid already: answered as it is (the partner may retry).
      if (PAID.includes(record.status)) return toPartnerCheckout(record);
      if (record.status !== 'awaiting_payment') {
        throw new ApiError('invalid_transition', { params: { status: record.status } });
      }
      if (record.declinedAttempts >= MAX_DECLINED_PAYMENT_ATTEMPTS) {
        throw new ApiError('invalid_transition', {
          params: {
            status: record.status,
            reason: 'declined_attempts_exhausted',
            declinedAttempts: record.declinedAttempts,
            maxDeclinedAttempts: MAX_DECLINED_PAYMENT_ATTEMPTS,
          },
        });
      }
      await funding?.startPayment(widget, record);
      // Ended while its payment started: the hold its end released must not come back.
      const after = (await loadForPartner(context, widgets, id)).stored.record;
      if (after.status !== 'awaiting_payment' && !PAID.includes(after.status)) {
        await funding?.release(widget, id);
        throw new ApiError('invalid_transition', { params: { status: after.status } });
      }
      logger.info('checkout payment started', { checkoutId: id, widgetId: record.widgetId });
      return toPartnerCheckout(after);
    },
  };
}
