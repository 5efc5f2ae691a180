/**
 * @module
 * Envelopes, errors and headers of the BFF's own widget API (`/v1/*`). Success bodies are
 * `{ data, meta }`; errors use the contract's error envelope with a few BFF-specific codes added.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../upstream/errors';
import { API_VERSION } from '../upstream/upstream-common';

/** Codes the BFF adds to the contract's for conditions the contract has no code for. */
export const BFF_ERROR_CODES = [
  'checkout_not_found',
  'destination_not_found',
  'upstream_unavailable',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  /** The BFF's own state store does not answer: nothing was done, try again in a moment (503). */
  'store_unavailable',
  /**
   * The upstream refused with a code this release does not know (a `stable` contract may add codes): the
   * request was not done; `params.upstreamRequestId` is the upstream's support reference (422).
   */
  'upstream_refused',
  /**
   * The widget cannot sell as configured: its upstream key lacks a scope the widget needs, belongs to the
   * other environment, names another brand, or the upstream offers no sale. The operator must fix it (503).
   */
  'widget_misconfigured',
  /**
   * What was asked for belonged to a traveller whose data was erased at the partner's request (a manage link of
   * an erased sale): nothing personal is answered any more (410).
   */
  'erased',
] as const;
/** A code the BFF adds to the contract's. */
export type BffErrorCode = (typeof BFF_ERROR_CODES)[number];

export const ApiErrorCodeSchema = z.enum([...ERROR_CODES, ...BFF_ERROR_CODES]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

/** `meta` of every BFF response. */
export const ApiMetaSchema = z.strictObject({
  requestId: z.string().min(1),
  apiVersion: z.literal(API_VERSION),
});
export type ApiMeta = z.infer<typeof ApiMetaSchema>;

/** The BFF's error envelope: the contract's shape, with the BFF's codes allowed. */
export const ApiErrorEnvelopeSchema = z.strictObject({
  error: z.strictObject({
    code: ApiErrorCodeSchema,
    params: z.record(z.string(), z.unknown()),
  }),
  meta: ApiMetaSchema,
});
export type ApiErrorEnvelope = z.infer<typeof ApiErrorEnvelopeSchema>;

/** `{ data, meta }` around one BFF resource. */
export function apiEnvelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ data, meta: ApiMetaSchema });
}

/**
 * `params.cause` of an `upstream_unavailable` answered while the BFF has not read the partner's account yet: it reads
 * it again within seconds, so a client repeats the request after its `Retry-After`.
 */
export const ACCOUNT_UNREADABLE = 'account_unreadable';
/** The header that carries a checkout's client secret on status, installation and delivery-link calls. */
export const CHECKOUT_SECRET_HEADER = 'X-Checkout-Secret';
/** The header that carries the partner server secret on `/v1/partner/*`. */
export const PARTNER_SECRET_HEADER = 'X-Partner-Secret';
/** The header every create carries; a replay with the same key returns the first answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** An idempotency key: 1..255 visible ASCII characters. */
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'visible ASCII only');
