/**
 * @module
 * Finding a sale and reading its page in the partner console. The search takes the partner API's checkout
 * filters (`PartnerCheckoutListQuerySchema`) plus a checkout id, a widget and `q` — one box that is an e-mail
 * address, a checkout id, an eSIM id or a payment reference, as the page cannot tell which a user typed. A
 * sale's page gathers the checkout, its timeline, its webhook deliveries with every attempt, its help requests,
 * its ledger record and the eSIM's live view (usage read from the upstream).
 */
import { z } from 'zod';
import { EsimViewSchema, PartnerActionRequestSchema } from '../api/after-sale';
import { PartnerCheckoutSchema } from '../api/checkout';
import { PartnerSaleSchema } from '../api/sales-ledger';
import { PartnerCheckoutListQuerySchema } from '../api/support-desk';
import { PartnerWebhookDeliverySchema } from '../api/webhook-deliveries';
import { DateTimeSchema } from '../upstream/upstream-common';

/** A checkout id as the console takes it (the partner routes' shape). */
export const ConsoleCheckoutIdSchema = z.string().regex(/^chk_[A-Za-z0-9_-]{8,64}$/);

/**
 * `GET /console/api/sales?q=&email=&checkoutId=&esimId=&paymentReference=&status=&createdFrom=&createdTo=&widgetId=
 * &limit=&cursor=`: newest first; every filter optional, all applied together; `nextCursor` continues the same
 * search only.
 */
export const ConsoleSalesQuerySchema = PartnerCheckoutListQuerySchema.extend({
  /** One search box: an e-mail address (has `@`), a checkout id (`chk_…`), else an eSIM id or payment reference. */
  q: z.string().trim().min(1).max(254).optional(),
  checkoutId: ConsoleCheckoutIdSchema.optional(),
  widgetId: z.string().min(1).max(64).optional(),
});
export type ConsoleSalesQuery = z.infer<typeof ConsoleSalesQuerySchema>;

/** One step of a sale's life, as its timeline lists it (oldest first). */
export const SaleTimelineKindSchema = z.enum([
  'checkout_created',
  'payment_started',
  'payment_declined',
  'confirmed',
  'order_placed',
  'esim_ready',
  'email_sent',
  'email_failed',
  'webhook_attempt',
  'help_request',
  'help_request_completed',
  'refunded',
  'failed',
  'cancelled',
  'expired',
]);
export type SaleTimelineKind = z.infer<typeof SaleTimelineKindSchema>;

/** One entry of the timeline: when, what, and a few facts (a status code, an event type, a reason). */
export const SaleTimelineEntrySchema = z.strictObject({
  at: DateTimeSchema,
  kind: SaleTimelineKindSchema,
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type SaleTimelineEntry = z.infer<typeof SaleTimelineEntrySchema>;

/** `GET /console/api/sales/{checkoutId}`: everything about one sale. */
export const ConsoleSalePageSchema = z.strictObject({
  checkout: PartnerCheckoutSchema,
  timeline: z.array(SaleTimelineEntrySchema),
  /** The webhook deliveries about this checkout, newest first, each with its latest attempts and answers. */
  webhookDeliveries: z.array(PartnerWebhookDeliverySchema),
  /** The help requests made for its eSIM, newest first. */
  helpRequests: z.array(PartnerActionRequestSchema),
  /** Its record in the sales ledger; null until paid. */
  sale: PartnerSaleSchema.nullable(),
  /** The eSIM as the upstream reports it now (usage, state, actions); null before one is issued or when unread. */
  esim: EsimViewSchema.nullable(),
  /** Why `esim` is null although the checkout names one: the error code of its read (`upstream_unavailable`, …). */
  esimUnavailable: z.string().nullable(),
});
export type ConsoleSalePage = z.infer<typeof ConsoleSalePageSchema>;
