/**
 * @module
 * Webhooks to the partner's server: what the BFF POSTs to a widget's `webhookUrl` when a checkout or an eSIM
 * changes. Each event has an id to de-duplicate on (delivery is at least once) and is signed:
 * `Esim-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${rawBody}`)>` (docs/webhooks.md).
 */
import { z } from 'zod';
import { DateTimeSchema, EnvironmentSchema } from '../partner/common';
import { PartnerCheckoutSchema } from './checkout';
import { WidgetIdSchema } from './session';

/** The header with the timestamp and signature of a webhook delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'Esim-Signature';
/** The header with the event id (the same on every retry of one event). */
export const WEBHOOK_ID_HEADER = 'Esim-Webhook-Id';
/** How old a signed timestamp may be before a receiver should refuse it (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The kinds of event. */
export const WebhookEventTypeSchema = z.enum([
  /** A `partner_confirm` checkout waits for the partner's payment and confirm. */
  'checkout.awaiting_payment',
  /** The order is done: the eSIM is issued (kind `issue`) or the top-up applied (kind `top_up`). */
  'checkout.completed',
  /** The order was refused or provisioning failed (`checkout.failure` says why). */
  'checkout.failed',
  /** Nobody paid within the payment window. */
  'checkout.expired',
  /** The partner cancelled it, or the upstream refunded the order. */
  'checkout.cancelled',
  /** A new eSIM can be installed (`esimId`). */
  'esim.ready',
  /** A top-up is on its eSIM (`esimId`). */
  'topup.completed',
]);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** One event, as the request body of a delivery. */
export const WebhookEventSchema = z.strictObject({
  /** Unique per event, the same on every retry: de-duplicate on it. */
  id: z.string().min(1),
  type: WebhookEventTypeSchema,
  createdAt: DateTimeSchema,
  widgetId: WidgetIdSchema,
  environment: EnvironmentSchema,
  data: z.strictObject({
    checkout: PartnerCheckoutSchema,
    /** The eSIM issued or topped up; null before issuance. */
    esimId: z.string().nullable(),
  }),
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
