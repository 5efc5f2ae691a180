/**
 * @module
 * What ends a checkout's wait for payment: the partner's confirm (a `partner_confirm` checkout moves to
 * `placing` and its order is placed) or a cancel, by the partner's server or by the traveller; and what does not
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

/** `partnerConfirm`, `partnerCancel` and `cancelCheckout` of the checkout service. */
export function confirmAndCancel(context: CheckoutContext) {
  const { logger, repository, sync } = context;

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
      const outcome = await versionedUpdate(
        slotOf(() => loadForPartner(context, widgets, id)),
        (current) => {
          const record = (current as Stored<CheckoutRecord>).record;
          if (record.mode !== 'partner_confirm') {
            throw new ApiError('invalid_transition', {
              params: { status: record.status, reason: 'direct_checkout' },
            });
          }
          if (record.status !== 'awaiting_payment') {
            // Confirming twice is fine (the partner may retry); confirming a dead checkout is not.
            if (['placing', 'provisioning', 'ready'].includes(record.status)) return leaveValue(record);
            throw new ApiError('invalid_transition', { params: { status: record.status } });
          }
          const placing: CheckoutRecord = {
            ...record,
            status: 'placing',
            paymentReference: body.paymentReference ?? null,
          };
          return writeValue(placing, placing);
        },
      );
      if (outcome.kind === 'left') return toPartnerCheckout(outcome.result);
      if (outcome.kind !== 'written') throw idempotencyConflict('in_progress');
      logger.info('checkout confirmed', { checkoutId: id, widgetId: outcome.result.widgetId });
      return toPartnerCheckout((await sync.place(id, widget)).record);
    },

    async partnerDeclinePayment(
      widgets: ReadonlyMap<string, WidgetRuntime>,
      id: string,
      body: DeclineCheckoutPaymentRequest,
    ): Promise<PartnerCheckout> {
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
      if (outcome.kind === 'left') return toPartnerCheckout(outcome.result);
      if (outcome.kind !== 'written') throw idempotencyConflict('in_progress');
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
