/**
 * @module
 * Receiving the BFF's webhooks as docs/webhooks.md describes: the `Esim-Signature` checked over the raw body in
 * constant time with a 5-minute tolerance, and each event handled once although it may arrive more than once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The fields of a checkout event the partner server acts on. */
export interface EsimWebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  widgetId: string;
  data: {
    checkout?: {
      id: string;
      status: string;
      failure: { code: string } | null;
      paymentReference: string | null;
    };
  };
}

/** True when `rawBody` was signed with `secret` within `toleranceSeconds` (the docs' verifying function). */
export function verifyEsimWebhook(
  secret: string,
  signatureHeader: string | undefined,
  rawBody: string,
  nowSeconds = Date.now() / 1000,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries(
    String(signatureHeader ?? '')
      .split(',')
      .map((part) => {
        const i = part.indexOf('=');
        return [part.slice(0, i).trim(), part.slice(i + 1).trim()];
      }),
  );
  const timestamp = Number(parts.t);
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  if (!Number.isInteger(timestamp) || given.length !== 32) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return timingSafeEqual(expected, given);
}

/** Remembers event ids: delivery is at least once, handling must be once. */
export function createEventDeduplicator(): (eventId: string) => boolean {
  // A real partner keeps the ids in its database (a unique key); a day's worth is enough: retries stop then.
  const seen = new Set<string>();
  return function firstTime(eventId) {
    if (seen.has(eventId)) return false;
    seen.add(eventId);
    return true;
  };
}
