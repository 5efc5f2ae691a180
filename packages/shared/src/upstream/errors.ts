/**
 * @module
 * The error envelope and the exact set of error codes of the Partner eSIM Commerce API.
 * Clients branch on `error.code`, never on the HTTP status or a message.
 */
import { z } from 'zod';
import { ResponseMetaSchema } from './upstream-common';

/** Every error code of the contract, grouped as in its Errors table. */
export const ERROR_CODES = [
  // General
  'unauthorized',
  'validation_failed',
  'rate_limited',
  'internal',
  'forbidden',
  'scope_missing',
  'enterprise_auth_required',
  'idempotency_conflict',
  // Catalog and pricing
  'product_not_found',
  'product_unavailable',
  'offer_not_found',
  'price_changed',
  'price_book_invalid',
  // Quotes
  'quote_not_found',
  'quote_expired',
  'quote_consumed',
  // Orders
  'order_not_found',
  'insufficient_balance',
  'order_limit_exceeded',
  'monthly_limit_exceeded',
  // Recipients and eSIMs
  'recipient_not_found',
  'recipient_conflict',
  'esim_not_found',
  'delivery_link_invalid',
  // Pagination and export
  'cursor_invalid',
  'cursor_expired',
  'export_too_large',
  // Post-sale actions
  'action_not_available',
  'action_request_exists',
  'action_request_not_found',
  'invalid_transition',
  // Accounts
  'account_not_found',
  'account_not_active',
  'account_hierarchy_invalid',
  'account_depth_exceeded',
  'account_membership_conflict',
  'account_membership_not_found',
  // Storefront and widget
  'storefront_app_not_found',
  'storefront_app_disabled',
  'widget_origin_forbidden',
  'widget_session_invalid',
  // Connector
  'connector_installation_not_found',
  'connector_installation_revoked',
  'connector_site_already_connected',
  'connector_site_mismatch',
  'connector_connect_code_invalid',
  'connector_credential_invalid',
  'connector_order_not_found',
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);

/**
 * Codes that describe the caller's own credential (its key, scopes, certificate), not the request: a client of the
 * upstream that relays its refusals keeps these to itself.
 */
export const UPSTREAM_CREDENTIAL_CODES = [
  'unauthorized',
  'forbidden',
  'scope_missing',
  'enterprise_auth_required',
] as const satisfies readonly (typeof ERROR_CODES)[number][];

/** The upstream's refusals a client relays as they are: every code but the credential's and `internal` (an outage). */
export const UPSTREAM_RELAYED_CODES = /* @__PURE__ */ ERROR_CODES.filter(
  (
    code,
  ): code is Exclude<(typeof ERROR_CODES)[number], (typeof UPSTREAM_CREDENTIAL_CODES)[number] | 'internal'> =>
    code !== 'internal' && !(UPSTREAM_CREDENTIAL_CODES as readonly string[]).includes(code),
);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** `error.params`: safe structured context; additional properties allowed. */
export const ErrorParamsSchema = z.record(z.string(), z.unknown());

/** The one error envelope of every failed response. */
export const ErrorEnvelopeSchema = z.strictObject({
  error: z.strictObject({
    code: ErrorCodeSchema,
    params: ErrorParamsSchema,
  }),
  meta: ResponseMetaSchema,
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
