/**
 * @module
 * What a checkout asks of the partner's funding before anyone pays: a hold for a new checkout, the hold kept
 * firmly while the partner's payment runs (and unpaid again when it is declined), a firm hold when the partner
 * confirms, a hold given back. `funding/partner-funding.ts` provides it (and follows each change of
 * status as an observer of `checkout-transitions.ts`); the checkout knows only this port.
 */
import type { CheckoutStatus, NonNegativeMoney } from '@esim-embed/shared';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { CheckoutRecord } from './checkout-record';

/** A new checkout's hold: its status and deadline, and who makes it (the client's address and session). */
export interface NewCheckoutHold {
  status: CheckoutStatus;
  expiresAt: string;
  /** The client's address as limits count it (an IPv6 /64), digested as the checkout keeps it (`openedFrom`). */
  address: string;
  session: string;
}

/** The partner's funding as a checkout uses it (absent in a checkout service: no funding check). */
export interface CheckoutFunding {
  /**
   * Refuse (the contract's code, `stage: 'before_payment'`; `rate_limited` over an unpaid cap) when the widget's
   * partner cannot fund `wholesale` now; otherwise hold it for the new checkout `checkoutId`: firm for a checkout
   * being placed (`direct`), unpaid for one awaiting payment. Holding again for one checkout holds once.
   */
  hold(
    widget: WidgetRuntime,
    checkoutId: string,
    wholesale: NonNegativeMoney,
    checkout: NewCheckoutHold,
  ): Promise<void>;
  /**
   * The partner starts the payment of `record`, awaiting payment: refuse (`rate_limited`, reason
   * `payments_in_progress`) when the address or the session that opened it, or the account, has its cap of
   * payments in progress, and, as {@link hold} does, when its order can no longer be funded beside the firm holds
   * and the other payments in progress; otherwise its hold is kept firmly for a short while (the config's
   * `paymentHolds`), still counted against the unpaid caps of whoever opened it. A payment in progress is left as
   * it is.
   */
  startPayment(widget: WidgetRuntime, record: CheckoutRecord): Promise<void>;
  /**
   * Payment attempt `attempt` of `record` was declined: its payment in progress ends, and the hold is unpaid again
   * (same holder, same end) or gone when that end has passed.
   */
  endPayment(widget: WidgetRuntime, record: CheckoutRecord, attempt: number): Promise<void>;
  /**
   * The partner confirms `record` (or its order is placed): refuse, as {@link hold} does, when its order can no
   * longer be funded beside the other firm holds and payments in progress; otherwise its hold is firm until the
   * payment deadline (and a short grace for the confirm), then for as long as the order is placed.
   */
  holdFirmly(widget: WidgetRuntime, record: CheckoutRecord): Promise<void>;
  /** Give a hold back (the checkout was not made after all). */
  release(widget: WidgetRuntime, checkoutId: string): Promise<void>;
}
