/**
 * @module
 * `@esim-embed/partner`: the server side of an eSIM Embed integration in Node (≥ 20). A typed client of the BFF's
 * partner API (`createPartnerClient`: confirm, cancel, read, list and search checkouts, the eSIMs sold, the
 * account, manage links, delivery links, help requests, webhook deliveries listed and resent, the sales ledger
 * listed and exported as CSV, a traveller's data erased and exported), `verifyWebhook` for the BFF's signed webhooks, a framework-neutral webhook handler
 * (Express and Hono ones are at `@esim-embed/partner/express` and `/hono`), and the schemas and types of it all.
 */
export {
  checkWebhookSignature,
  IDEMPOTENCY_KEY_HEADER,
  MAX_DECLINED_PAYMENT_ATTEMPTS,
  PARTNER_SECRET_HEADER,
  paymentAttemptKey,
  signWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookSignatureCheck,
  type WebhookSignatureFailure,
  type WebhookSignatureInput,
} from '@esim-embed/shared';
export {
  type CheckoutPayment,
  type CheckoutPaymentOutcome,
  PaymentDeclinedError,
  type PayOptions,
  payForCheckout,
} from './checkout-payment';
export { PartnerApiError, type PartnerApiErrorCode, type PartnerApiErrorDetails } from './partner-api-error';
export {
  type ActionRequestSearch,
  type CheckoutSearch,
  type CreateOptions,
  createPartnerClient,
  type PageQuery,
  type PartnerCallArguments,
  type PartnerClient,
  type PartnerClientOptions,
  type SaleSearch,
  type WebhookDeliverySearch,
} from './partner-client';
export {
  PARTNER_ROUTES,
  type PartnerCallInput,
  type PartnerListRouteId,
  type PartnerPage,
  type PartnerRoute,
  type PartnerRouteData,
  type PartnerRouteId,
  type PartnerRouteOf,
} from './partner-routes';
export * from './schemas';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './verify-webhook';
export {
  handleWebhookRequest,
  type WebhookAnswer,
  type WebhookEventOf,
  type WebhookHandlerOptions,
  type WebhookHandlers,
  type WebhookLogger,
} from './webhook-handler';
