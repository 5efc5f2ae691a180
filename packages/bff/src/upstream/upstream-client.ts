/**
 * @module
 * The BFF's one client of the Partner eSIM Commerce API: `X-Api-Key`, a shared keep-alive pool per
 * origin, a timeout per attempt, retries with backoff and jitter only where a repeat is safe (reads, and
 * creates that carry an `Idempotency-Key`), tolerant parsing of answers, and errors as {@link UpstreamError}.
 */
import {
  type Account,
  AccountResponseSchema,
  type Capabilities,
  CapabilitiesResponseSchema,
  type CreateOrderRequest,
  type DeliveryLink,
  type DeliveryLinkCreateRequestInput,
  DeliveryLinkResponseSchema,
  type DeliveryLinkRevocation,
  DeliveryLinkRevocationResponseSchema,
  type EsimActions,
  EsimActionsResponseSchema,
  type EsimDetail,
  EsimDetailResponseSchema,
  type Offer,
  type OfferPage,
  OfferPageSchema,
  OfferResponseSchema,
  type Order,
  OrderPageSchema,
  OrderResponseSchema,
  type PartnerQuote,
  PartnerQuoteResponseSchema,
  type ProductPage,
  ProductPageSchema,
  type QuoteRequest,
  type TopUpOfferPage,
  TopUpOfferPageSchema,
} from '@esim-embed/shared';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../logger';
import { upstreamPaths } from './paths';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  parseRetryAfterMs,
  type RetryPolicy,
  sleep,
} from './retry-policy';
import { tolerant } from './tolerant-parsing';
import { errorFromUpstreamAnswer, readErrorEnvelope, UpstreamError } from './upstream-error';
import { acquireUpstreamPool, type UpstreamPoolLease } from './upstream-pool';

/** Options of {@link createUpstreamClient}. */
export interface UpstreamClientOptions {
  /** `{base_url}` of the contract, e.g. `https://api.partner.example/v2` or the sandbox's URL. */
  baseUrl: string;
  /** The widget's upstream API key (sent as `X-Api-Key`, never logged). */
  apiKey: string;
  /** Time for one attempt, headers and body included. Default 10 s. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Finer retry tuning (backoff base and cap, `Retry-After` cap, in-flight pause). */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  logger: Logger;
  /** An undici dispatcher to use instead of the shared keep-alive pool of the base URL's origin. */
  dispatcher?: Dispatcher;
  /** The jitter's random source (tests make it deterministic). */
  random?: () => number;
}

/** Query of a catalog page. `cursor` must come back unchanged with the same other parameters. */
export interface CatalogPageQuery {
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** Options of a create: the idempotency key that makes a retry (and a replay) safe. */
export interface CreateOptions {
  idempotencyKey: string;
}

/** The Partner eSIM Commerce API as the BFF uses it. Every method throws {@link UpstreamError} on failure. */
export interface UpstreamClient {
  /** The normalized base URL this client talks to. */
  readonly baseUrl: string;
  /** `GET /catalog/products`: one page of products with the snapshot's `catalogVersion`. */
  listProducts(query?: CatalogPageQuery & { updatedSince?: string | undefined }): Promise<ProductPage>;
  /** `GET /catalog/offers`: one page of offers, of one product or (without `productId`) of all. */
  listOffers(query?: CatalogPageQuery & { productId?: string | undefined }): Promise<OfferPage>;
  /** `GET /catalog/offers/{id}`. */
  getOffer(offerId: string): Promise<Offer>;
  /** `GET /capabilities`: scopes, settlement currency and `wholeRubOnly`. */
  getCapabilities(): Promise<Capabilities>;
  /** `GET /account`: the credential's account with its brand. */
  getAccount(): Promise<Account>;
  /** `POST /quotes` with an `Idempotency-Key`. */
  createQuote(body: QuoteRequest, options: CreateOptions): Promise<PartnerQuote>;
  /** `POST /orders` with an `Idempotency-Key` (a replay returns the first order, never a second one). */
  createOrder(body: CreateOrderRequest, options: CreateOptions): Promise<Order>;
  /** `GET /orders/{id}`. */
  getOrder(orderId: string): Promise<Order>;
  /** `GET /orders?externalRef=…`, every page: the orders placed under one reference (reconciliation). */
  findOrdersByExternalRef(externalRef: string): Promise<Order[]>;
  /** `GET` the eSIM detail (with installation data) at the order's `esim.resourceUrl`. */
  getEsim(resourceUrl: string): Promise<EsimDetail>;
  /** `GET` the eSIM's post-sale actions at its `actionsUrl`. */
  getEsimActions(actionsUrl: string): Promise<EsimActions>;
  /** `GET /esims/{id}/top-up-offers`. */
  getTopUpOffers(esimId: string): Promise<TopUpOfferPage>;
  /** `POST /orders/{id}/delivery-links` with an `Idempotency-Key`; the answer's `url` is a secret. */
  createDeliveryLink(
    orderId: string,
    body: DeliveryLinkCreateRequestInput,
    options: CreateOptions,
  ): Promise<DeliveryLink>;
  /** `POST /delivery-links/{id}/revoke` (retried only when given an `Idempotency-Key`). */
  revokeDeliveryLink(linkId: string, options?: Partial<CreateOptions>): Promise<DeliveryLinkRevocation>;
  /** Let go of the connection pool (closed when no other client of the same origin uses it). */
  close(): Promise<void>;
}

const Schemas = {
  productPage: tolerant(ProductPageSchema),
  offerPage: tolerant(OfferPageSchema),
  offer: tolerant(OfferResponseSchema),
  capabilities: tolerant(CapabilitiesResponseSchema),
  account: tolerant(AccountResponseSchema),
  quote: tolerant(PartnerQuoteResponseSchema),
  order: tolerant(OrderResponseSchema),
  orderPage: tolerant(OrderPageSchema),
  esim: tolerant(EsimDetailResponseSchema),
  esimActions: tolerant(EsimActionsResponseSchema),
  topUpOffers: tolerant(TopUpOfferPageSchema),
  deliveryLink: tolerant(DeliveryLinkResponseSchema),
  revocation: tolerant(DeliveryLinkRevocationResponseSchema),
};

type Query = Record<string, string | number | undefined>;

interface CallSpec<T> {
  /** A short name for logs (`listProducts`). */
  operation: string;
  method: 'GET' | 'POST';
  /** A path from {@link upstreamPaths}, or an absolute link given by the upstream. */
  target: string;
  query?: Query;
  body?: unknown;
  idempotencyKey?: string | undefined;
  schema: z.ZodType<T>;
}

/** One attempt's answer, read in full. */
interface Answer {
  status: number;
  body: unknown;
  bodyReadable: boolean;
  upstreamRequestId: string | undefined;
  retryAfterMs: number | undefined;
}

/** The most orders pages read when reconciling by `externalRef`. */
const MAX_ORDER_PAGES = 10;

/**
 * A client of the upstream at `baseUrl` with one API key. Clients of the same origin share one
 * keep-alive pool; `close()` each client when done.
 *
 * @example
 * const upstream = createUpstreamClient({ baseUrl: 'http://127.0.0.1:8788', apiKey, logger });
 * const order = await upstream.createOrder({ quoteId, externalRef }, { idempotencyKey: `order:${checkoutId}` });
 */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new Error(`upstream base URL must be http(s): ${base.protocol}`);
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseUrl = `${base.origin}${basePath}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retry,
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
  } satisfies RetryPolicy;
  const random = options.random ?? Math.random;
  const logger = options.logger.child({ upstream: baseUrl });
  const lease: UpstreamPoolLease | undefined = options.dispatcher
    ? undefined
    : acquireUpstreamPool(base.origin);
  const dispatcher: Dispatcher = options.dispatcher ?? (lease as UpstreamPoolLease).pool;

  /** The path (with query) to request: a known path under the base, or a link that must stay under it. */
  function resolve(target: string, query: Query | undefined): string {
    let url: URL;
    if (/^https?:\/\//i.test(target)) {
      url = new URL(target);
      // Never send the API key anywhere but the configured upstream.
      if (
        url.origin !== base.origin ||
        !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))
      ) {
        logger.error('upstream link outside the upstream base URL refused', { linkOrigin: url.origin });
        throw new UpstreamError('internal', { status: 502 });
      }
    } else {
      url = new URL(`${base.origin}${basePath}${target}`);
    }
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return `${url.pathname}${url.search}`;
  }

  async function attempt(spec: CallSpec<unknown>, path: string): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'esim-embed-bff',
      'x-api-key': options.apiKey,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    const response = await dispatcher.request({
      origin: base.origin,
      path,
      method: spec.method,
      headers,
      body: spec.body === undefined ? null : JSON.stringify(spec.body),
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await response.body.text();
    let body: unknown;
    let bodyReadable = true;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      bodyReadable = false;
    }
    const header = response.headers['x-request-id'];
    const bodyRequestId = readRequestId(body);
    return {
      status: response.statusCode,
      body,
      bodyReadable,
      upstreamRequestId: bodyRequestId ?? (Array.isArray(header) ? header[0] : header),
      retryAfterMs: parseRetryAfterMs(response.headers['retry-after']),
    };
  }

  async function call<T>(spec: CallSpec<T>): Promise<T> {
    const path = resolve(spec.target, spec.query);
    const logPath = path.split('?')[0];
    const retryable = spec.method === 'GET' || spec.idempotencyKey !== undefined;
    for (let retry = 0; ; retry += 1) {
      const started = performance.now();
      let answer: Answer;
      try {
        answer = await attempt(spec as CallSpec<unknown>, path);
      } catch (cause) {
        const durationMs = Math.round(performance.now() - started);
        const timedOut = isTimeout(cause);
        logger.debug('upstream call failed', {
          operation: spec.operation,
          method: spec.method,
          path: logPath,
          error: timedOut ? 'timeout' : errorName(cause),
          durationMs,
          attempt: retry + 1,
        });
        if (retryable && retry < policy.maxRetries) {
          await sleep(backoffDelayMs(retry, policy, random));
          continue;
        }
        logger.warn('upstream unavailable', {
          operation: spec.operation,
          path: logPath,
          timedOut,
          attempts: retry + 1,
        });
        throw new UpstreamError('upstream_unavailable', {
          retryAfterSeconds: 2,
          cause: sanitizeCause(cause),
        });
      }
      const durationMs = Math.round(performance.now() - started);
      logger.debug('upstream call', {
        operation: spec.operation,
        method: spec.method,
        path: logPath,
        status: answer.status,
        durationMs,
        upstreamRequestId: answer.upstreamRequestId,
        attempt: retry + 1,
      });

      if (answer.status >= 200 && answer.status < 300) return readSuccess(spec, answer, logPath);

      const wait = retryWait(spec, answer, retry);
      if (retryable && retry < policy.maxRetries && wait !== undefined) {
        await sleep(wait);
        continue;
      }
      const error = errorFromUpstreamAnswer(answer.status, answer.body, {
        upstreamRequestId: answer.upstreamRequestId,
        retryAfterSeconds:
          answer.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(answer.retryAfterMs / 1000)),
      });
      const level = error.status >= 500 ? 'warn' : 'info';
      logger[level]('upstream refused', {
        operation: spec.operation,
        path: logPath,
        status: answer.status,
        upstreamCode: error.upstreamCode,
        code: error.code,
        upstreamRequestId: error.upstreamRequestId,
        attempts: retry + 1,
      });
      throw error;
    }
  }

  /** How long to wait before trying again after an error answer, or undefined when it is final. */
  function retryWait(spec: CallSpec<unknown>, answer: Answer, retry: number): number | undefined {
    if (answer.status === 429 || answer.status >= 500) {
      if (answer.retryAfterMs === undefined) return backoffDelayMs(retry, policy, random);
      // A long Retry-After is not waited for here: the caller gets the hint instead.
      return answer.retryAfterMs <= policy.maxRetryAfterMs ? answer.retryAfterMs : undefined;
    }
    if (answer.status === 409 && spec.idempotencyKey !== undefined) {
      const envelope = readErrorEnvelope(answer.body);
      // 409 idempotency_conflict: the first request with this key is still being processed upstream.
      // (A different body under the same key is a 422 and final.)
      if (envelope?.error.code === 'idempotency_conflict') {
        return answer.retryAfterMs !== undefined && answer.retryAfterMs <= policy.maxRetryAfterMs
          ? answer.retryAfterMs
          : policy.inFlightDelayMs * (retry + 1);
      }
    }
    return undefined;
  }

  function readSuccess<T>(spec: CallSpec<T>, answer: Answer, logPath: string | undefined): T {
    const parsed = answer.bodyReadable ? spec.schema.safeParse(answer.body) : undefined;
    if (parsed?.success) return parsed.data;
    // Paths and codes only: the values may be installation data.
    logger.error('upstream answer unreadable', {
      operation: spec.operation,
      path: logPath,
      status: answer.status,
      upstreamRequestId: answer.upstreamRequestId,
      issues: parsed?.error.issues
        .slice(0, 10)
        .map((issue) => ({ path: issue.path.join('.'), code: issue.code })),
      json: answer.bodyReadable,
    });
    throw new UpstreamError('internal', {
      status: 502,
      upstreamRequestId: answer.upstreamRequestId,
      upstreamStatus: answer.status,
    });
  }

  const data = async <T>(spec: CallSpec<{ data: T }>): Promise<T> => (await call(spec)).data;

  return {
    baseUrl,
    listProducts: (query = {}) =>
      call({
        operation: 'listProducts',
        method: 'GET',
        target: upstreamPaths.products(),
        query: { cursor: query.cursor, limit: query.limit, updatedSince: query.updatedSince },
        schema: Schemas.productPage,
      }),
    listOffers: (query = {}) =>
      call({
        operation: 'listOffers',
        method: 'GET',
        target: upstreamPaths.offers(),
        query: { productId: query.productId, cursor: query.cursor, limit: query.limit },
        schema: Schemas.offerPage,
      }),
    getOffer: (offerId) =>
      data({
        operation: 'getOffer',
        method: 'GET',
        target: upstreamPaths.offer(offerId),
        schema: Schemas.offer,
      }),
    getCapabilities: () =>
      data({
        operation: 'getCapabilities',
        method: 'GET',
        target: upstreamPaths.capabilities(),
        schema: Schemas.capabilities,
      }),
    getAccount: () =>
      data({
        operation: 'getAccount',
        method: 'GET',
        target: upstreamPaths.account(),
        schema: Schemas.account,
      }),
    createQuote: (body, { idempotencyKey }) =>
      data({
        operation: 'createQuote',
        method: 'POST',
        target: upstreamPaths.quotes(),
        body,
        idempotencyKey,
        schema: Schemas.quote,
      }),
    createOrder: (body, { idempotencyKey }) =>
      data({
        operation: 'createOrder',
        method: 'POST',
        target: upstreamPaths.orders(),
        body,
        idempotencyKey,
        schema: Schemas.order,
      }),
    getOrder: (orderId) =>
      data({
        operation: 'getOrder',
        method: 'GET',
        target: upstreamPaths.order(orderId),
        schema: Schemas.order,
      }),
    async findOrdersByExternalRef(externalRef) {
      const orders: Order[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_ORDER_PAGES; page += 1) {
        const answer = await call({
          operation: 'findOrdersByExternalRef',
          method: 'GET',
          target: upstreamPaths.orders(),
          query: { externalRef, cursor },
          schema: Schemas.orderPage,
        });
        orders.push(...answer.data);
        if (!answer.meta.hasMore || !answer.meta.nextCursor) break;
        cursor = answer.meta.nextCursor;
      }
      return orders;
    },
    getEsim: (resourceUrl) =>
      data({ operation: 'getEsim', method: 'GET', target: resourceUrl, schema: Schemas.esim }),
    getEsimActions: (actionsUrl) =>
      data({ operation: 'getEsimActions', method: 'GET', target: actionsUrl, schema: Schemas.esimActions }),
    getTopUpOffers: (esimId) =>
      call({
        operation: 'getTopUpOffers',
        method: 'GET',
        target: upstreamPaths.esimTopUpOffers(esimId),
        schema: Schemas.topUpOffers,
      }),
    createDeliveryLink: (orderId, body, { idempotencyKey }) =>
      data({
        operation: 'createDeliveryLink',
        method: 'POST',
        target: upstreamPaths.orderDeliveryLinks(orderId),
        body,
        idempotencyKey,
        schema: Schemas.deliveryLink,
      }),
    revokeDeliveryLink: (linkId, revokeOptions = {}) =>
      data({
        operation: 'revokeDeliveryLink',
        method: 'POST',
        target: upstreamPaths.revokeDeliveryLink(linkId),
        body: {},
        idempotencyKey: revokeOptions.idempotencyKey,
        schema: Schemas.revocation,
      }),
    async close() {
      await lease?.release();
    },
  };
}

function readRequestId(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const meta = (body as { meta?: unknown }).meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const requestId = (meta as { requestId?: unknown }).requestId;
  return typeof requestId === 'string' ? requestId : undefined;
}

function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    ['TimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError'].includes(error.name) ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  );
}

function errorName(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name}:${code}` : error.name;
}

/** The cause kept on the error: name and code only (a message may quote a URL or a header). */
function sanitizeCause(error: unknown): Error {
  return new Error(errorName(error));
}
