/**
 * @module
 * `GET /v1/partner/webhook-deliveries/{id}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerWebhookDeliveryResponseSchema } from '../webhook-deliveries';

export const id = 'readPartnerWebhookDelivery';
export const method = 'GET';
export const path = '/v1/partner/webhook-deliveries/{id}';
export const summary =
  'One webhook delivery of the partner’s widgets (its id is the event id), with the event it sends.';
export const auth = 'partner';
export const status = 200;
export const response = PartnerWebhookDeliveryResponseSchema;
