/**
 * @module
 * `POST /v1/partner/esims/{esimId}/delivery-links`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CreatePartnerDeliveryLinkRequestSchema, PartnerDeliveryLinkResponseSchema } from '../after-sale';

export const id = 'createPartnerDeliveryLink';
export const method = 'POST';
export const path = '/v1/partner/esims/{esimId}/delivery-links';
export const summary =
  'A delivery link (hosted installation page, view-limited) for an eSIM the partner sold; its url is a secret to send to the traveller.';
export const auth = 'partner';
export const idempotent = true;
export const body = CreatePartnerDeliveryLinkRequestSchema;
export const status = 201;
export const response = PartnerDeliveryLinkResponseSchema;
export const errors = [
  'esim_not_found',
  'invalid_transition',
  'upstream_unavailable',
  'upstream_refused',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
