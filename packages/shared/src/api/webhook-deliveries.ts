/**
 * @module
 * The partner's support desk for webhooks: `GET /v1/partner/webhook-deliveries` (newest first, filtered by
 * status, event type and checkout, paged as every list is), `GET …/{id}` (one delivery with the event it carries)
 * and `POST …/{id}/resend` (a new attempt of the same event, under the same event id). A delivery is one event on
 * its way to the widget's `webhookUrl`: its attempts, each with its time and the endpoint's HTTP status, and its
 * next attempt.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../upstream/upstream-common';
import { apiEnvelope } from './common';
import { ListQuerySchema, listPageEnvelope } from './list-page';
import { WidgetIdSchema } from './session';
import { WebhookEventSchema, WebhookEventTypeSchema } from './webhooks';

/**
 * Where a delivery stands: `pending` (its next attempt is due at `nextAttemptAt`), `paused` (pending behind the
 * circuit of an endpoint that keeps failing: one probe per backoff step until it answers), `delivered` (the
 * endpoint answered 2xx) or `failed` (given up after the retry span, or the widget has no webhook endpoint).
 */
export const WebhookDeliveryStatusSchema = z.enum(['pending', 'paused', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatusSchema>;

/** One attempt to deliver: when, and what the endpoint answered. */
export const WebhookDeliveryAttemptSchema = z.strictObject({
  at: DateTimeSchema,
  /** The endpoint's HTTP status; null when it gave none (see `error`). */
  httpStatus: z.int().min(100).max(599).nullable(),
  /** Why there was no HTTP status: `timeout`, `network_error` or `not_configured` (no endpoint); else null. */
  error: z.string().nullable(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttemptSchema>;

/** The most attempts a delivery lists (the latest ones; `attemptCount` counts them all). */
export const WEBHOOK_DELIVERY_ATTEMPTS_LISTED = 30;

/** One webhook delivery, as the partner's support sees it. */
export const PartnerWebhookDeliverySchema = z.strictObject({
  /** The event id: the same on every attempt and resend (`Esim-Webhook-Id`), what the receiver de-duplicates on. */
  id: z.string().min(1),
  type: WebhookEventTypeSchema,
  widgetId: WidgetIdSchema,
  /** The checkout the event is about; null for events about no checkout (`account.balance_low`, …). */
  checkoutId: z.string().nullable(),
  /** The eSIM the event names; null when it names none. */
  esimId: z.string().nullable(),
  status: WebhookDeliveryStatusSchema,
  /** Attempts made, resends included. */
  attemptCount: z.int().min(0),
  /** The latest attempts, oldest first. */
  attempts: z.array(WebhookDeliveryAttemptSchema).max(WEBHOOK_DELIVERY_ATTEMPTS_LISTED),
  /** When the next attempt is due (`pending`, `paused`); null when none will be made. */
  nextAttemptAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
  /** When the partner last asked for it again; null if never. */
  resentAt: DateTimeSchema.nullable(),
});
export type PartnerWebhookDelivery = z.infer<typeof PartnerWebhookDeliverySchema>;

/** `GET /v1/partner/webhook-deliveries/{id}`: the delivery and the event it sends, byte for byte as signed. */
export const PartnerWebhookDeliveryDetailSchema = z.strictObject({
  ...PartnerWebhookDeliverySchema.shape,
  event: WebhookEventSchema,
});
export type PartnerWebhookDeliveryDetail = z.infer<typeof PartnerWebhookDeliveryDetailSchema>;
export const PartnerWebhookDeliveryResponseSchema = apiEnvelope(PartnerWebhookDeliveryDetailSchema);
export const PartnerWebhookDeliveryListResponseSchema = listPageEnvelope(PartnerWebhookDeliverySchema);

/** `GET /v1/partner/webhook-deliveries?status=&type=&checkoutId=&widgetId=&limit=&cursor=`. */
export const WebhookDeliveryListQuerySchema = z.strictObject({
  ...ListQuerySchema.shape,
  /** Only this widget's (one the partner secret opens); default: every widget it opens. */
  widgetId: WidgetIdSchema.optional(),
  status: WebhookDeliveryStatusSchema.optional(),
  type: WebhookEventTypeSchema.optional(),
  checkoutId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/)
    .optional(),
});
export type WebhookDeliveryListQuery = z.input<typeof WebhookDeliveryListQuerySchema>;

/** `POST /v1/partner/webhook-deliveries/{id}/resend`: no fields (an empty body reads as `{}`). */
export const ResendWebhookDeliveryRequestSchema = z.strictObject({});
