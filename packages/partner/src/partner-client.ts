/**
 * @module
 * The typed client of the BFF's partner API: every `/v1/partner/*` route, authenticated with the widget's partner
 * secret (`X-Partner-Secret`), creates sent with an `Idempotency-Key` (a fresh one per call unless given),
 * answers parsed with the API's own schemas, failures thrown as {@link PartnerApiError}. Every route is safe to
 * send again, so a call that got no answer or a 5xx is retried a few times with the same key. Paths, methods,
 * idempotency and answer schemas come from the API's one description (`partner-routes.ts`); `call` reaches any
 * partner route by its id, the grouped methods name the common ones.
 *
 * Over 300 lines: the client's interface documents every grouped method, all over one request path and its
 * retries.
 */
import {
  type ActionRequestListQuery,
  type ConfirmCheckoutRequest,
  type CreateActionRequest,
  type CreateManageLinkRequest,
  type CreatePartnerDeliveryLinkRequest,
  type DeclineCheckoutPaymentRequest,
  fillPath,
  IDEMPOTENCY_KEY_HEADER,
  PARTNER_SECRET_HEADER,
  type PartnerActionRequest,
  type PartnerCheckout,
  type PartnerCheckoutListQuery,
  type PartnerEsimSummary,
  type PartnerSale,
  type PartnerSaleExportQuery,
  type PartnerSaleListQuery,
  type PartnerWebhookDelivery,
  type PrivacySubject,
  retryAfterSecondsOf,
  type WebhookDeliveryListQuery,
} from '@esim-embed/shared';
import {
  type CheckoutPayment,
  type CheckoutPaymentOutcome,
  type PayOptions,
  payForCheckout,
} from './checkout-payment';
import { PartnerApiError, type PartnerApiErrorCode } from './partner-api-error';
import {
  PARTNER_ROUTES,
  type PartnerCallInput,
  type PartnerListItem,
  type PartnerListRouteId,
  type PartnerPage,
  type PartnerRouteData,
  type PartnerRouteId,
} from './partner-routes';

/** How to reach the BFF. */
export interface PartnerClientOptions {
  /** The BFF's base URL, e.g. `https://bff.example.com`. */
  baseUrl: string;
  /** The widget's partner secret (the BFF config's `partnerSecretEnv`). Keep it on the server. */
  partnerSecret: string;
  /** One attempt's timeout. Default 10 s. */
  timeoutMs?: number;
  /** Attempts after the first when a call got no answer or a 5xx. Default 2. */
  maxRetries?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Options of a create. */
export interface CreateOptions {
  /** The `Idempotency-Key`: the same key answers the first result again. Default: a fresh UUID per call. */
  idempotencyKey?: string;
}

/** The page of a list: `limit` (default 25, at most 100) and the `nextCursor` of the page before. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** A search of checkouts: every filter optional, all applied together (see `docs/partner-api.md`). */
export type CheckoutSearch = Omit<PartnerCheckoutListQuery, 'limit' | 'cursor'>;

/** A filter of help requests: `status`, `esimId`, `widgetId` (see `docs/partner-api.md`). */
export type ActionRequestSearch = Omit<ActionRequestListQuery, 'limit' | 'cursor'>;

/** A filter of webhook deliveries: `status`, `type`, `checkoutId`, `widgetId` (see `docs/webhooks.md`). */
export type WebhookDeliverySearch = Omit<WebhookDeliveryListQuery, 'limit' | 'cursor'>;

/** A search of the sales ledger: a period (`from`, `to`), `widgetId`, `esimId`, `paymentReference`. */
export type SaleSearch = Omit<PartnerSaleListQuery, 'limit' | 'cursor'>;

/** The arguments of `call` for one route: its input, left out when the route needs none. */
export type PartnerCallArguments<Id extends PartnerRouteId> =
  object extends PartnerCallInput<Id> ? [input?: PartnerCallInput<Id>] : [input: PartnerCallInput<Id>];

/** The partner API, grouped by what it acts on. */
export interface PartnerClient {
  /**
   * Any partner route by its id (`readPartnerCheckout`, …): path parameters, query and body as the route takes
   * them, its `data` as it answers. The grouped methods below are these calls under the product's names.
   */
  call<Id extends PartnerRouteId>(id: Id, ...input: PartnerCallArguments<Id>): Promise<PartnerRouteData<Id>>;
  checkouts: {
    /**
     * `GET /v1/partner/checkouts`: a page of your checkouts, newest first, searched by status, creation time
     * (`createdFrom`/`createdTo`, ISO), traveller `email` (exact, any case), `esimId` and `paymentReference`.
     * Pass the answer's `nextCursor` (with the same filters) as `cursor` for the next page.
     */
    list(query?: CheckoutSearch & PageQuery): Promise<PartnerPage<PartnerCheckout>>;
    /** Every checkout of a search, newest first, reading page after page as you iterate. */
    all(search?: CheckoutSearch, options?: { pageSize?: number }): AsyncIterable<PartnerCheckout>;
    /** `GET /v1/partner/checkouts/{id}`: status, the amount to charge, the upstream order. */
    read(checkoutId: string): Promise<PartnerRouteData<'readPartnerCheckout'>>;
    /**
     * `POST …/payment-started`: you are about to charge — call it once per payment attempt, right before the
     * charge, not on each retry of your form. The order is funded now and its money kept for this payment until
     * you confirm or decline it, or for the BFF's `paymentHolds.holdSeconds` (15 minutes unless configured), so
     * that the confirm is not refused for money; a refusal (`insufficient_balance`, `monthly_limit_exceeded`, …)
     * comes before anyone is charged, and so does `rate_limited` with `params.reason: 'payments_in_progress'`
     * when the traveller's address or session, or your account, has as many payments in progress as the BFF
     * allows. Called again while the payment runs it changes nothing (safe to repeat).
     */
    startPayment(checkoutId: string): Promise<PartnerRouteData<'startPartnerPayment'>>;
    /** `POST …/confirm`: you took the payment; place the order. Safe to repeat: one order however often. */
    confirm(
      checkoutId: string,
      body?: ConfirmCheckoutRequest,
    ): Promise<PartnerRouteData<'confirmPartnerCheckout'>>;
    /**
     * `POST …/decline`: the payment attempt `attempt` was declined (nothing taken). The checkout keeps awaiting
     * payment; the widget asks the traveller for another card. Safe to repeat.
     */
    decline(
      checkoutId: string,
      body: DeclineCheckoutPaymentRequest,
    ): Promise<PartnerRouteData<'declinePartnerCheckoutPayment'>>;
    /**
     * Start the payment (right before the charge: funded, and kept for it until confirmed or declined), charge
     * (with your provider, keyed per attempt) and confirm, reporting a declined charge and refunding at once when
     * the checkout ended meanwhile: the payment lifecycle of docs/payments.md in one call. Outcomes `unfunded` and
     * `too_many_payments` charge nothing.
     */
    pay(checkoutId: string, payment: CheckoutPayment, options?: PayOptions): Promise<CheckoutPaymentOutcome>;
    /** `POST …/cancel`: the payment failed or was abandoned (a cancelled checkout answers as it is). */
    cancel(checkoutId: string): Promise<PartnerRouteData<'cancelPartnerCheckout'>>;
    /** `GET …/installation`: the installation data of a ready checkout's eSIM, to send the traveller. */
    installation(checkoutId: string): Promise<PartnerRouteData<'readPartnerInstallation'>>;
  };
  account: {
    /** `GET /v1/partner/account`: balance, holds, what new checkouts may spend (name the widget if several). */
    read(query?: { widgetId?: string }): Promise<PartnerRouteData<'readPartnerAccount'>>;
  };
  esims: {
    /** `GET /v1/partner/esims`: a page of the eSIMs your widgets sold, newest first. */
    list(query?: PageQuery): Promise<PartnerPage<PartnerEsimSummary>>;
    /** Every eSIM your widgets sold, newest first, reading page after page as you iterate. */
    all(options?: { pageSize?: number }): AsyncIterable<PartnerEsimSummary>;
    /** `GET /v1/partner/esims/{esimId}`: the eSIM as its traveller sees it. */
    read(esimId: string): Promise<PartnerRouteData<'readPartnerEsim'>>;
    /** `POST …/manage-links`: the manage link ("my eSIM") of an eSIM you sold, in one of your widgets. */
    createManageLink(
      esimId: string,
      body: CreateManageLinkRequest,
    ): Promise<PartnerRouteData<'createPartnerManageLink'>>;
    /** `POST …/manage-links/revoke-all`: every manage link of the eSIM stops opening it. */
    revokeAllManageLinks(esimId: string): Promise<PartnerRouteData<'revokeAllManageLinks'>>;
    /** `POST …/action-requests`: a help request (cancellation, refund, reissue). */
    createActionRequest(
      esimId: string,
      body: CreateActionRequest,
      options?: CreateOptions,
    ): Promise<PartnerRouteData<'createPartnerActionRequest'>>;
    /** `POST …/delivery-links`: a view-limited link to the hosted installation page (its `url` is a secret). */
    createDeliveryLink(
      esimId: string,
      body?: CreatePartnerDeliveryLinkRequest,
      options?: CreateOptions,
    ): Promise<PartnerRouteData<'createPartnerDeliveryLink'>>;
  };
  manageLinks: {
    /** `POST /v1/partner/manage-links/{id}/revoke`. */
    revoke(manageLinkId: string): Promise<PartnerRouteData<'revokeManageLink'>>;
  };
  actionRequests: {
    /**
     * `GET /v1/partner/action-requests`: a page of the help requests you made, newest first, each as the BFF last
     * read it, filtered by `status` and `esimId`.
     */
    list(query?: ActionRequestSearch & PageQuery): Promise<PartnerPage<PartnerActionRequest>>;
    /** Every help request of a search, newest first, reading page after page as you iterate. */
    all(search?: ActionRequestSearch, options?: { pageSize?: number }): AsyncIterable<PartnerActionRequest>;
    /** `GET /v1/partner/action-requests/{id}`: requested, in_review, completed or rejected (read afresh). */
    read(actionRequestId: string): Promise<PartnerRouteData<'readPartnerActionRequest'>>;
  };
  webhookDeliveries: {
    /**
     * `GET /v1/partner/webhook-deliveries`: a page of your widgets' deliveries, newest first, each with its status
     * (`pending`, `paused`, `delivered`, `failed`), attempts (time, HTTP status) and next attempt, filtered by
     * `status`, event `type` and `checkoutId`.
     */
    list(query?: WebhookDeliverySearch & PageQuery): Promise<PartnerPage<PartnerWebhookDelivery>>;
    /** Every delivery of a search, newest first, reading page after page as you iterate. */
    all(
      search?: WebhookDeliverySearch,
      options?: { pageSize?: number },
    ): AsyncIterable<PartnerWebhookDelivery>;
    /** `GET /v1/partner/webhook-deliveries/{id}` (the event id): the delivery and the event it sends. */
    read(eventId: string): Promise<PartnerRouteData<'readPartnerWebhookDelivery'>>;
    /**
     * `POST …/{id}/resend`: send the event again now, under the same event id (your handler de-duplicates on
     * it). One resend per `idempotencyKey` (default: a fresh one per call). A delivery still on its way
     * (`pending`, `paused`) is answered as it is: it goes at its next attempt, no sooner.
     */
    resend(
      eventId: string,
      options?: CreateOptions,
    ): Promise<PartnerRouteData<'resendPartnerWebhookDelivery'>>;
  };
  deliveryLinks: {
    /** `POST /v1/partner/delivery-links/{id}/revoke`. */
    revoke(deliveryLinkId: string): Promise<PartnerRouteData<'revokePartnerDeliveryLink'>>;
  };
  sales: {
    /**
     * `GET /v1/partner/sales`: a page of your sales ledger (kept long after the checkouts), newest paid first,
     * within a period (`from` inclusive, `to` exclusive: a UTC day `2026-10-01` or an ISO date-time) and by
     * `widgetId`, `esimId` (the eSIM's issue and its top-ups) or your `paymentReference`.
     */
    list(query?: SaleSearch & PageQuery): Promise<PartnerPage<PartnerSale>>;
    /** Every sale of a search, newest paid first, reading page after page as you iterate. */
    all(search?: SaleSearch, options?: { pageSize?: number }): AsyncIterable<PartnerSale>;
    /** `GET /v1/partner/sales/{checkoutId}`: one sale, also after its checkout is no longer kept. */
    read(checkoutId: string): Promise<PartnerSale>;
    /**
     * `GET /v1/partner/sales.csv`: the sales of a period as CSV (RFC 4180, a header row), streamed as the BFF
     * writes it — pipe it to a file (`Readable.fromWeb(stream).pipe(createWriteStream('october.csv'))`).
     */
    exportCsv(period: PartnerSaleExportQuery): Promise<ReadableStream<Uint8Array>>;
  };
  /** A traveller's personal data, named by `{ email }`, `{ checkoutId }` or `{ esimId }` (docs/privacy.md). */
  privacy: {
    /**
     * `POST /v1/partner/privacy/erasures`: erase the traveller's data from every record of your widgets (GDPR
     * art. 17). Queued: answers the receipt `pending`; read it with `readErasure`, or wait for the
     * `privacy.erased` webhook. One erasure per `idempotencyKey` (default: a fresh one per call): a retry with the
     * same key answers the same receipt as it stands.
     */
    eraseTraveller(
      subject: PrivacySubject,
      options?: CreateOptions,
    ): Promise<PartnerRouteData<'createPartnerPrivacyErasure'>>;
    /** `GET /v1/partner/privacy/erasures/{id}`: the receipt — what was found and erased, `pending` or `completed`. */
    readErasure(erasureId: string): Promise<PartnerRouteData<'readPartnerPrivacyErasure'>>;
    /**
     * `POST /v1/partner/privacy/exports`: every datum the BFF holds about the traveller (GDPR art. 15) — their
     * checkouts with the address, eSIMs, webhook deliveries, help requests — for you to hand them with your own.
     */
    exportTraveller(subject: PrivacySubject): Promise<PartnerRouteData<'exportPartnerPrivacyData'>>;
  };
}

/** A call: path parameters, query, body and the create's key. */
interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string | undefined;
}

const RETRY_PAUSE_MS = 250;

/**
 * A client of one BFF, for one partner secret.
 *
 * @example
 * const esim = createPartnerClient({ baseUrl: process.env.ESIM_BFF_URL, partnerSecret: process.env.ESIM_PARTNER_SECRET });
 * const checkout = await esim.checkouts.read(checkoutId);
 * await esim.checkouts.confirm(checkoutId, { paymentReference: charge.id });
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  if (!options.partnerSecret) throw new TypeError('createPartnerClient: partnerSecret is required');
  const baseUrl = new URL(options.baseUrl).href.replace(/\/$/, '');
  const settings = { timeoutMs: 10_000, maxRetries: 2, fetch: globalThis.fetch, ...options };

  async function attempt(id: PartnerRouteId, url: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await settings.fetch(url, { ...init, signal: AbortSignal.timeout(settings.timeoutMs) });
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      throw new PartnerApiError({ code: timedOut ? 'timeout' : 'network_error', status: 0, cause });
    }
    const route = PARTNER_ROUTES[id];
    // A file (the sales CSV) is handed over as it streams in.
    if (response.ok && !('response' in route) && response.body !== null) return response.body;
    const json: unknown = await response.json().catch(() => undefined);
    if (response.ok && 'response' in route) {
      const parsed = route.response.safeParse(json);
      if (parsed.success) return parsed.data;
      throw new PartnerApiError({ code: 'invalid_response', status: response.status, cause: parsed.error });
    }
    throw errorOf(response, json);
  }

  async function call<Id extends PartnerRouteId>(
    id: Id,
    input: CallInput = {},
  ): Promise<PartnerRouteData<Id>> {
    const answer = await send(id, input);
    if (!('response' in PARTNER_ROUTES[id])) return answer as PartnerRouteData<Id>;
    return (answer as { data: PartnerRouteData<Id> }).data;
  }

  /** A page of a list: its items and the next page's cursor. */
  async function page<Id extends PartnerListRouteId>(
    id: Id,
    query: object,
  ): Promise<PartnerPage<PartnerListItem<Id>>> {
    const { data, nextCursor } = (await send(id, { query: query as CallInput['query'] })) as PartnerPage<
      PartnerListItem<Id>
    >;
    return { data, nextCursor };
  }

  /** Every item of a list, page after page. */
  async function* every<Id extends PartnerListRouteId>(
    id: Id,
    query: object,
  ): AsyncIterable<PartnerListItem<Id>> {
    let cursor: string | undefined;
    do {
      const answered = await page(id, { ...query, cursor });
      yield* answered.data;
      cursor = answered.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Send one call (retried when it got no answer or a 5xx) and answer its parsed body. */
  async function send(id: PartnerRouteId, input: CallInput): Promise<unknown> {
    const route = PARTNER_ROUTES[id];
    const path = fillPath(route.path, input.params ?? {});
    const query = new URLSearchParams(
      Object.entries(input.query ?? {}).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, String(value)] as [string, string]],
      ),
    ).toString();
    const headers: Record<string, string> = { [PARTNER_SECRET_HEADER]: settings.partnerSecret };
    if ('idempotent' in route && route.idempotent === true)
      headers[IDEMPOTENCY_KEY_HEADER] = input.idempotencyKey ?? crypto.randomUUID();
    if (route.method === 'POST') headers['Content-Type'] = 'application/json';
    const init: RequestInit = {
      method: route.method,
      headers,
      body: route.method === 'POST' ? JSON.stringify(input.body ?? {}) : undefined,
    };
    const url = `${baseUrl}${path}${query === '' ? '' : `?${query}`}`;
    for (let retry = 0; ; retry += 1) {
      try {
        return await attempt(id, url, init);
      } catch (error) {
        // Every partner route is safe to send again (reads, confirm, cancel, revokes, creates under one key).
        const again = error instanceof PartnerApiError && (error.status === 0 || error.status >= 500);
        if (!again || retry >= settings.maxRetries) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * 2 ** retry));
      }
    }
  }

  const callRoute: PartnerClient['call'] = (id, ...[input]) => call(id, input as CallInput | undefined);
  const checkouts: PartnerClient['checkouts'] = {
    list: (query = {}) => page('listPartnerCheckouts', query),
    all: (search = {}, options = {}) => every('listPartnerCheckouts', { ...search, limit: options.pageSize }),
    read: (checkoutId) => call('readPartnerCheckout', { params: { id: checkoutId } }),
    startPayment: (checkoutId) => call('startPartnerPayment', { params: { id: checkoutId } }),
    confirm: (checkoutId, body = {}) => call('confirmPartnerCheckout', { params: { id: checkoutId }, body }),
    decline: (checkoutId, body) =>
      call('declinePartnerCheckoutPayment', { params: { id: checkoutId }, body }),
    pay: (checkoutId, payment, options) => payForCheckout(checkouts, checkoutId, payment, options),
    cancel: (checkoutId) => call('cancelPartnerCheckout', { params: { id: checkoutId } }),
    installation: (checkoutId) => call('readPartnerInstallation', { params: { id: checkoutId } }),
  };
  return {
    call: callRoute,
    checkouts,
    account: {
      read: (query = {}) => call('readPartnerAccount', { query }),
    },
    esims: {
      list: (query = {}) => page('listPartnerEsims', query),
      all: (options = {}) => every('listPartnerEsims', { limit: options.pageSize }),
      read: (esimId) => call('readPartnerEsim', { params: { esimId } }),
      createManageLink: (esimId, body) => call('createPartnerManageLink', { params: { esimId }, body }),
      revokeAllManageLinks: (esimId) => call('revokeAllManageLinks', { params: { esimId } }),
      createActionRequest: (esimId, body, create = {}) =>
        call('createPartnerActionRequest', { params: { esimId }, body, ...create }),
      createDeliveryLink: (esimId, body = {}, create = {}) =>
        call('createPartnerDeliveryLink', { params: { esimId }, body, ...create }),
    },
    manageLinks: {
      revoke: (manageLinkId) => call('revokeManageLink', { params: { id: manageLinkId } }),
    },
    actionRequests: {
      list: (query = {}) => page('listPartnerActionRequests', query),
      all: (search = {}, options = {}) =>
        every('listPartnerActionRequests', { ...search, limit: options.pageSize }),
      read: (actionRequestId) => call('readPartnerActionRequest', { params: { id: actionRequestId } }),
    },
    webhookDeliveries: {
      list: (query = {}) => page('listPartnerWebhookDeliveries', query),
      all: (search = {}, options = {}) =>
        every('listPartnerWebhookDeliveries', { ...search, limit: options.pageSize }),
      read: (eventId) => call('readPartnerWebhookDelivery', { params: { id: eventId } }),
      resend: (eventId, create = {}) =>
        call('resendPartnerWebhookDelivery', { params: { id: eventId }, ...create }),
    },
    deliveryLinks: {
      revoke: (deliveryLinkId) => call('revokePartnerDeliveryLink', { params: { id: deliveryLinkId } }),
    },
    sales: {
      list: (query = {}) => page('listPartnerSales', query),
      all: (search = {}, options = {}) => every('listPartnerSales', { ...search, limit: options.pageSize }),
      read: (checkoutId) => call('readPartnerSale', { params: { checkoutId } }),
      exportCsv: (period) => call('exportPartnerSales', { query: period }),
    },
    privacy: {
      eraseTraveller: (subject, create = {}) =>
        call('createPartnerPrivacyErasure', { body: subject, ...create }),
      readErasure: (erasureId) => call('readPartnerPrivacyErasure', { params: { id: erasureId } }),
      exportTraveller: (subject) => call('exportPartnerPrivacyData', { body: subject }),
    },
  };
}

/** The error of a non-2xx answer: the envelope's code, params and request id, read leniently. */
function errorOf(response: Response, json: unknown): PartnerApiError {
  const envelope = json as
    | { error?: { code?: unknown; params?: unknown }; meta?: { requestId?: unknown } }
    | undefined;
  const code = envelope?.error?.code;
  const params = envelope?.error?.params;
  const requestId = envelope?.meta?.requestId;
  const retryAfter = retryAfterSecondsOf(response.headers.get('Retry-After'));
  return new PartnerApiError({
    code: typeof code === 'string' ? (code as PartnerApiErrorCode) : 'invalid_response',
    status: response.status,
    params: typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {},
    requestId: typeof requestId === 'string' ? requestId : null,
    retryAfterSeconds: retryAfter !== null && retryAfter > 0 ? retryAfter : null,
  });
}
