/**
 * @module
 * The console's views of the partner's operations: its webhooks' health (endpoint, circuit, deliveries failing
 * now), its money (balance, holds and spend against the limits, per upstream account), and the counters behind
 * its charts — sales per day (count, revenue, margin) and the funnel per widget and day — kept without personal
 * data. The period of a chart or of the sales CSV is the partner API's (`from` inclusive, `to` exclusive).
 */
import { z } from 'zod';
import { PartnerAccountSchema } from '../api/partner-account';
import { SalePeriodBoundSchema } from '../api/sales-ledger';
import { PartnerWebhookDeliverySchema } from '../api/webhook-deliveries';
import { DateTimeSchema } from '../upstream/upstream-common';

/** One widget's webhooks: where they go, whether the circuit holds them back, and what is failing. */
export const WidgetWebhooksHealthSchema = z.strictObject({
  widgetId: z.string().min(1),
  /** The widget's `webhookUrl`; null when it has none (every event then fails with `not_configured`). */
  endpoint: z.string().nullable(),
  circuit: z.strictObject({
    /** `open`: the endpoint kept failing, deliveries wait and one probe per step tries it. */
    state: z.enum(['closed', 'open']),
    consecutiveFailures: z.int().min(0),
    /** Until when deliveries are held back; null when closed. */
    pausedUntil: DateTimeSchema.nullable(),
  }),
  /** Deliveries given up (`failed`) or waiting behind the circuit (`paused`), newest first (at most 50). */
  failing: z.array(PartnerWebhookDeliverySchema),
});
export type WidgetWebhooksHealth = z.infer<typeof WidgetWebhooksHealthSchema>;

/** `GET /console/api/webhooks`. */
export const ConsoleWebhooksHealthSchema = z.strictObject({ widgets: z.array(WidgetWebhooksHealthSchema) });
export type ConsoleWebhooksHealth = z.infer<typeof ConsoleWebhooksHealthSchema>;

/** `POST /console/api/webhook-deliveries/resend-failed`: every `failed` delivery created since `since`. */
export const ResendFailedDeliveriesRequestSchema = z.strictObject({
  since: DateTimeSchema,
  widgetId: z.string().min(1).max(64).optional(),
});
export type ResendFailedDeliveriesRequest = z.infer<typeof ResendFailedDeliveriesRequestSchema>;
/** How many were sent again (each a new attempt under its own event id). */
export const ResendFailedDeliveriesResultSchema = z.strictObject({ resent: z.int().min(0) });
export type ResendFailedDeliveriesResult = z.infer<typeof ResendFailedDeliveriesResultSchema>;

/** `GET /console/api/money`: each widget's account as the funding check sees it (or why it could not be read). */
export const ConsoleMoneySchema = z.strictObject({
  widgets: z.array(
    z.strictObject({
      widgetId: z.string().min(1),
      account: PartnerAccountSchema.nullable(),
      /** The error code of a read that failed (`upstream_unavailable`, …); null when read. */
      unavailable: z.string().nullable(),
    }),
  ),
});
export type ConsoleMoney = z.infer<typeof ConsoleMoneySchema>;

/** The query of a chart or of the CSV: a period (UTC days or instants; default the last 30 days) and a widget. */
export const ConsolePeriodQuerySchema = z.strictObject({
  from: SalePeriodBoundSchema.optional(),
  to: SalePeriodBoundSchema.optional(),
  widgetId: z.string().min(1).max(64).optional(),
});
export type ConsolePeriodQuery = z.infer<typeof ConsolePeriodQuerySchema>;

/** A UTC day: `2026-11-29`. */
export const ConsoleDaySchema = z.iso.date();

/** One day of one widget's sales in one currency: how many, what travellers paid, and the margin over wholesale. */
export const SalesDaySchema = z.strictObject({
  day: ConsoleDaySchema,
  widgetId: z.string().min(1),
  currency: z.string().min(3).max(3),
  count: z.int().min(0),
  /** Retail, in minor units. */
  revenueMinor: z.int(),
  /** Retail minus wholesale, in minor units (a sale without a known wholesale counts none). */
  marginMinor: z.int(),
});
export type SalesDay = z.infer<typeof SalesDaySchema>;

/** `GET /console/api/charts/sales`: the days that had sales, oldest first. */
export const ConsoleSalesChartSchema = z.strictObject({ days: z.array(SalesDaySchema) });
export type ConsoleSalesChart = z.infer<typeof ConsoleSalesChartSchema>;

/**
 * The funnel's steps, in order: each counted server-side once per event, without anything personal. `installed`
 * (its stored name) is the installation *shown* to the traveller, every time it is read: the BFF never learns
 * whether the eSIM was then installed, so the console labels it "installation shown".
 */
export const FUNNEL_STEPS = [
  'widgetOpened',
  'planChosen',
  'quoted',
  'checkout',
  'paymentStarted',
  'paid',
  'installed',
] as const;
export const FunnelStepSchema = z.enum(FUNNEL_STEPS);
export type FunnelStep = z.infer<typeof FunnelStepSchema>;

/** One day of one widget's funnel. */
export const FunnelDaySchema = z.strictObject({
  day: ConsoleDaySchema,
  widgetId: z.string().min(1),
  steps: z.strictObject(
    Object.fromEntries(FUNNEL_STEPS.map((step) => [step, z.int().min(0)])) as Record<FunnelStep, z.ZodInt>,
  ),
});
export type FunnelDay = z.infer<typeof FunnelDaySchema>;

/** `GET /console/api/charts/funnel`: one entry per widget and day of the period, oldest first. */
export const ConsoleFunnelChartSchema = z.strictObject({ days: z.array(FunnelDaySchema) });
export type ConsoleFunnelChart = z.infer<typeof ConsoleFunnelChartSchema>;
