/**
 * @module
 * Webhooks to the partner's server: what the BFF POSTs to a widget's `webhookUrl` when a checkout or an eSIM
 * changes. Each event has an id to de-duplicate on (delivery is at least once) and is signed:
 * `Esim-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${rawBody}`)>` (docs/webhooks.md).
 */
import { z } from 'zod';
import { DateTimeSchema, EnvironmentSchema, NonNegativeMoneySchema } from '../upstream/upstream-common';
import { PartnerActionRequestSchema } from './after-sale';
import { PartnerCheckoutSchema } from './checkout';
import { PartnerAccountSchema } from './partner-account';
import { PrivacyErasureSchema } from './privacy-erasure';
import { WidgetIdSchema } from './session';

/** The header with the timestamp and signature of a webhook delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'Esim-Signature';
/** The header with the event id (the same on every retry of one event). */
export const WEBHOOK_ID_HEADER = 'Esim-Webhook-Id';
/** How old a signed timestamp may be before a receiver should refuse it (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The kinds of event about one checkout. */
export const CheckoutEventTypeSchema = z.enum([
  /** A `partner_confirm` checkout waits for the partner's payment and confirm. */
  'checkout.awaiting_payment',
  /** The order is done: the eSIM is issued (kind `issue`) or the top-up applied (kind `top_up`). */
  'checkout.completed',
  /** The order was refused or provisioning failed (`checkout.failure` says why). */
  'checkout.failed',
  /** Nobody paid within the payment window. */
  'checkout.expired',
  /** The partner or the traveller cancelled it, or the upstream refunded its order after the sale. */
  'checkout.cancelled',
  /**
   * The upstream refunded the checkout's order after the sale (a refund or cancellation help request approved):
   * sent with `checkout.cancelled`; refund the traveller the payment of this checkout (`paymentReference`).
   */
  'checkout.refunded',
  /** A new eSIM can be installed (`esimId`). */
  'esim.ready',
  /** A top-up is on its eSIM (`esimId`). */
  'topup.completed',
]);
export type CheckoutEventType = z.infer<typeof CheckoutEventTypeSchema>;

/** The widget stopped selling (every quote refused: `data.reason` says why), or sells again. */
const WIDGET_SALES_EVENT_TYPES = ['widget.sales_stopped', 'widget.sales_resumed'] as const;

/** The kinds of event. */
export const WebhookEventTypeSchema = z.enum([
  ...CheckoutEventTypeSchema.options,
  /** What new checkouts may still spend fell below the widget's `lowBalanceThreshold`: top up the account. */
  'account.balance_low',
  /** An upstream order carries an `externalRef` that is no checkout of this BFF (reconciliation found it). */
  'order.unmatched',
  /** A help request (cancellation, refund, reissue) the partner made changed status. */
  'action_request.updated',
  ...WIDGET_SALES_EVENT_TYPES,
  /** An erasure the partner asked for is done: the traveller's data is gone from the BFF (its receipt). */
  'privacy.erased',
]);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

const eventFields = {
  /** Unique per event, the same on every retry: de-duplicate on it. */
  id: z.string().min(1),
  createdAt: DateTimeSchema,
  widgetId: WidgetIdSchema,
  environment: EnvironmentSchema,
};

/** A checkout changed. */
export const CheckoutWebhookEventSchema = z.strictObject({
  ...eventFields,
  type: CheckoutEventTypeSchema,
  data: z.strictObject({
    checkout: PartnerCheckoutSchema,
    /** The eSIM issued or topped up; null before issuance. */
    esimId: z.string().nullable(),
  }),
});
export type CheckoutWebhookEvent = z.infer<typeof CheckoutWebhookEventSchema>;

/** The partner's spendable balance fell below its threshold. */
export const BalanceLowWebhookEventSchema = z.strictObject({
  ...eventFields,
  type: z.literal('account.balance_low'),
  data: z.strictObject({ account: PartnerAccountSchema }),
});
export type BalanceLowWebhookEvent = z.infer<typeof BalanceLowWebhookEventSchema>;

/** An upstream order that no checkout owns. */
export const OrderUnmatchedWebhookEventSchema = z.strictObject({
  ...eventFields,
  type: z.literal('order.unmatched'),
  data: z.strictObject({
    order: z.strictObject({
      id: z.string().min(1),
      externalRef: z.string(),
      status: z.string().min(1),
      price: NonNegativeMoneySchema,
      createdAt: DateTimeSchema,
    }),
  }),
});
export type OrderUnmatchedWebhookEvent = z.infer<typeof OrderUnmatchedWebhookEventSchema>;

/** A help request changed status (one event per status: `requested`, `in_review`, `completed`, `rejected`). */
export const ActionRequestWebhookEventSchema = z.strictObject({
  ...eventFields,
  type: z.literal('action_request.updated'),
  data: z.strictObject({ actionRequest: PartnerActionRequestSchema }),
});
export type ActionRequestWebhookEvent = z.infer<typeof ActionRequestWebhookEventSchema>;

/**
 * The widget stopped selling or sells again, as the BFF's catalog refresh found it: `widget.sales_stopped` with the
 * `reason` every quote is now refused with (`retail_brand_status`: the retail brand is paused or terminated, with
 * its `brandStatus`; `retail_brand_not_ready`, `retail_brand_unknown`, `retail_brand_control`,
 * `supply_not_sellable`), `widget.sales_resumed` when quotes are taken again (`reason` null). Once per change.
 */
export const WidgetSalesWebhookEventSchema = z.strictObject({
  ...eventFields,
  type: z.enum(WIDGET_SALES_EVENT_TYPES),
  data: z.strictObject({
    reason: z.string().min(1).nullable(),
    /** The retail brand's status when it is the reason (`paused`, `terminated`, …); else null. */
    brandStatus: z.string().min(1).nullable(),
  }),
});
export type WidgetSalesWebhookEvent = z.infer<typeof WidgetSalesWebhookEventSchema>;

/**
 * An erasure of a traveller's data is done (`POST /v1/partner/privacy/erasures`): its receipt, which names the
 * traveller only by the checkout or eSIM id asked for (never an e-mail address). Erase your own copies too.
 */
export const PrivacyErasedWebhookEventSchema = z.strictObject({
  ...eventFields,
  type: z.literal('privacy.erased'),
  data: z.strictObject({ erasure: PrivacyErasureSchema }),
});
export type PrivacyErasedWebhookEvent = z.infer<typeof PrivacyErasedWebhookEventSchema>;

/** One event, as the request body of a delivery; `type` tells which `data` it carries. */
export const WebhookEventSchema = z.discriminatedUnion('type', [
  CheckoutWebhookEventSchema,
  BalanceLowWebhookEventSchema,
  OrderUnmatchedWebhookEventSchema,
  ActionRequestWebhookEventSchema,
  WidgetSalesWebhookEventSchema,
  PrivacyErasedWebhookEventSchema,
]);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
