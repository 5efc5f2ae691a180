/**
 * @module
 * `POST /v1/partner/webhook-deliveries/{id}/resend`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import {
  PartnerWebhookDeliveryResponseSchema,
  ResendWebhookDeliveryRequestSchema,
} from '../webhook-deliveries';

export const id = 'resendPartnerWebhookDelivery';
export const method = 'POST';
export const path = '/v1/partner/webhook-deliveries/{id}/resend';
export const summary =
  'Send a delivered or failed delivery again now: the same event under the same id (de-duplicate on it), retried as a new one; one still pending is answered as it is; another partner’s is not_found.';
export const auth = 'partner';
export const idempotent = true;
export const body = ResendWebhookDeliveryRequestSchema;
export const bodyOptional = true;
export const status = 200;
export const response = PartnerWebhookDeliveryResponseSchema;
