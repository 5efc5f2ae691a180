/**
 * @module
 * Quotes, checkouts, their status, installation data and delivery links: the widget's side of a sale,
 * and the partner server's side (`/v1/partner/*`).
 */
import { z } from 'zod';
import { OrderBillingSchema } from '../upstream/order';
import { PurchaseKindSchema } from '../upstream/quote';
import { DateTimeSchema, LocaleSchema, NonNegativeMoneySchema } from '../upstream/upstream-common';
import { PlanSchema } from './catalog';
import { apiEnvelope } from './common';
import { CheckoutModeSchema } from './session';

export const CreateQuoteRequestSchema = z.strictObject({
  offerId: z.string().min(1).max(64),
  /** The language of the quote's plan (destination name); default: the widget's default locale. */
  locale: LocaleSchema.optional(),
  /** A top-up of this eSIM (needs the `X-Manage-Token` that opens it); absent for a new eSIM. */
  esimId: z.string().min(1).max(128).optional(),
});
export type CreateQuoteRequest = z.infer<typeof CreateQuoteRequestSchema>;

/** A retail price held until `expiresAt`. */
export const QuoteSchema = z.strictObject({
  id: z.string().min(1),
  offerId: z.string().min(1),
  /** `issue` (a new eSIM) or `top_up` (more data on `esimId`); absent means `issue`. */
  kind: PurchaseKindSchema.optional(),
  /** The eSIM a top-up is for; null or absent for a new eSIM. */
  esimId: z.string().min(1).nullable().optional(),
  plan: PlanSchema,
  price: NonNegativeMoneySchema,
  createdAt: DateTimeSchema,
  expiresAt: DateTimeSchema,
});
export type Quote = z.infer<typeof QuoteSchema>;
export const QuoteResponseSchema = apiEnvelope(QuoteSchema);

export const CreateCheckoutRequestSchema = z.strictObject({
  quoteId: z.string().min(1).max(128),
  /** Required when the widget's config says `emailRequired`. */
  email: z.email().max(254).optional(),
  locale: LocaleSchema,
  /** The traveller ticked the partner's terms. */
  termsAccepted: z.literal(true),
});
export type CreateCheckoutRequest = z.infer<typeof CreateCheckoutRequestSchema>;

/**
 * The checkout's journey. `awaiting_payment` (partner_confirm only) → `placing` → `provisioning` →
 * `ready`; or `failed`, `expired` (never paid), `cancelled` (by the partner).
 */
export const CheckoutStatusSchema = z.enum([
  'awaiting_payment',
  'placing',
  'provisioning',
  'ready',
  'failed',
  'expired',
  'cancelled',
]);
export type CheckoutStatus = z.infer<typeof CheckoutStatusSchema>;

export const CHECKOUT_TERMINAL_STATUSES = [
  'ready',
  'failed',
  'expired',
  'cancelled',
] as const satisfies readonly CheckoutStatus[];

export const CheckoutFailureSchema = z.strictObject({
  /** An error code of the contract or the BFF (`insufficient_balance`, `upstream_unavailable`, …). */
  code: z.string().min(1),
  /** The traveller may try again (a new checkout) with a chance of success. */
  retryable: z.boolean(),
});

/** A checkout as the widget sees it. */
export const CheckoutSchema = z.strictObject({
  id: z.string().min(1),
  status: CheckoutStatusSchema,
  mode: CheckoutModeSchema,
  /** `issue` (a new eSIM) or `top_up` (more data on `esimId`, no installation); absent means `issue`. */
  kind: PurchaseKindSchema.optional(),
  /** The eSIM: the one a top-up is for; for a new eSIM, the one issued, as soon as it exists (null before). */
  esimId: z.string().min(1).nullable().optional(),
  amount: NonNegativeMoneySchema,
  plan: PlanSchema,
  email: z.string().nullable(),
  locale: LocaleSchema,
  failure: CheckoutFailureSchema.nullable(),
  /**
   * How many of the traveller's payment attempts the partner reported declined (partner_confirm): the checkout
   * still awaits payment, and the next attempt is number `declinedAttempts + 1`. Absent from older BFFs: 0.
   */
  declinedAttempts: z.int().min(0).default(0),
  /** Until when a payment (partner_confirm) is awaited. */
  expiresAt: DateTimeSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Checkout = z.infer<typeof CheckoutSchema>;

/** The answer to `POST /v1/checkouts`: the checkout and, once, its client secret. */
export const CreatedCheckoutSchema = CheckoutSchema.extend({ clientSecret: z.string().min(16) });
export type CreatedCheckout = z.infer<typeof CreatedCheckoutSchema>;

export const CreatedCheckoutResponseSchema = apiEnvelope(CreatedCheckoutSchema);
export const CheckoutResponseSchema = apiEnvelope(CheckoutSchema);

/**
 * What installs an eSIM, as every installation answer carries it (the checkout's and "my eSIM"'s): the product
 * itself, only ever `no-store`, never logged.
 */
export const InstallationDataSchema = z.strictObject({
  iccid: z.string().regex(/^89\d{17,18}$/),
  lpa: z.string().startsWith('LPA:1$'),
  qrPayload: z.string().min(1),
  smdpAddress: z.string().min(1),
  activationCode: z.string().min(1),
  ios: z.url(),
  android: z.url(),
});
export type InstallationData = z.infer<typeof InstallationDataSchema>;

/** Installation data: the product itself. Only with the client secret, `Cache-Control: no-store`. */
export const InstallationSchema = z.strictObject({
  checkoutId: z.string().min(1),
  ...InstallationDataSchema.shape,
});
export type Installation = z.infer<typeof InstallationSchema>;
export const InstallationResponseSchema = apiEnvelope(InstallationSchema);

export const CreateDeliveryLinkRequestSchema = z.strictObject({
  maxViews: z.int().min(1).max(5).optional(),
  expiresInMinutes: z.int().min(5).max(1440).optional(),
});
export type CreateDeliveryLinkRequest = z.infer<typeof CreateDeliveryLinkRequestSchema>;

/** A link that opens the installation on another device (the URL is a secret). */
export const WidgetDeliveryLinkSchema = z.strictObject({
  id: z.string().min(1),
  url: z.url(),
  maxViews: z.int().min(1).max(5),
  expiresAt: DateTimeSchema,
});
export type WidgetDeliveryLink = z.infer<typeof WidgetDeliveryLinkSchema>;
export const WidgetDeliveryLinkResponseSchema = apiEnvelope(WidgetDeliveryLinkSchema);

/** `POST /v1/partner/checkouts/{id}/confirm`: the partner took the traveller's payment. */
export const ConfirmCheckoutRequestSchema = z.strictObject({
  /** The partner's own payment reference, kept for reconciliation. */
  paymentReference: z.string().min(1).max(128).optional(),
});
export type ConfirmCheckoutRequest = z.infer<typeof ConfirmCheckoutRequestSchema>;

/** The most payment attempts one checkout may have declined (a traveller trying card after card is stopped). */
export const MAX_DECLINED_PAYMENT_ATTEMPTS = 10;

/**
 * `POST /v1/partner/checkouts/{id}/decline`: the traveller's payment attempt number `attempt` was declined (the
 * card or the bank refused it; nothing was taken). The checkout keeps awaiting payment and the widget tells the
 * traveller to try another card; the next attempt is charged under the key `<checkout id>:attempt-<attempt + 1>`.
 */
export const DeclineCheckoutPaymentRequestSchema = z.strictObject({
  /** The attempt that was declined: 1 for the first charge (keyed by the checkout id), 2 for the next… */
  attempt: z.int().min(1).max(MAX_DECLINED_PAYMENT_ATTEMPTS),
});
export type DeclineCheckoutPaymentRequest = z.infer<typeof DeclineCheckoutPaymentRequestSchema>;

/**
 * The idempotency key of a checkout's payment attempt: the checkout id for the first, `<id>:attempt-<n>` after
 * a decline, so that a double submit charges once and a new card after a decline is a new charge.
 */
export function paymentAttemptKey(checkoutId: string, attempt: number): string {
  return attempt <= 1 ? checkoutId : `${checkoutId}:attempt-${attempt}`;
}

/**
 * The upstream order of a partner's checkout: its status, its `billing` (what of the partner's prepaid funds was
 * reserved, captured, released or refunded — a refund shows here) and its `stateRevision` (higher: a later state).
 * Billing and revision are null until the order was read by a release that keeps them.
 */
export const PartnerCheckoutOrderSchema = z.strictObject({
  id: z.string().min(1),
  status: z.string().min(1),
  billing: OrderBillingSchema.nullable(),
  stateRevision: z.int().min(1).nullable(),
});
export type PartnerCheckoutOrder = z.infer<typeof PartnerCheckoutOrderSchema>;

/**
 * The installation email the BFF sends the traveller itself (a widget with `mail`), once the eSIM is ready:
 * `pending` until it is sent (tried again with backoff), `sent`, `failed` (given up after a day of attempts:
 * `lastError` says why), or `skipped` (the eSIM was installed, or the order ended, before it could go).
 * `lastError` is the SMTP server's reply code (`smtp 550`), a connection failure, or the error code of a read it
 * needed — never the server's words or the address.
 */
export const PartnerInstallationEmailSchema = z.strictObject({
  status: z.enum(['pending', 'sent', 'failed', 'skipped']),
  attempts: z.int().min(0),
  sentAt: DateTimeSchema.nullable(),
  lastAttemptAt: DateTimeSchema.nullable(),
  /** When it is tried again (`pending` after a failed attempt). */
  nextAttemptAt: DateTimeSchema.nullable(),
  lastError: z.string().nullable(),
});
export type PartnerInstallationEmail = z.infer<typeof PartnerInstallationEmailSchema>;

/** A checkout as the partner's server sees it: the widget's view plus the upstream order. */
export const PartnerCheckoutSchema = CheckoutSchema.extend({
  widgetId: z.string().min(1),
  externalRef: z.string().min(1).max(128),
  paymentReference: z.string().nullable(),
  order: PartnerCheckoutOrderSchema.nullable(),
  /** The installation email the BFF sends; null when it sends none (absent from older BFFs: null). */
  installationEmail: PartnerInstallationEmailSchema.nullable().default(null),
});
export type PartnerCheckout = z.infer<typeof PartnerCheckoutSchema>;
export const PartnerCheckoutResponseSchema = apiEnvelope(PartnerCheckoutSchema);
