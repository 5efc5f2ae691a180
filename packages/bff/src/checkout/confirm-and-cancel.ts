/**
 * @module
 * What ends a checkout's wait for payment: the partner's confirm (a `partner_confirm` checkout moves to
 * `placing` and its order is placed — or to `failed`, nothing ordered, when its unpaid hold lapsed and the
 * account can no longer fund it) or a cancel, by the partner's server or by the traveller. Each is a
 * compare-and-set on the checkout read afresh, so two confirms, or a confirm and a cancel, never both win.
 */
import type { Checkout, ConfirmCheckoutRequest, PartnerCheckout } from '@esim-embed/shared';
import { ApiError, idempotencyConflict } from '../errors';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import {
  type CheckoutContext,
  type LoadedCheckout,
  loadForPartner,
  loadForWidget,
  type SessionCaller,
} from './checkout-context';
import { toCheckout, toPartnerCheckout } from './checkout-reads';
import type { CheckoutRecord } from './checkout-record';
import { failureFor } from './order-status';

/** How often a confirm or cancel reads the checkout again after losing a compare-and-set. */
const ROUNDS = 5;

/** `partnerConfirm`, `partnerCancel` and `cancelCheckout` of the checkout service. */
export function confirmAndCancel(context: CheckoutContext) {
  const { logger, repository, sync, funding } = context;

  /** The funding refusal of a confirmed checkout's order (its hold made firm otherwise), or null. */
  async function fundingRefusalAtConfirm(widget: WidgetRuntime, record: CheckoutRecord) {
    try {
      await funding?.holdFirmly(widget, record);
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.params.stage === 'before_payment') return error;
      throw error;
    }
  }

  /**
   * The one way a checkout is cancelled, by the partner's server or by its traveller: only while it awaits
   * payment; cancelling a cancelled checkout again answers it as it is. `load` reads the checkout afresh
   * (with the caller's access check) for every compare-and-set round.
   */
  async function cancel(
    load: () => Promise<LoadedCheckout>,
    by: 'partner' | 'traveller',
  ): Promise<CheckoutRecord> {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { stored, widget } = await load();
      const current = await sync.refresh(stored, widget);
      const record = current.record;
      if (record.status === 'cancelled') return record;
      if (record.status !== 'awaiting_payment') {
        throw new ApiError('invalid_transition', { params: { status: record.status } });
      }
      const moved = await repository.updateCheckout(current, { ...record, status: 'cancelled' });
      if (moved !== null) {
        logger.info('checkout cancelled', { checkoutId: record.id, widgetId: record.widgetId, by });
        return moved.record;
      }
    }
    throw idempotencyConflict('in_progress');
  }

  return {
    async partnerConfirm(
      widgets: ReadonlyMap<string, WidgetRuntime>,
      id: string,
      body: ConfirmCheckoutRequest,
    ): Promise<PartnerCheckout> {
      const { widget } = await loadForPartner(context, widgets, id);
      let heldFirm = false;
      for (let round = 0; round < ROUNDS; round += 1) {
        const stored = await sync.refresh((await loadForPartner(context, widgets, id)).stored, widget);
        const record = stored.record;
        if (record.mode !== 'partner_confirm') {
          throw new ApiError('invalid_transition', {
            params: { status: record.status, reason: 'direct_checkout' },
          });
        }
        if (record.status !== 'awaiting_payment') {
          // Confirming twice is fine (the partner may retry); confirming a dead checkout is not.
          if (['placing', 'provisioning', 'ready'].includes(record.status)) return toPartnerCheckout(record);
          // Ended while this confirm made its hold firm: the hold its end released must not come back.
          if (heldFirm) await funding?.release(widget, id);
          throw new ApiError('invalid_transition', { params: { status: record.status } });
        }
        // An unpaid hold may have lapsed and its money gone to paying travellers: the order is funded again
        // now, and a checkout that cannot be funded fails before anything is ordered (the partner refunds).
        const refusal = await fundingRefusalAtConfirm(widget, record);
        heldFirm = refusal === null;
        const moved = await repository.updateCheckout(stored, {
          ...record,
          status: refusal === null ? 'placing' : 'failed',
          failure: refusal === null ? null : failureFor(refusal.code),
          paymentReference: body.paymentReference ?? null,
        });
        if (moved === null) continue;
        if (refusal !== null) {
          logger.warn('confirmed checkout refused: the account cannot fund it', {
            checkoutId: id,
            widgetId: record.widgetId,
            code: refusal.code,
          });
          return toPartnerCheckout(moved.record);
        }
        logger.info('checkout confirmed', { checkoutId: id, widgetId: record.widgetId });
        return toPartnerCheckout((await sync.place(id, widget)).record);
      }
      throw idempotencyConflict('in_progress');
    },

    async partnerCancel(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<PartnerCheckout> {
      return toPartnerCheckout(await cancel(() => loadForPartner(context, widgets, id), 'partner'));
    },

    async cancelCheckout(
      caller: SessionCaller,
      id: string,
      clientSecret: string | undefined,
    ): Promise<Checkout> {
      const load = async () => ({
        stored: await loadForWidget(context, caller, id, clientSecret),
        widget: caller.widget,
      });
      return toCheckout(await cancel(load, 'traveller'));
    },
  };
}
