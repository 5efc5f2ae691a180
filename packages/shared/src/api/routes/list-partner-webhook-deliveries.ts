/**
 * @module
 * `GET /v1/partner/webhook-deliveries`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import {
  PartnerWebhookDeliveryListResponseSchema,
  WebhookDeliveryListQuerySchema,
} from '../webhook-deliveries';

export const id = 'listPartnerWebhookDeliveries';
export const method = 'GET';
export const path = '/v1/partner/webhook-deliveries';
export const summary =
  'The webhook deliveries of the partner’s widget, newest first: status, attempts, next attempt (?status=, ?type=, ?checkoutId=; ?limit=, ?cursor=; ?widgetId= when the secret opens several).';
export const auth = 'partner';
export const query = WebhookDeliveryListQuerySchema;
export const status = 200;
export const response = PartnerWebhookDeliveryListResponseSchema;
