/**
 * @module
 * A sale's timeline, put together from what the BFF already keeps about it — the checkout (created, its end), the
 * ledger's record (paid, ready, refunded), the installation email, every webhook attempt and its answer, and the
 * help requests — oldest first. Nothing is recorded for it alone: each entry is read from its own record.
 */
import type {
  PartnerActionRequest,
  PartnerCheckout,
  PartnerSale,
  PartnerWebhookDelivery,
} from '@esim-embed/shared';
import type { SaleTimelineEntry } from '@esim-embed/shared/console';

/** What a timeline is made from. */
export interface SaleFacts {
  checkout: PartnerCheckout;
  sale: PartnerSale | null;
  webhookDeliveries: readonly PartnerWebhookDelivery[];
  helpRequests: readonly PartnerActionRequest[];
}

/** The timeline of one sale, oldest first. */
export function saleTimeline({
  checkout,
  sale,
  webhookDeliveries,
  helpRequests,
}: SaleFacts): SaleTimelineEntry[] {
  const entries: SaleTimelineEntry[] = [
    {
      at: checkout.createdAt,
      kind: 'checkout_created',
      detail: { mode: checkout.mode, kind: checkout.kind ?? 'issue', offerId: checkout.plan.offerId },
    },
  ];
  if (checkout.declinedAttempts > 0) {
    entries.push({
      at: checkout.updatedAt,
      kind: 'payment_declined',
      detail: { declinedAttempts: checkout.declinedAttempts },
    });
  }
  if (sale !== null) {
    entries.push({
      at: sale.paidAt,
      kind: checkout.mode === 'partner_confirm' ? 'confirmed' : 'order_placed',
      detail: { paymentReference: sale.paymentReference, orderId: sale.orderId },
    });
    if (sale.readyAt !== null)
      entries.push({ at: sale.readyAt, kind: 'esim_ready', detail: { esimId: sale.esimId } });
    if (sale.refundedAt !== null) {
      entries.push({ at: sale.refundedAt, kind: 'refunded', detail: { orderStatus: sale.orderStatus } });
    }
  }
  const ending = { failed: 'failed', cancelled: 'cancelled', expired: 'expired' } as const;
  if (checkout.status in ending) {
    entries.push({
      at: checkout.updatedAt,
      kind: ending[checkout.status as keyof typeof ending],
      detail: { code: checkout.failure?.code ?? null },
    });
  }
  const email = checkout.installationEmail;
  if (email?.sentAt != null)
    entries.push({ at: email.sentAt, kind: 'email_sent', detail: { attempts: email.attempts } });
  if (email?.status === 'failed' && email.lastAttemptAt !== null) {
    entries.push({ at: email.lastAttemptAt, kind: 'email_failed', detail: { error: email.lastError } });
  }
  for (const delivery of webhookDeliveries) {
    for (const attempt of delivery.attempts) {
      entries.push({
        at: attempt.at,
        kind: 'webhook_attempt',
        detail: {
          deliveryId: delivery.id,
          type: delivery.type,
          httpStatus: attempt.httpStatus,
          error: attempt.error,
        },
      });
    }
  }
  for (const request of helpRequests) {
    entries.push({
      at: request.createdAt,
      kind: 'help_request',
      detail: { actionRequestId: request.id, type: request.type, reason: request.reason.code },
    });
    if (request.completedAt !== null) {
      entries.push({
        at: request.completedAt,
        kind: 'help_request_completed',
        detail: { actionRequestId: request.id, type: request.type, status: request.status },
      });
    }
  }
  // Stable: entries of one instant keep the order they were found in (created before paid before ready).
  return entries
    .map((entry, index) => ({ entry, index, ms: Date.parse(entry.at) }))
    .sort((a, b) => a.ms - b.ms || a.index - b.index)
    .map(({ entry }) => entry);
}
