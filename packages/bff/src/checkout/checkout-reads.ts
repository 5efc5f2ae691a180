/**
 * @module
 * A checkout as it is read: by the holder of its client secret, by the partner's server, by the background watch,
 * each time brought up to date with its upstream order; and the two views of it, the widget's and the partner's.
 */
import {
  type Checkout,
  OrderBillingSchema,
  type PartnerCheckout,
  type PartnerInstallationEmail,
} from '@esim-embed/shared';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type CheckoutContext, loadForPartner, loadForWidget, type SessionCaller } from './checkout-context';
import type { CheckoutRecord } from './checkout-record';

/** The widget's view of a checkout. */
export function toCheckout(record: CheckoutRecord): Checkout {
  return {
    id: record.id,
    status: record.status,
    mode: record.mode,
    kind: record.kind,
    // A top-up names the eSIM it tops up from the start; an issue, the eSIM it issued as soon as it exists.
    esimId: record.esimId ?? record.order?.esimId ?? null,
    amount: record.amount,
    plan: record.plan,
    email: record.email,
    locale: record.locale,
    failure: record.failure,
    declinedAttempts: record.declinedAttempts,
    expiresAt: record.expiresAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The partner server's view of a checkout. */
export function toPartnerCheckout(record: CheckoutRecord): PartnerCheckout {
  return {
    ...toCheckout(record),
    widgetId: record.widgetId,
    externalRef: record.id,
    paymentReference: record.paymentReference,
    order:
      record.order === null
        ? null
        : {
            id: record.order.id,
            status: record.order.status,
            // Read leniently: a billing status this release does not know reads as not known.
            billing: OrderBillingSchema.nullable().catch(null).parse(record.order.billing),
            stateRevision: record.order.stateRevision,
          },
    installationEmail: partnerInstallationEmail(record.installationEmail),
  };
}

/** The installation email as the partner reads it (`mail/`): its times as dates; null when none is sent. */
function partnerInstallationEmail(
  email: CheckoutRecord['installationEmail'],
): PartnerInstallationEmail | null {
  if (email === null) return null;
  const date = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    status: email.status,
    attempts: email.attempts,
    sentAt: date(email.sentAtMs),
    lastAttemptAt: date(email.lastAttemptAtMs),
    nextAttemptAt: email.status === 'pending' ? date(email.nextAttemptAtMs) : null,
    lastError: email.lastError,
  };
}

/** `readCheckout`, `partnerRead` and `watch` of the checkout service. */
export function checkoutReads(context: CheckoutContext) {
  const { repository, sync } = context;
  return {
    async readCheckout(
      caller: SessionCaller,
      id: string,
      clientSecret: string | undefined,
    ): Promise<Checkout> {
      const stored = await loadForWidget(context, caller, id, clientSecret);
      return toCheckout((await sync.refresh(stored, caller.widget)).record);
    },

    async partnerRead(
      widgets: ReadonlyMap<string, WidgetRuntime>,
      id: string,
      options: { fresh?: boolean } = {},
    ): Promise<PartnerCheckout> {
      const { stored, widget } = await loadForPartner(context, widgets, id);
      return toPartnerCheckout((await sync.refresh(stored, widget, { ...options, afterSale: true })).record);
    },

    async watch(id: string, widgets: ReadonlyMap<string, WidgetRuntime>): Promise<CheckoutRecord | null> {
      const stored = await repository.getCheckout(id);
      const widget = stored === null ? undefined : widgets.get(stored.record.widgetId);
      if (stored === null || widget === undefined) return null;
      return (await sync.refresh(stored, widget)).record;
    },
  };
}
