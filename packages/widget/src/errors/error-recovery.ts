/**
 * @module
 * Every error code the BFF can return, mapped to what the traveller reads and what they can do next.
 * A `Record` over the shared code list, so a code added to the API without a mapping fails to compile;
 * `handlingOf` reads the two params that change the meaning of a code.
 */
import { errorCodeOf, retryWorth, WidgetApiError, type WidgetErrorCode } from '../api/api-error';
import type { MessageKey } from '../i18n/messages';

/** A way forward from an error. */
export type Recovery =
  /** Repeat the same request (automatically when the network comes back). */
  | 'retry'
  /** Get a fresh quote for the same plan. */
  | 'requote'
  /** Go back to the plans. */
  | 'other_plan'
  /** Start over from the destinations (a new session). */
  | 'start_over'
  /** Only the partner can help. */
  | 'contact_support';

/** What the widget shows for one error code. */
export interface ErrorHandling {
  message: MessageKey;
  recovery: Recovery;
}

const network = { message: 'errorNetwork', recovery: 'retry' } as const;
const busy = { message: 'errorBusy', recovery: 'retry' } as const;
const unavailable = { message: 'errorUnavailable', recovery: 'retry' } as const;
const session = { message: 'errorSession', recovery: 'start_over' } as const;
const notHere = { message: 'errorNotAvailableHere', recovery: 'contact_support' } as const;
const planGone = { message: 'errorPlanGone', recovery: 'other_plan' } as const;
const cannotSell = { message: 'errorCannotSell', recovery: 'contact_support' } as const;
/** The partner's account cannot fund this plan: nothing was charged, another plan may still sell. */
const unfunded = { message: 'errorCannotSellPlan', recovery: 'other_plan' } as const;
/** The BFF is still on it (or its store is back in a moment): the same request again, later. */
const moment = { message: 'errorMoment', recovery: 'retry' } as const;
const lost = { message: 'errorCheckoutLost', recovery: 'contact_support' } as const;
/** The traveller's data was erased at their request: nothing personal opens any more, only the partner helps. */
const erased = { message: 'errorErased', recovery: 'contact_support' } as const;
const invalid = { message: 'errorInvalid', recovery: 'retry' } as const;
const generic = { message: 'errorGeneric', recovery: 'retry' } as const;
/** The widget's upstream key or config cannot sell (scopes, environment, brand): only the partner can fix it. */
const misconfigured = { message: 'errorMisconfigured', recovery: 'contact_support' } as const;
/** The upstream refused with a code this release does not know: not charged, another try may work. */
const refused = { message: 'errorRefused', recovery: 'start_over' } as const;
const genericStartOver = { message: 'errorGeneric', recovery: 'start_over' } as const;

/** The handling of every code. */
export const ERROR_HANDLING: Record<WidgetErrorCode, ErrorHandling> = {
  network_error: network,
  invalid_response: generic,
  // General
  unauthorized: session,
  validation_failed: invalid,
  rate_limited: busy,
  internal: unavailable,
  forbidden: notHere,
  scope_missing: notHere,
  enterprise_auth_required: notHere,
  idempotency_conflict: genericStartOver,
  // Catalog and pricing
  product_not_found: planGone,
  product_unavailable: planGone,
  offer_not_found: planGone,
  price_changed: { message: 'errorPriceChanged', recovery: 'requote' },
  price_book_invalid: notHere,
  // Quotes
  quote_not_found: { message: 'errorQuoteExpired', recovery: 'requote' },
  quote_expired: { message: 'errorQuoteExpired', recovery: 'requote' },
  quote_consumed: { message: 'errorQuoteExpired', recovery: 'requote' },
  // Orders
  order_not_found: lost,
  insufficient_balance: unfunded,
  order_limit_exceeded: unfunded,
  monthly_limit_exceeded: unfunded,
  // Recipients and eSIMs
  recipient_not_found: generic,
  recipient_conflict: generic,
  esim_not_found: lost,
  delivery_link_invalid: { message: 'errorLink', recovery: 'retry' },
  // Pagination and export
  cursor_invalid: generic,
  cursor_expired: generic,
  export_too_large: generic,
  // Post-sale actions
  action_not_available: cannotSell,
  action_request_exists: cannotSell,
  action_request_not_found: lost,
  invalid_transition: genericStartOver,
  // Accounts
  account_not_found: notHere,
  account_not_active: notHere,
  account_hierarchy_invalid: notHere,
  account_depth_exceeded: notHere,
  account_membership_conflict: notHere,
  account_membership_not_found: notHere,
  // Storefront and widget
  storefront_app_not_found: notHere,
  storefront_app_disabled: notHere,
  widget_origin_forbidden: notHere,
  widget_session_invalid: session,
  // Connector
  connector_installation_not_found: notHere,
  connector_installation_revoked: notHere,
  connector_site_already_connected: notHere,
  connector_site_mismatch: notHere,
  connector_connect_code_invalid: notHere,
  connector_credential_invalid: notHere,
  connector_order_not_found: lost,
  // The BFF's own
  checkout_not_found: lost,
  destination_not_found: planGone,
  upstream_unavailable: unavailable,
  not_found: genericStartOver,
  method_not_allowed: genericStartOver,
  payload_too_large: invalid,
  unsupported_media_type: genericStartOver,
  store_unavailable: moment,
  upstream_refused: refused,
  widget_misconfigured: misconfigured,
  erased,
};

/**
 * The handling of an error. A create that is still running elsewhere (`idempotency_conflict` with reason
 * `in_progress`) is repeated, never started over: starting over would buy twice. An inactive account met
 * by the funding check before payment (`stage: 'before_payment'`) is the partner's funding, like a low balance.
 */
export function handlingOf(error: unknown): ErrorHandling {
  const code = errorCodeOf(error);
  const params = error instanceof WidgetApiError ? error.params : {};
  if (retryWorth(error) === 'moment') return moment;
  if (code === 'account_not_active' && params.stage === 'before_payment') return unfunded;
  return ERROR_HANDLING[code];
}

/** Messages that say nothing was charged: untrue once the checkout may be paid (partner_confirm after the charge). */
const CLAIMS_NOTHING_CHARGED: ReadonlySet<MessageKey> = new Set([
  'errorRefused',
  'errorMisconfigured',
  'errorCannotSell',
  'errorCannotSellPlan',
]);

/**
 * The handling of an error met while a checkout is under way (it may be paid): a message that would say nothing
 * was charged says instead who refunds, and the way forward is the partner's support.
 */
export function handlingAfterPayment(error: unknown): ErrorHandling {
  const handling = handlingOf(error);
  return CLAIMS_NOTHING_CHARGED.has(handling.message)
    ? { message: 'errorAfterPayment', recovery: 'contact_support' }
    : handling;
}
