/**
 * @module
 * The BFF's one client of the Partner eSIM Commerce API: `X-Api-Key`, a shared keep-alive pool per
 * origin, a timeout per attempt, retries with backoff and jitter only where a repeat is safe (reads, and
 * creates that carry an `Idempotency-Key`), tolerant parsing of answers, and errors as {@link UpstreamError}.
 *
 * Over 300 lines: one short entry per upstream operation; transport and parsing have files of their own.
 */

import { createHash } from 'node:crypto';
import {
  type Account,
  AccountResponseSchema,
  type ActionRequest,
  type ActionRequestInput,
  ActionRequestResponseSchema,
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
  type OrderPage,
  OrderPageSchema,
  OrderResponseSchema,
  type ProductPage,
  ProductPageSchema,
  type QuoteRequest,
  type TopUpOfferPage,
  TopUpOfferPageSchema,
  type UpstreamQuote,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import type { Dispatcher } from 'undici';
import type { UpstreamTls } from '../config/client-tls';
import type { Logger } from '../logger';
import type { OutgoingCalls } from './outgoing-call-observer';
import { upstreamPaths } from './paths';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';
import { tolerant, tolerantPage } from './tolerant-parsing';
import type { UpstreamBudgetGate } from './upstream-budget';
import type { UpstreamError } from './upstream-error';
import { acquireUpstreamPool, type UpstreamPoolLease } from './upstream-pool';
import { type CallSpec, createUpstreamTransport } from './upstream-transport';

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
  /** The client certificate (mTLS) and CA of the upstream connections (read from the environment). */
  tls?: UpstreamTls | undefined;
  /** The jitter's random source (tests make it deterministic). */
  random?: () => number;
  /** How a pause between attempts (backoff, a short `Retry-After`) is waited out: a timer unless tests say. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Told of every attempt (metrics, traces, `traceparent`); absent when both are off. */
  observer?: OutgoingCalls | undefined;
  /** The key's budget as this widget uses it (absent: calls are not counted). */
  budget?: UpstreamBudgetGate | undefined;
}

/** Query of a catalog page. `cursor` must come back unchanged with the same other parameters. */
export interface CatalogPageQuery {
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** Query of a page of recent orders. `cursor` must come back unchanged with the same `createdSince`. */
export interface RecentOrdersQuery {
  /** Orders created at or after this instant (ISO 8601). */
  createdSince: string;
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
  /**
   * An opaque name of this client's base URL and API key (a digest, never the key): clients with the same one
   * act as the same upstream account and see the same orders.
   */
  readonly credential: string;
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
  createQuote(body: QuoteRequest, options: CreateOptions): Promise<UpstreamQuote>;
  /** `POST /orders` with an `Idempotency-Key` (a replay returns the first order, never a second one). */
  createOrder(body: CreateOrderRequest, options: CreateOptions): Promise<Order>;
  /** `GET /orders/{id}`. */
  getOrder(orderId: string): Promise<Order>;
  /** `GET /orders?externalRef=…`, every page: the orders placed under one reference (reconciliation). */
  findOrdersByExternalRef(externalRef: string): Promise<Order[]>;
  /**
   * `GET /orders?createdSince=…`: one page of the orders created since then, oldest first (reconciliation). The
   * filter is our assumption, not the contract's: read `createdAt` again rather than trust it.
   */
  listRecentOrders(query: RecentOrdersQuery): Promise<OrderPage>;
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
  /** `POST /esims/{id}/action-requests`: a cancellation, refund or reissue request (reason decides which). */
  createActionRequest(
    esimId: string,
    body: ActionRequestInput,
    options: CreateOptions,
  ): Promise<ActionRequest>;
  /** `GET /action-requests/{id}`. */
  getActionRequest(requestId: string): Promise<ActionRequest>;
  /**
   * Let go of the connection pool (closed when no other client of the same origin uses it, after its requests
   * under way — or at once, failing them, with `abort`).
   */
  close(options?: { abort?: boolean }): Promise<void>;
}

const Schemas = {
  productPage: tolerantPage(ProductPageSchema),
  offerPage: tolerantPage(OfferPageSchema),
  offer: tolerant(OfferResponseSchema),
  capabilities: tolerant(CapabilitiesResponseSchema),
  account: tolerant(AccountResponseSchema),
  quote: tolerant(UpstreamQuoteResponseSchema),
  order: tolerant(OrderResponseSchema),
  orderPage: tolerantPage(OrderPageSchema),
  esim: tolerant(EsimDetailResponseSchema),
  esimActions: tolerant(EsimActionsResponseSchema),
  topUpOffers: tolerantPage(TopUpOfferPageSchema),
  deliveryLink: tolerant(DeliveryLinkResponseSchema),
  revocation: tolerant(DeliveryLinkRevocationResponseSchema),
  actionRequest: tolerant(ActionRequestResponseSchema),
};

/**
 * An opaque name of an upstream base URL and API key (a digest, never the key): clients with the same one act as
 * the same upstream account, see the same orders and share one rate limit.
 */
export function upstreamCredential(baseUrl: string, apiKey: string): string {
  const base = new URL(baseUrl);
  const normalized = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  return createHash('sha256').update(`${normalized}\n${apiKey}`).digest('base64url').slice(0, 16);
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
    : acquireUpstreamPool(base.origin, undefined, options.tls);
  const dispatcher: Dispatcher = options.dispatcher ?? (lease as UpstreamPoolLease).pool;

  const call = createUpstreamTransport({
    base,
    apiKey: options.apiKey,
    timeoutMs,
    policy,
    random,
    sleep: options.sleep,
    logger,
    dispatcher,
    observer: options.observer,
    budget: options.budget,
  });
  const data = async <T>(spec: CallSpec<{ data: T }>): Promise<T> => (await call(spec)).data;

  return {
    baseUrl,
    credential: upstreamCredential(baseUrl, options.apiKey),
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
    listRecentOrders: (query) =>
      call({
        operation: 'listRecentOrders',
        method: 'GET',
        target: upstreamPaths.orders(),
        query: { createdSince: query.createdSince, cursor: query.cursor, limit: query.limit },
        schema: Schemas.orderPage,
      }),
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
    createActionRequest: (esimId, body, { idempotencyKey }) =>
      data({
        operation: 'createActionRequest',
        method: 'POST',
        target: upstreamPaths.esimActionRequests(esimId),
        body,
        idempotencyKey,
        schema: Schemas.actionRequest,
      }),
    getActionRequest: (requestId) =>
      data({
        operation: 'getActionRequest',
        method: 'GET',
        target: upstreamPaths.actionRequest(requestId),
        schema: Schemas.actionRequest,
      }),
    async close(closeOptions) {
      await lease?.release(closeOptions);
    },
  };
}
