/**
 * @module
 * How an upstream failure becomes the BFF's one error type: the contract's code passed through where the
 * browser may see it, credential problems hidden behind `internal`, outages as `upstream_unavailable`,
 * and the upstream's `requestId` kept on the error for the logs.
 */
import {
  type ErrorCode,
  ErrorCodeSchema,
  ErrorEnvelopeSchema,
  UPSTREAM_CREDENTIAL_CODES,
} from '@esim-embed/shared';
import { z } from 'zod';
import { ApiError, type ApiErrorOptions } from '../errors';
import { tolerant } from './tolerant-parsing';

/** What the BFF knows about the upstream answer behind an error. */
export interface UpstreamErrorDetails {
  /** The upstream's `meta.requestId` (its support reference), when it answered with one. */
  upstreamRequestId?: string | undefined;
  /** The upstream's HTTP status, when it answered at all. */
  upstreamStatus?: number | undefined;
  /** The upstream's error code, when it answered with the error envelope (one this release may not know). */
  upstreamCode?: string | undefined;
  /**
   * Set when the upstream refused the widget's credential itself (mTLS, CIDR, scope, key): what an operator
   * must fix, for the logs and `/readyz`. The traveller only sees `internal`.
   */
  configurationProblem?: string | undefined;
}

/**
 * An {@link ApiError} raised by the upstream client. Still an `ApiError` (the app's one handler turns it
 * into the envelope); it adds the upstream's request id, status and code for logs and for callers that
 * must tell "the upstream refused" from "the upstream did not answer" (`upstream_unavailable`).
 */
export class UpstreamError extends ApiError {
  readonly upstreamRequestId: string | null;
  readonly upstreamStatus: number | null;
  readonly upstreamCode: string | null;
  readonly configurationProblem: string | null;

  constructor(code: ApiError['code'], options: ApiErrorOptions & UpstreamErrorDetails = {}) {
    super(code, options);
    this.name = 'UpstreamError';
    this.upstreamRequestId = options.upstreamRequestId ?? null;
    this.upstreamStatus = options.upstreamStatus ?? null;
    this.upstreamCode = options.upstreamCode ?? null;
    this.configurationProblem = options.configurationProblem ?? null;
  }
}

/** Codes that describe the BFF's own credential, not the traveller's request: never shown as such. */
const CREDENTIAL_CODES = new Set<ErrorCode>(UPSTREAM_CREDENTIAL_CODES);

/** Codes that mean "the upstream failed" rather than "this request is wrong". */
const OUTAGE_CODES = new Set<ErrorCode>(['internal']);

/**
 * The upstream's error parameters a browser may see, per code: identifiers and reasons the widget can act on,
 * never amounts (a balance, a limit, a price are the partner's wholesale business) nor anything not listed
 * here. A code without an entry passes no parameter at all; so does a parameter the upstream adds later.
 */
const BROWSER_PARAMS: Partial<Record<ErrorCode, readonly string[]>> = {
  validation_failed: ['field', 'reason', 'maxLength', 'minLength'],
  idempotency_conflict: ['field', 'reason'],
  product_not_found: ['productId'],
  product_unavailable: ['productId', 'offerId'],
  offer_not_found: ['offerId'],
  price_changed: ['offerId', 'quoteId'],
  quote_not_found: ['quoteId'],
  quote_expired: ['quoteId', 'expiresAt'],
  quote_consumed: ['quoteId'],
  order_not_found: ['orderId'],
  esim_not_found: ['esimId'],
  delivery_link_invalid: ['deliveryLinkId'],
  action_not_available: ['action', 'esimId', 'status', 'reason'],
  action_request_exists: ['actionRequestId', 'type'],
  action_request_not_found: ['actionRequestId'],
  invalid_transition: ['status', 'reason'],
  account_not_active: ['status'],
};

/** The longest string parameter passed on: identifiers and reasons are short, free text is not passed. */
const MAX_PARAM_LENGTH = 128;

/**
 * The upstream's `error.params` reduced to what a browser may see: only the names allowed for `code`, and only
 * primitive values (or arrays of them) that are not links. `Idempotency-Key` named as a field value is kept: it
 * is the header's name, not a key.
 */
export function safeUpstreamParams(
  code: ErrorCode,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const name of BROWSER_PARAMS[code] ?? []) {
    const value = params[name];
    if (isSafeValue(value)) safe[name] = value;
    else if (Array.isArray(value) && value.every(isSafeValue)) safe[name] = value;
  }
  return safe;
}

function isSafeValue(value: unknown): boolean {
  if (typeof value === 'string')
    return value.length <= MAX_PARAM_LENGTH && !/^[a-z][a-z0-9+.-]*:/i.test(value);
  return isPrimitive(value);
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** The contract's envelope with any code: a `stable` contract may add codes (read as a generic refusal). */
const TolerantErrorEnvelope = tolerant(
  ErrorEnvelopeSchema.extend({
    error: ErrorEnvelopeSchema.shape.error.extend({ code: z.string().min(1).max(100) }),
  }),
);

/** Whether a code is one this release knows (else it is read as `upstream_refused`). */
export function isKnownErrorCode(code: string): code is ErrorCode {
  return ErrorCodeSchema.safeParse(code).success;
}

/**
 * What an operator must fix when the upstream refuses the credential, or null when the refusal is about the
 * request. A `forbidden` names its reason in `params.reason` (a CIDR allowlist says so).
 */
function configurationProblemOf(code: string, params: Record<string, unknown>): string | null {
  const reason = typeof params.reason === 'string' ? params.reason : undefined;
  switch (code) {
    case 'enterprise_auth_required':
      return 'the API key requires a client certificate (mTLS): set the widget upstream clientCertificateEnv and clientKeyEnv';
    case 'forbidden':
      return reason && /cidr|ip|network|address/i.test(reason)
        ? `the API key refuses this server's address (${reason.slice(0, 60)}): add it to the key's CIDR allowlist`
        : 'the API key is forbidden this call';
    case 'scope_missing':
      return 'the API key lacks a scope this widget needs';
    case 'unauthorized':
      return 'the API key is refused (revoked, wrong or of another environment)';
    default:
      return null;
  }
}

/** The upstream's error envelope, or undefined when the body is something else. */
export function readErrorEnvelope(body: unknown) {
  const parsed = TolerantErrorEnvelope.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The {@link UpstreamError} for a final (not retried) upstream error answer. Credential codes become
 * `widget_misconfigured` (503: the BFF's key cannot do this, the traveller can do nothing); outage codes become
 * `upstream_unavailable`; a 429 is `rate_limited` with its `Retry-After` (the key's minute is spent: try later,
 * never a 503); other contract codes pass through with safe params.
 */
export function errorFromUpstreamAnswer(
  status: number,
  body: unknown,
  details: { upstreamRequestId?: string | undefined; retryAfterSeconds?: number | undefined },
): UpstreamError {
  const envelope = readErrorEnvelope(body);
  const upstreamRequestId = envelope?.meta.requestId ?? details.upstreamRequestId;
  const common = { upstreamRequestId, upstreamStatus: status, upstreamCode: envelope?.error.code };
  if (status === 429) {
    return new UpstreamError('rate_limited', { ...common, retryAfterSeconds: details.retryAfterSeconds });
  }
  if (!envelope) {
    if (status >= 500) {
      return new UpstreamError('upstream_unavailable', {
        ...common,
        retryAfterSeconds: details.retryAfterSeconds,
      });
    }
    return new UpstreamError('internal', { ...common, status: 502 });
  }
  const code = envelope.error.code;
  if (!isKnownErrorCode(code)) {
    if (status >= 500) {
      return new UpstreamError('upstream_unavailable', {
        ...common,
        retryAfterSeconds: details.retryAfterSeconds,
      });
    }
    // A code this release does not know: a refusal of this request, with the upstream's reference for support.
    return new UpstreamError('upstream_refused', {
      ...common,
      status: 422,
      params: { upstreamRequestId: upstreamRequestId ?? null },
    });
  }
  if (CREDENTIAL_CODES.has(code)) {
    const configurationProblem = configurationProblemOf(code, envelope.error.params) ?? undefined;
    // The traveller can do nothing about the BFF's credential: the widget says the store is not set up for this.
    return new UpstreamError('widget_misconfigured', { ...common, configurationProblem });
  }
  if (OUTAGE_CODES.has(code) || status >= 500) {
    return new UpstreamError('upstream_unavailable', {
      ...common,
      retryAfterSeconds: details.retryAfterSeconds,
    });
  }
  return new UpstreamError(code, {
    ...common,
    params: safeUpstreamParams(code, envelope.error.params),
    retryAfterSeconds: details.retryAfterSeconds,
  });
}
