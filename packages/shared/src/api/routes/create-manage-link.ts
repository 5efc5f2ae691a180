/**
 * @module
 * `POST /v1/checkouts/{id}/manage-link`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { ManageLinkResponseSchema } from '../after-sale';

export const id = 'createManageLink';
export const method = 'POST';
export const path = '/v1/checkouts/{id}/manage-link';
export const summary =
  'The manage link of a ready checkout’s eSIM (the same one on every call): the way back to “my eSIM”.';
export const auth = 'session+secret';
export const status = 201;
export const response = ManageLinkResponseSchema;
export const errors = ['esim_not_found', 'invalid_transition', 'forbidden', 'upstream_unavailable'] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
