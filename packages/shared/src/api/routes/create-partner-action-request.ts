/**
 * @module
 * `POST /v1/partner/esims/{esimId}/action-requests`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CreateActionRequestSchema, PartnerActionRequestResponseSchema } from '../after-sale';

export const id = 'createPartnerActionRequest';
export const method = 'POST';
export const path = '/v1/partner/esims/{esimId}/action-requests';
export const summary =
  'A help request (cancellation, refund or reissue by reason) when the eSIM’s actions allow it at once or through review (manual_review); followed, and reported by action_request.updated webhooks.';
export const auth = 'partner';
export const idempotent = true;
export const body = CreateActionRequestSchema;
export const status = 201;
export const response = PartnerActionRequestResponseSchema;
export const errors = [
  'esim_not_found',
  'action_not_available',
  'upstream_unavailable',
  'upstream_refused',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
