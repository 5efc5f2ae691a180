/**
 * @module
 * What ends a checkout's wait for payment: the partner's confirm (a `partner_confirm` checkout moves to
 * `placing` and its order is placed — or to `failed`, nothing ordered, when its unpaid hold lapsed and the
 * account can no longer fund it) or a cancel, by the partner's server or by the traveller; and what does not
 * end it: a payment attempt the partner reports declined (the traveller may try another card). Each is a
 * compare-and-set on the checkout read afresh, so two confirms, or a confirm and a cancel, never both win.
 */
import type {
  Checkout,
  ConfirmCheckoutRequest,
  DeclineCheckoutPaymentRequest,
  PartnerCheckout,
} from '@esim-embed/shared';
import { ApiError, idempotencyConflict } from '../errors';
import { leaveValue, type VersionedSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import {
  type CheckoutContext,
  type LoadedCheckout,
  loadForPartner,
  loadForWidget,
  type SessionCaller,
} from './checkout-context';
import { toCheckout, toPartnerCheckout } from './checkout-reads';
import { type CheckoutRecord, checkoutSlot, type Stored } from './checkout-record';
import { failureFor } from './order-status';

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
   * The checkout `load` reads (with the caller's access check), brought up to date with its order on every
   * read, as the slot a confirm or cancel changes.
   */
  function slotOf(
    load: () => Promise<LoadedCheckout>,
  ): VersionedSlot<Stored<CheckoutRecord>, CheckoutRecord> {
    return checkoutSlot(repository, async () => {
      const { stored, widget } = await load();
      return await sync.refresh(stored, widget);
    });
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
    const outcome = await versionedUpdate(slotOf(load), (current) => {
      // `load` throws for a checkout the caller may not see, so there is always one here.
      const record = (current as Stored<CheckoutRecord>).record;
      if (record.status === 'cancelled') return leaveValue(record);
      if (record.status !== 'awaiting_payment') {
        throw new ApiError('invalid_transition', { params: { status: record.status } });
      }
      return writeValue({ ...record, status: 'cancelled' as const }, record);
    });
    if (outcome.kind === 'left') return outcome.result;
    if (outcome.kind !== 'written') throw idempotencyConflict('in_progress');
    const moved = outcome.stored.record;
    logger.info('checkout cancelled', { checkoutId: moved.id, widgetId: moved.widgetId, by });
    return moved;
  }

  return {
    async partnerConfirm(
      widgets: ReadonlyMap<string, WidgetRuntime>,
      id: string,
      body: ConfirmCheckoutRequest,
    ): Promise<PartnerCheckout> {
      const { widget } = await loadForPartner(context, widgets, id);
      let heldFirm = false;
      const outcome = await versionedUpdate(
        slotOf(() => loadForPartner(context, widgets, id)),
        async (current) => {
          const record = (current as Stored<CheckoutRecord>).record;
          if (record.mode !== 'partner_confirm') {
            throw new ApiError('invalid_transition', {
              params: { status: record.status, reason: 'direct_checkout' },
            });
          }
          if (record.status !== 'awaiting_payment') {
            // Confirming twice is fine (the partner may retry); confirming a dead checkout is not, and neither
            // is confirming a paid one with another payment: that charge is surplus and the partner refunds it.
            if (['placing', 'provisioning', 'ready'].includes(record.status)) {
              const other = body.paymentReference;
              if (
                other !== undefined &&
                record.paymentReference !== null &&
                other !== record.paymentReference
              ) {
                throw new ApiError('invalid_transition', {
                  params: { status: record.status, reason: 'paid_by_another_payment' },
                });
              }
              return leaveValue(record);
            }
            // Ended while this confirm made its hold firm: the hold its end released must not come back.
            if (heldFirm) await funding?.release(widget, id);
            throw new ApiError('invalid_transition', { params: { status: record.status } });
          }
          // An unpaid hold may have lapsed and its money gone to paying travellers: the order is funded again
          // now, and a checkout that cannot be funded fails before anything is ordered (the partner refunds).
          const refusal = await fundingRefusalAtConfirm(widget, record);
          heldFirm = refusal === null;
          const next: CheckoutRecord = {
            ...record,
            status: refusal === null ? 'placing' : 'failed',
            failure: refusal === null ? null : failureFor(refusal.code),
            paymentReference: body.paymentReference ?? null,
          };
          return writeValue(next, next);
        },
      );
      if (outcome.kind === 'left') return toPartnerCheckout(outcome.result);
      if (outcome.kind !== 'written') throw idempotencyConflict('in_progress');
      const moved = outcome.result;
      if (moved.status === 'failed') {
        logger.warn('confirmed checkout refused: the account cannot fund it', {
          checkoutId: id,
          widgetId: moved.widgetId,
          code: moved.failure?.code,
        });
        return toPartnerCheckout(outcome.stored.record);
      }
      logger.info('checkout confirmed', { checkoutId: id, widgetId: moved.widgetId });
      return toPartnerCheckout((await sync.place(id, widget)).record);
    },

    async partnerDeclinePayment(
      widgets: ReadonlyMap<string, WidgetRuntime>,
      id: string,
      body: DeclineCheckoutPaymentRequest,
    ): Promise<PartnerCheckout> {
      const { widget } = await loadForPartner(context, widgets, id);
      /** The declined payment no longer holds firmly (also when reported again: the first report may have failed). */
      const endPayment = async (record: CheckoutRecord) => {
        if (record.status === 'awaiting_payment') await funding?.endPayment(widget, record, body.attempt);
      };
      const outcome = await versionedUpdate(
        slotOf(() => loadForPartner(context, widgets, id)),
        (current) => {
          const record = (current as Stored<CheckoutRecord>).record;
          if (record.mode !== 'partner_confirm') {
            throw new ApiError('invalid_transition', {
              params: { status: record.status, reason: 'direct_checkout' },
            });
          }
          // Reported again (a retried call): the checkout as it is, whatever happened since.
          if (body.attempt <= record.declinedAttempts) return leaveValue(record);
          // Only a payment still awaited can be declined: a confirmed one was taken, an ended one refunded.
          if (record.status !== 'awaiting_payment') {
            throw new ApiError('invalid_transition', { params: { status: record.status } });
          }
          const declined: CheckoutRecord = { ...record, declinedAttempts: body.attempt };
          return writeValue(declined, declined);
        },
      );
      if (outcome.kind === 'left') {
        await endPayment(outcome.result);
        return toPartnerCheckout(outcome.result);
      }
      if (outcome.kind !== 'written') throw idempotencyConflict('in_progress');
      await endPayment(outcome.result);
      logger.info('checkout payment declined', {
        checkoutId: id,
        widgetId: outcome.result.widgetId,
        attempt: body.attempt,
      });
      return toPartnerCheckout(outcome.stored.record);
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
