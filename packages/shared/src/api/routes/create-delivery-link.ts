/**
 * @module
 * `POST /v1/checkouts/{id}/delivery-links`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CreateDeliveryLinkRequestSchema, WidgetDeliveryLinkResponseSchema } from '../checkout';

export const id = 'createDeliveryLink';
export const method = 'POST';
export const path = '/v1/checkouts/{id}/delivery-links';
export const summary = 'A view-limited link that opens the installation on another device.';
export const auth = 'session+secret';
export const idempotent = true;
export const body = CreateDeliveryLinkRequestSchema;
export const status = 201;
export const response = WidgetDeliveryLinkResponseSchema;
export const errors = [
  'esim_not_found',
  'invalid_transition',
  'upstream_unavailable',
  'upstream_refused',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
