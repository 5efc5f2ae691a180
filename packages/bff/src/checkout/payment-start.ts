/**
 * @module
 * The partner starts taking a checkout's payment (`POST /v1/partner/checkouts/{id}/payment-started`): before it
 * charges anyone, the checkout's order is funded again beside the other firm holds and its hold becomes firm
 * until the payment deadline, so that nothing unpaid can take the money while the payment runs (3-D Secure, a
 * bank redirect) and a charge is never taken for an order the account can no longer fund. After
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
      await funding?.holdFirmly(widget, record);
      // Ended while its hold was made firm: the hold its end released must not come back.
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
