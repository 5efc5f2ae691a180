/**
 * @module
 * Who may see a checkout. The widget that created it gets a client secret once (`X-Checkout-Secret`); the
 * secret is an HMAC of the checkout id under a server key, so it is never stored and any instance can check
 * it. Reads also need a session of the same widget and origin. The partner's server proves itself with
 * its partner secret. Every comparison is constant-time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { CheckoutRecord } from './checkout-record';

/** Issues and checks checkout client secrets. */
export interface CheckoutSecrets {
  secretFor(checkoutId: string): string;
  /** True when `given` is the checkout's client secret. */
  matches(checkoutId: string, given: string | undefined): boolean;
}

/** Client secrets derived from `key` (the session-signing secret, or a key of its own). */
export function createCheckoutSecrets(key: Uint8Array): CheckoutSecrets {
  const secretFor = (checkoutId: string) =>
    `cs_${createHmac('sha256', Buffer.from(key)).update(`checkout-client-secret:${checkoutId}`).digest('base64url')}`;
  return {
    secretFor,
    matches(checkoutId, given) {
      if (given === undefined) return false;
      return constantTimeEqual(given, secretFor(checkoutId));
    },
  };
}

/** Compare two strings without leaking where they differ (hashed first, so lengths leak nothing either). */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHmac('sha256', 'compare').update(value).digest();
  return timingSafeEqual(digest(a), digest(b)) && a.length === b.length;
}

/** The widgets whose partner secret is `given` (several widgets of one partner may share one). */
export function widgetsForPartnerSecret(
  widgets: Iterable<WidgetRuntime>,
  given: string | undefined,
): Set<string> {
  const matched = new Set<string>();
  if (given === undefined || given === '') return matched;
  for (const widget of widgets) {
    // Compare against every widget, matched or not, so the time taken says nothing about which matched.
    if (widget.partnerSecret !== undefined && constantTimeEqual(given, widget.partnerSecret)) {
      matched.add(widget.config.id);
    }
  }
  return matched;
}

/** Throws `checkout_not_found` unless the session's widget and origin and the client secret fit the checkout. */
export function assertWidgetAccess(
  record: CheckoutRecord | undefined,
  session: { widgetId: string; origin: string },
  secretOk: boolean,
): asserts record is CheckoutRecord {
  // One answer for "no such checkout", "not yours" and "wrong secret": nothing to probe.
  if (
    record === undefined ||
    !secretOk ||
    record.widgetId !== session.widgetId ||
    record.origin !== session.origin
  ) {
    throw new ApiError('checkout_not_found');
  }
}
