/**
 * @module
 * `POST /v1/quotes`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CreateQuoteRequestSchema, QuoteResponseSchema } from '../checkout';

export const id = 'createQuote';
export const method = 'POST';
export const path = '/v1/quotes';
export const summary = 'Hold a retail price for one offer until expiresAt.';
export const auth = 'session';
export const idempotent = true;
export const acceptsManageToken = true;
export const body = CreateQuoteRequestSchema;
export const status = 201;
export const response = QuoteResponseSchema;
export const errors = [
  'offer_not_found',
  'product_unavailable',
  'order_limit_exceeded',
  'action_not_available',
  'esim_not_found',
  'widget_misconfigured',
  // A top-up's manage token of a traveller erased at the partner's request.
  'erased',
  'upstream_unavailable',
  'upstream_refused',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
