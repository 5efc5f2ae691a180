/**
 * @module
 * The HTTP status each of the contract's error codes answers with. The contract leaves statuses unstated; this is
 * the one table the sandbox answers with and the BFF passes the codes on with (docs/upstream-contract.md: 404 for
 * `*_not_found`, 409 for conflicts, 410 for what expired, 422 for `validation_failed`). Clients branch on the
 * code, never on the status.
 */
import type { ErrorCode } from './errors';

/** The statuses an error answer of the contract or of the BFF may carry. */
export type ErrorHttpStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 409
  | 410
  | 413
  | 415
  | 422
  | 429
  | 500
  | 502
  | 503;

/** Every contract error code with its status; 400 where no more specific one fits. */
export const ERROR_STATUS_BY_CODE: Readonly<Record<ErrorCode, ErrorHttpStatus>> = {
  // General
  unauthorized: 401,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  forbidden: 403,
  scope_missing: 403,
  enterprise_auth_required: 403,
  idempotency_conflict: 409,
  // Catalog and pricing
  product_not_found: 404,
  product_unavailable: 409,
  offer_not_found: 404,
  price_changed: 409,
  price_book_invalid: 400,
  // Quotes
  quote_not_found: 404,
  quote_expired: 410,
  quote_consumed: 409,
  // Orders
  order_not_found: 404,
  insufficient_balance: 402,
  order_limit_exceeded: 422,
  monthly_limit_exceeded: 422,
  // Recipients and eSIMs
  recipient_not_found: 404,
  recipient_conflict: 409,
  esim_not_found: 404,
  delivery_link_invalid: 404,
  // Pagination and export
  cursor_invalid: 400,
  cursor_expired: 410,
  export_too_large: 400,
  // Post-sale actions: an action the eSIM's state does not allow is a conflict with that state
  action_not_available: 409,
  action_request_exists: 409,
  action_request_not_found: 404,
  invalid_transition: 409,
  // Accounts
  account_not_found: 404,
  account_not_active: 403,
  account_hierarchy_invalid: 400,
  account_depth_exceeded: 400,
  account_membership_conflict: 409,
  account_membership_not_found: 404,
  // Storefront and widget
  storefront_app_not_found: 404,
  storefront_app_disabled: 403,
  widget_origin_forbidden: 403,
  widget_session_invalid: 401,
  // Connector
  connector_installation_not_found: 404,
  connector_installation_revoked: 400,
  connector_site_already_connected: 409,
  connector_site_mismatch: 400,
  connector_connect_code_invalid: 400,
  connector_credential_invalid: 400,
  connector_order_not_found: 404,
};

/** The HTTP status of a contract error code. */
export function errorStatusOf(code: ErrorCode): ErrorHttpStatus {
  return ERROR_STATUS_BY_CODE[code];
}
