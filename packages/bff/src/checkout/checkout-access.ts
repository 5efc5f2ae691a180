/**
 * @module
 * Who may see a checkout. The widget that created it gets a client secret (`X-Checkout-Secret`); the
 * secret is an HMAC of the checkout id under the key ring's client-secret key, named by its `kid`
 * (`cs_<kid>_<mac>`), so it is never stored, any instance can check it, and it is recomputed for a replayed
 * create. Reads also need a session of the same widget and origin. The partner's server proves itself with
 * its partner secret. Every comparison is constant-time. Also what a checkout keeps of the address that opened
 * it: a keyed digest, which a copy of the store cannot reverse by trying every address.
 */
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import { fixedKey, hmacSha256 } from '../security/hmac';
import { deriveKey, purposeKeys } from '../security/key-ring';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { CheckoutRecord } from './checkout-record';

/** Issues and checks checkout client secrets. */
export interface CheckoutSecrets {
  secretFor(checkoutId: string): string;
  /** True when `given` is the checkout's client secret. */
  matches(checkoutId: string, given: string | undefined): boolean;
  /**
   * What a checkout keeps of the client address that created it (`openedFrom`), by which its holds and payments
   * count against that address's caps: an HMAC under the key ring's `checkout-opened-from` key, the same on every
   * instance of one root secret.
   */
  openerOf(address: string): string;
  /**
   * The id of the checkout a create makes under `createKey` (its idempotency key as stored: scope and key): an
   * HMAC under the key ring's `checkout-id` key, so that a retry makes the same checkout — and its order the same
   * upstream reference and key — even when a failover lost every record of the first attempt.
   */
  checkoutIdFor(createKey: string): string;
  /**
   * True when `id` is a checkout id {@link checkoutIdFor} made (under any accepted root): an upstream order under
   * such a reference is this BFF's even when no record of it is left.
   */
  madeCheckoutId(id: string): boolean;
}

/** A client secret: `cs_`, the key id, `_`, the HMAC. */
const CLIENT_SECRET = /^cs_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;
/** A client secret of the release before: an HMAC straight under the root secret, no key id. */
const UNNAMED_CLIENT_SECRET = /^cs_[A-Za-z0-9_-]{43}$/;

/**
 * A checkout id made from its create's key: `chk_`, then 16 bytes as a random id has (`newId`) — 12 of an HMAC of
 * the key, 4 of a tag over those 12 — so that the id is as unguessable as before and still says that this BFF made it.
 */
const CHECKOUT_ID_BODY_BYTES = 12;
const CHECKOUT_ID_TAG_BYTES = 4;
const MADE_CHECKOUT_ID = /^chk_[A-Za-z0-9_-]{22}$/;

/**
 * Client secrets under the root secrets `roots`, newest first: the first issues them, every one checks them
 * (so those of open checkouts outlive a rotation), including the unnamed ones issued before key ids existed.
 */
export function createCheckoutSecrets(roots: Uint8Array | readonly Uint8Array[]): CheckoutSecrets {
  const all = roots instanceof Uint8Array ? [roots] : roots;
  const keys = purposeKeys(all, 'checkout-client-secret');
  const opener = purposeKeys(all, 'checkout-opened-from').signing.key;
  const checkoutIdKeys = all.map((root) => deriveKey(root, 'checkout-id').key);
  /** The tag that ends a checkout id: its first 12 bytes' HMAC, so the id says who made it. */
  const idTag = (key: Buffer, body: Buffer) =>
    hmacSha256(key, `tag:${body.toString('base64url')}`).subarray(0, CHECKOUT_ID_TAG_BYTES);
  const mac = (key: Buffer, checkoutId: string) => hmacSha256(key, checkoutId).toString('base64url');
  const unnamed = (root: Uint8Array, checkoutId: string) =>
    `cs_${hmacSha256(root, `checkout-client-secret:${checkoutId}`).toString('base64url')}`;
  return {
    openerOf: (address) => hmacSha256(opener, address).subarray(0, 16).toString('base64url'),
    checkoutIdFor(createKey) {
      const key = checkoutIdKeys[0] as Buffer;
      const body = hmacSha256(key, `create:${createKey}`).subarray(0, CHECKOUT_ID_BODY_BYTES);
      return `chk_${Buffer.concat([body, idTag(key, body)]).toString('base64url')}`;
    },
    madeCheckoutId(id) {
      if (!MADE_CHECKOUT_ID.test(id)) return false;
      const bytes = Buffer.from(id.slice(4), 'base64url');
      const body = bytes.subarray(0, CHECKOUT_ID_BODY_BYTES);
      const tag = bytes.subarray(CHECKOUT_ID_BODY_BYTES);
      return checkoutIdKeys.some((key) => timingSafeEqual(tag, idTag(key, body)));
    },
    secretFor: (checkoutId) => `cs_${keys.signing.kid}_${mac(keys.signing.key, checkoutId)}`,
    matches(checkoutId, given) {
      if (given === undefined) return false;
      const named = CLIENT_SECRET.exec(given);
      if (named !== null) {
        const key = keys.byKid(named[1] as string);
        return key !== undefined && constantTimeEqual(named[2] as string, mac(key, checkoutId));
      }
      if (!UNNAMED_CLIENT_SECRET.test(given)) return false;
      // Every root is tried, so the time taken says nothing about which one signed it.
      let matched = false;
      for (const root of all) if (constantTimeEqual(given, unnamed(root, checkoutId))) matched = true;
      return matched;
    },
  };
}

const COMPARISON_KEY = fixedKey('compare');

/** Compare two strings without leaking where they differ (hashed first, so lengths leak nothing either). */
export function constantTimeEqual(a: string, b: string): boolean {
  return (
    timingSafeEqual(hmacSha256(COMPARISON_KEY, a), hmacSha256(COMPARISON_KEY, b)) && a.length === b.length
  );
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
