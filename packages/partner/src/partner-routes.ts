/**
 * @module
 * Every route of the BFF's partner API (`/v1/partner/*`) as the client calls it: method, path, whether it is a
 * create that takes an `Idempotency-Key`, and the shared schema of its answer. Keyed by the BFF's own route ids,
 * so that a test holds this table to the BFF's route table (`partner-routes.test.ts`).
 */
import {
  EsimViewResponseSchema,
  InstallationResponseSchema,
  ManageLinkResponseSchema,
  PartnerAccountResponseSchema,
  PartnerActionRequestListResponseSchema,
  PartnerActionRequestResponseSchema,
  PartnerCheckoutListResponseSchema,
  PartnerCheckoutResponseSchema,
  PartnerDeliveryLinkResponseSchema,
  PartnerEsimListResponseSchema,
  PartnerWebhookDeliveryListResponseSchema,
  PartnerWebhookDeliveryResponseSchema,
  RevokedDeliveryLinkResponseSchema,
  RevokedManageLinkResponseSchema,
  RevokedManageLinksResponseSchema,
} from '@esim-embed/shared';
import type { z } from 'zod';

/** One partner route: what the client needs to call it and read its answer. */
export interface PartnerRoute {
  method: 'GET' | 'POST';
  /** With `{placeholders}` for path parameters, as the BFF's OpenAPI document writes them. */
  path: string;
  /** A create: the client sends an `Idempotency-Key` (generated per call unless given). */
  idempotent: boolean;
  /** The `{ data, meta }` envelope of a success. */
  response: z.ZodType<{ data: unknown }>;
}

/** The partner routes, by the BFF's route id. */
export const PARTNER_ROUTES = {
  readPartnerAccount: {
    method: 'GET',
    path: '/v1/partner/account',
    idempotent: false,
    response: PartnerAccountResponseSchema,
  },
  listPartnerCheckouts: {
    method: 'GET',
    path: '/v1/partner/checkouts',
    idempotent: false,
    response: PartnerCheckoutListResponseSchema,
  },
  listPartnerEsims: {
    method: 'GET',
    path: '/v1/partner/esims',
    idempotent: false,
    response: PartnerEsimListResponseSchema,
  },
  readPartnerCheckout: {
    method: 'GET',
    path: '/v1/partner/checkouts/{id}',
    idempotent: false,
    response: PartnerCheckoutResponseSchema,
  },
  readPartnerInstallation: {
    method: 'GET',
    path: '/v1/partner/checkouts/{id}/installation',
    idempotent: false,
    response: InstallationResponseSchema,
  },
  startPartnerPayment: {
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/payment-started',
    idempotent: false,
    response: PartnerCheckoutResponseSchema,
  },
  confirmPartnerCheckout: {
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/confirm',
    idempotent: false,
    response: PartnerCheckoutResponseSchema,
  },
  declinePartnerCheckoutPayment: {
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/decline',
    idempotent: false,
    response: PartnerCheckoutResponseSchema,
  },
  cancelPartnerCheckout: {
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/cancel',
    idempotent: false,
    response: PartnerCheckoutResponseSchema,
  },
  createPartnerManageLink: {
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/manage-links',
    idempotent: false,
    response: ManageLinkResponseSchema,
  },
  revokeManageLink: {
    method: 'POST',
    path: '/v1/partner/manage-links/{id}/revoke',
    idempotent: false,
    response: RevokedManageLinkResponseSchema,
  },
  revokeAllManageLinks: {
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/manage-links/revoke-all',
    idempotent: false,
    response: RevokedManageLinksResponseSchema,
  },
  readPartnerEsim: {
    method: 'GET',
    path: '/v1/partner/esims/{esimId}',
    idempotent: false,
    response: EsimViewResponseSchema,
  },
  createPartnerActionRequest: {
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/action-requests',
    idempotent: true,
    response: PartnerActionRequestResponseSchema,
  },
  readPartnerActionRequest: {
    method: 'GET',
    path: '/v1/partner/action-requests/{id}',
    idempotent: false,
    response: PartnerActionRequestResponseSchema,
  },
  createPartnerDeliveryLink: {
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/delivery-links',
    idempotent: true,
    response: PartnerDeliveryLinkResponseSchema,
  },
  revokePartnerDeliveryLink: {
    method: 'POST',
    path: '/v1/partner/delivery-links/{id}/revoke',
    idempotent: false,
    response: RevokedDeliveryLinkResponseSchema,
  },
  listPartnerActionRequests: {
    method: 'GET',
    path: '/v1/partner/action-requests',
    idempotent: false,
    response: PartnerActionRequestListResponseSchema,
  },
  listPartnerWebhookDeliveries: {
    method: 'GET',
    path: '/v1/partner/webhook-deliveries',
    idempotent: false,
    response: PartnerWebhookDeliveryListResponseSchema,
  },
  readPartnerWebhookDelivery: {
    method: 'GET',
    path: '/v1/partner/webhook-deliveries/{id}',
    idempotent: false,
    response: PartnerWebhookDeliveryResponseSchema,
  },
  resendPartnerWebhookDelivery: {
    method: 'POST',
    path: '/v1/partner/webhook-deliveries/{id}/resend',
    idempotent: true,
    response: PartnerWebhookDeliveryResponseSchema,
  },
} as const satisfies Record<string, PartnerRoute>;

/** The id of a partner route (the BFF's name for it). */
export type PartnerRouteId = keyof typeof PARTNER_ROUTES;

/** What a route answers in `data`. */
export type PartnerRouteData<Id extends PartnerRouteId> = z.infer<
  (typeof PARTNER_ROUTES)[Id]['response']
>['data'];

/** The routes that answer a page of a list (`{ data, nextCursor }`). */
export type PartnerListRouteId =
  | 'listPartnerCheckouts'
  | 'listPartnerEsims'
  | 'listPartnerActionRequests'
  | 'listPartnerWebhookDeliveries';

/** One page of a list: its items, newest first, and the cursor of the next page (null on the last). */
export interface PartnerPage<T> {
  data: T[];
  nextCursor: string | null;
}
