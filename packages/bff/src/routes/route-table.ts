/**
 * @module
 * Every route of the BFF in one table, the one description of a route: what is mounted and with which auth
 * and idempotency (`mount-routes.ts`), what the OpenAPI document describes and what `405` answers know.
 * Request and response schemas are the shared zod schemas the handlers validate and answer with.
 * Over 300 lines: one entry per route of the whole API is the point of the file.
 */
import {
  ActionRequestListQuerySchema,
  ApiErrorEnvelopeSchema,
  CheckoutResponseSchema,
  ConfirmCheckoutRequestSchema,
  CreateActionRequestSchema,
  CreateCheckoutRequestSchema,
  CreateDeliveryLinkRequestSchema,
  CreatedCheckoutResponseSchema,
  CreateManageLinkRequestSchema,
  CreatePartnerDeliveryLinkRequestSchema,
  CreateQuoteRequestSchema,
  CreateSessionRequestSchema,
  DeclineCheckoutPaymentRequestSchema,
  DestinationsQuerySchema,
  DestinationsResponseSchema,
  EsimInstallationViewResponseSchema,
  EsimViewQuerySchema,
  EsimViewResponseSchema,
  InstallationResponseSchema,
  ManageLinkResponseSchema,
  PartnerAccountResponseSchema,
  PartnerActionRequestListResponseSchema,
  PartnerActionRequestResponseSchema,
  PartnerCheckoutListQuerySchema,
  PartnerCheckoutListResponseSchema,
  PartnerCheckoutResponseSchema,
  PartnerDeliveryLinkResponseSchema,
  PartnerEsimListQuerySchema,
  PartnerEsimListResponseSchema,
  PartnerWebhookDeliveryListResponseSchema,
  PartnerWebhookDeliveryResponseSchema,
  PlansResponseSchema,
  PublicCatalogResponseSchema,
  QuoteResponseSchema,
  ResendWebhookDeliveryRequestSchema,
  RevokedDeliveryLinkResponseSchema,
  RevokedManageLinkResponseSchema,
  RevokedManageLinksResponseSchema,
  SessionResponseSchema,
  WebhookDeliveryListQuerySchema,
  WidgetDeliveryLinkResponseSchema,
  WidgetIntegritySchema,
  WidgetStartResponseSchema,
} from '@esim-embed/shared';
import type { z } from 'zod';

/**
 * How a route is authenticated, each applied by the mount (`routes/mount-routes.ts`) before the handler runs:
 * - `public`: nothing asked;
 * - `origin`: a known, enabled widget (from the path's `{widgetId}`, else the body) that allows the request's
 *   `Origin`, within its per-address limit (counted apart for starts and for sessions);
 * - `session`: a valid session token presented from its own origin, within the per-session request budget;
 * - `session+secret`: a session and the checkout's client secret (`X-Checkout-Secret`);
 * - `session+manage`: a session and a manage token of the same widget (`X-Manage-Token`);
 * - `partner`: a widget's partner secret (`X-Partner-Secret`), within the failed-secret budget of the address.
 */
export type RouteAuth = 'public' | 'origin' | 'session' | 'session+secret' | 'session+manage' | 'partner';

/** One route of the BFF: everything about it but its handler, which the routes files register by `id`. */
export interface RouteSpec<Id extends string = string> {
  /** The name its handler is registered under (and the handler function's own name). */
  id: Id;
  method: 'GET' | 'POST';
  /** OpenAPI-style path (`/v1/checkouts/{id}`); the mount turns `{id}` into Hono's `:id`. */
  path: string;
  summary: string;
  auth: RouteAuth;
  /**
   * A create that needs an `Idempotency-Key`: the mount puts the idempotency middleware in front of the
   * handler, scoped by the auth (the session, or the partner secret).
   */
  idempotent?: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may be left out (an empty body reads as `{}`). */
  bodyOptional?: boolean;
  /** Takes an optional `X-Manage-Token`: a quote or checkout for a top-up of that eSIM. */
  acceptsManageToken?: boolean;
  /** The success status and body. */
  status: 200 | 201;
  response?: z.ZodType;
  /** Non-JSON answers (the widget bundle, the docs page). */
  contentType?: string;
}

const TABLE = [
  {
    id: 'startWidget',
    method: 'GET',
    path: '/v1/widgets/{widgetId}/start',
    summary:
      'Start a widget: its public config and current catalog address, no session; the page’s Origin must be one of the widget’s allowed origins (cached 60 s per Origin).',
    auth: 'origin',
    status: 200,
    response: WidgetStartResponseSchema,
  },
  {
    id: 'createSession',
    method: 'POST',
    path: '/v1/sessions',
    summary:
      'Open a widget session (the widget does at the quote): the page’s Origin must be one of the widget’s allowed origins.',
    auth: 'origin',
    body: CreateSessionRequestSchema,
    status: 201,
    response: SessionResponseSchema,
  },
  {
    id: 'listDestinations',
    method: 'GET',
    path: '/v1/destinations',
    summary: 'Destinations (countries and regions) with localized names and retail from-prices (ETag).',
    auth: 'session',
    query: DestinationsQuerySchema,
    status: 200,
    response: DestinationsResponseSchema,
  },
  {
    id: 'listPlans',
    method: 'GET',
    path: '/v1/destinations/{code}/plans',
    summary: 'The plans of one destination at retail prices (ETag).',
    auth: 'session',
    query: DestinationsQuerySchema,
    status: 200,
    response: PlansResponseSchema,
  },
  {
    id: 'currentCatalog',
    method: 'GET',
    path: '/v1/catalog/{widgetId}',
    summary: 'The name and address of the widget’s current public catalog (public; cached a few seconds).',
    auth: 'public',
    status: 200,
    response: PublicCatalogResponseSchema,
  },
  {
    id: 'publicDestinations',
    method: 'GET',
    path: '/v1/catalog/{widgetId}/{version}/{locale}/destinations',
    summary: 'The destinations of one catalog version (public, immutable: any cache may keep it).',
    auth: 'public',
    status: 200,
    response: DestinationsResponseSchema,
  },
  {
    id: 'publicPlans',
    method: 'GET',
    path: '/v1/catalog/{widgetId}/{version}/{locale}/plans/{code}',
    summary: 'The plans of one destination in one catalog version (public, immutable).',
    auth: 'public',
    status: 200,
    response: PlansResponseSchema,
  },
  {
    id: 'accountLogo',
    method: 'GET',
    path: '/v1/brand/{widgetId}/logo/{hash}',
    summary:
      'The upstream account’s logo (PNG, JPEG or GIF), served from the BFF so that a page’s CSP needs no upstream host (public, immutable).',
    auth: 'public',
    status: 200,
    contentType: 'image/*',
  },
  {
    id: 'createQuote',
    method: 'POST',
    path: '/v1/quotes',
    summary: 'Hold a retail price for one offer until expiresAt.',
    auth: 'session',
    idempotent: true,
    acceptsManageToken: true,
    body: CreateQuoteRequestSchema,
    status: 201,
    response: QuoteResponseSchema,
  },
  {
    id: 'createCheckout',
    method: 'POST',
    path: '/v1/checkouts',
    summary: 'Check a quote out: direct places the order, partner_confirm waits for the partner’s confirm.',
    auth: 'session',
    idempotent: true,
    acceptsManageToken: true,
    body: CreateCheckoutRequestSchema,
    status: 201,
    response: CreatedCheckoutResponseSchema,
  },
  {
    id: 'readCheckout',
    method: 'GET',
    path: '/v1/checkouts/{id}',
    summary: 'The checkout’s status, mirrored from the upstream order.',
    auth: 'session+secret',
    status: 200,
    response: CheckoutResponseSchema,
  },
  {
    id: 'cancelCheckout',
    method: 'POST',
    path: '/v1/checkouts/{id}/cancel',
    summary:
      'The traveller abandons the payment: cancel a checkout that awaits payment (again: the same answer).',
    auth: 'session+secret',
    status: 200,
    response: CheckoutResponseSchema,
  },
  {
    id: 'readInstallation',
    method: 'GET',
    path: '/v1/checkouts/{id}/installation',
    summary: 'Installation data (QR payload, LPA, activation code, install links). Never cached.',
    auth: 'session+secret',
    status: 200,
    response: InstallationResponseSchema,
  },
  {
    id: 'createDeliveryLink',
    method: 'POST',
    path: '/v1/checkouts/{id}/delivery-links',
    summary: 'A view-limited link that opens the installation on another device.',
    auth: 'session+secret',
    idempotent: true,
    body: CreateDeliveryLinkRequestSchema,
    status: 201,
    response: WidgetDeliveryLinkResponseSchema,
  },
  {
    id: 'createManageLink',
    method: 'POST',
    path: '/v1/checkouts/{id}/manage-link',
    summary:
      'The manage link of a ready checkout’s eSIM (the same one on every call): the way back to “my eSIM”.',
    auth: 'session+secret',
    status: 201,
    response: ManageLinkResponseSchema,
  },
  {
    id: 'readMyEsim',
    method: 'GET',
    path: '/v1/my-esim',
    summary: 'My eSIM (X-Manage-Token): plan, usage, dates, installed, top-up status and offers, actions.',
    auth: 'session+manage',
    query: EsimViewQuerySchema,
    status: 200,
    response: EsimViewResponseSchema,
  },
  {
    id: 'readMyInstallation',
    method: 'GET',
    path: '/v1/my-esim/installation',
    summary: 'Installation data again while the eSIM is not installed (X-Manage-Token). Never cached.',
    auth: 'session+manage',
    status: 200,
    response: EsimInstallationViewResponseSchema,
  },
  {
    id: 'readPartnerAccount',
    method: 'GET',
    path: '/v1/partner/account',
    summary:
      'The partner’s money: balance, what open checkouts hold, what new ones may still spend, limits (?widgetId= when the secret opens several widgets).',
    auth: 'partner',
    status: 200,
    response: PartnerAccountResponseSchema,
  },
  {
    id: 'listPartnerCheckouts',
    method: 'GET',
    path: '/v1/partner/checkouts',
    summary:
      'The partner’s checkouts, newest first, searched by status, createdFrom/createdTo, traveller email (exact, any case), esimId and paymentReference; ?limit= (25, at most 100) and the answer’s nextCursor as ?cursor=.',
    auth: 'partner',
    query: PartnerCheckoutListQuerySchema,
    status: 200,
    response: PartnerCheckoutListResponseSchema,
  },
  {
    id: 'readPartnerCheckout',
    method: 'GET',
    path: '/v1/partner/checkouts/{id}',
    summary: 'The partner server’s view of a checkout (amount, status, upstream order).',
    auth: 'partner',
    status: 200,
    response: PartnerCheckoutResponseSchema,
  },
  {
    id: 'readPartnerInstallation',
    method: 'GET',
    path: '/v1/partner/checkouts/{id}/installation',
    summary:
      'Installation data of a ready checkout’s eSIM (not yet installed), for the partner to send the traveller. Never cached.',
    auth: 'partner',
    status: 200,
    response: InstallationResponseSchema,
  },
  {
    id: 'startPartnerPayment',
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/payment-started',
    summary:
      'The partner is about to charge: fund the order now and hold it firmly until the confirm (402/422 before any charge when the account cannot; 409 after 10 declined attempts; safe to retry).',
    auth: 'partner',
    status: 200,
    response: PartnerCheckoutResponseSchema,
  },
  {
    id: 'confirmPartnerCheckout',
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/confirm',
    summary: 'The partner took the payment: place the order (safe to retry).',
    auth: 'partner',
    body: ConfirmCheckoutRequestSchema,
    bodyOptional: true,
    status: 200,
    response: PartnerCheckoutResponseSchema,
  },
  {
    id: 'declinePartnerCheckoutPayment',
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/decline',
    summary:
      'A payment attempt was declined (nothing taken): the checkout keeps awaiting payment and the widget asks for another card (safe to retry).',
    auth: 'partner',
    body: DeclineCheckoutPaymentRequestSchema,
    status: 200,
    response: PartnerCheckoutResponseSchema,
  },
  {
    id: 'cancelPartnerCheckout',
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/cancel',
    summary: 'The payment failed or was abandoned: cancel a checkout that awaits payment.',
    auth: 'partner',
    status: 200,
    response: PartnerCheckoutResponseSchema,
  },
  {
    id: 'createPartnerManageLink',
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/manage-links',
    summary:
      'The manage link of an eSIM the partner sold, in one of its widgets (the same one while it is live).',
    auth: 'partner',
    body: CreateManageLinkRequestSchema,
    status: 201,
    response: ManageLinkResponseSchema,
  },
  {
    id: 'revokeManageLink',
    method: 'POST',
    path: '/v1/partner/manage-links/{id}/revoke',
    summary: 'Revoke a manage link of one of the partner’s widgets: it stops opening the eSIM at once.',
    auth: 'partner',
    status: 200,
    response: RevokedManageLinkResponseSchema,
  },
  {
    id: 'revokeAllManageLinks',
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/manage-links/revoke-all',
    summary:
      'Revoke every manage link of an eSIM the partner sold, in every widget; a later mint makes a new one.',
    auth: 'partner',
    status: 200,
    response: RevokedManageLinksResponseSchema,
  },
  {
    id: 'listPartnerEsims',
    method: 'GET',
    path: '/v1/partner/esims',
    summary:
      'The eSIMs the partner’s widgets sold, newest first, with the selling checkout while it is kept; ?limit= and ?cursor= as every list.',
    auth: 'partner',
    query: PartnerEsimListQuerySchema,
    status: 200,
    response: PartnerEsimListResponseSchema,
  },
  {
    id: 'readPartnerEsim',
    method: 'GET',
    path: '/v1/partner/esims/{esimId}',
    summary: 'An eSIM as its traveller sees it (no installation data).',
    auth: 'partner',
    status: 200,
    response: EsimViewResponseSchema,
  },
  {
    id: 'createPartnerActionRequest',
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/action-requests',
    summary:
      'A help request (cancellation, refund or reissue by reason) when the eSIM’s actions allow it at once or through review (manual_review); followed, and reported by action_request.updated webhooks.',
    auth: 'partner',
    idempotent: true,
    body: CreateActionRequestSchema,
    status: 201,
    response: PartnerActionRequestResponseSchema,
  },
  {
    id: 'readPartnerActionRequest',
    method: 'GET',
    path: '/v1/partner/action-requests/{id}',
    summary:
      'A help request’s status: requested, in_review, completed or rejected (a completed reissue names the replacement eSIM).',
    auth: 'partner',
    status: 200,
    response: PartnerActionRequestResponseSchema,
  },
  {
    id: 'createPartnerDeliveryLink',
    method: 'POST',
    path: '/v1/partner/esims/{esimId}/delivery-links',
    summary:
      'A delivery link (hosted installation page, view-limited) for an eSIM the partner sold; its url is a secret to send to the traveller.',
    auth: 'partner',
    idempotent: true,
    body: CreatePartnerDeliveryLinkRequestSchema,
    status: 201,
    response: PartnerDeliveryLinkResponseSchema,
  },
  {
    id: 'revokePartnerDeliveryLink',
    method: 'POST',
    path: '/v1/partner/delivery-links/{id}/revoke',
    summary: 'Revoke a delivery link: it stops opening at once (again: the first revocation).',
    auth: 'partner',
    status: 200,
    response: RevokedDeliveryLinkResponseSchema,
  },
  {
    id: 'listPartnerActionRequests',
    method: 'GET',
    path: '/v1/partner/action-requests',
    summary:
      'The help requests made through this BFF for the partner’s widget, newest first, as last read (?status=, ?esimId=; ?limit=, ?cursor=; ?widgetId= when the secret opens several).',
    auth: 'partner',
    query: ActionRequestListQuerySchema,
    status: 200,
    response: PartnerActionRequestListResponseSchema,
  },
  {
    id: 'listPartnerWebhookDeliveries',
    method: 'GET',
    path: '/v1/partner/webhook-deliveries',
    summary:
      'The webhook deliveries of the partner’s widget, newest first: status, attempts, next attempt (?status=, ?type=, ?checkoutId=; ?limit=, ?cursor=; ?widgetId= when the secret opens several).',
    auth: 'partner',
    query: WebhookDeliveryListQuerySchema,
    status: 200,
    response: PartnerWebhookDeliveryListResponseSchema,
  },
  {
    id: 'readPartnerWebhookDelivery',
    method: 'GET',
    path: '/v1/partner/webhook-deliveries/{id}',
    summary:
      'One webhook delivery of the partner’s widgets (its id is the event id), with the event it sends.',
    auth: 'partner',
    status: 200,
    response: PartnerWebhookDeliveryResponseSchema,
  },
  {
    id: 'resendPartnerWebhookDelivery',
    method: 'POST',
    path: '/v1/partner/webhook-deliveries/{id}/resend',
    summary:
      'Send a delivery again now: the same event under the same id (de-duplicate on it), retried as a new one; another partner’s is not_found.',
    auth: 'partner',
    idempotent: true,
    body: ResendWebhookDeliveryRequestSchema,
    bodyOptional: true,
    status: 200,
    response: PartnerWebhookDeliveryResponseSchema,
  },
  {
    id: 'health',
    method: 'GET',
    path: '/healthz',
    summary: 'The process is up.',
    auth: 'public',
    status: 200,
  },
  {
    id: 'ready',
    method: 'GET',
    path: '/readyz',
    summary:
      'Every widget’s upstream is reachable with a valid key, and the store answers: the status for anyone, the checks with the operations token.',
    auth: 'public',
    status: 200,
  },
  {
    id: 'openApi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This API as OpenAPI 3.1.',
    auth: 'public',
    status: 200,
  },
  {
    id: 'docsPage',
    method: 'GET',
    path: '/docs',
    summary: 'The API reference page.',
    auth: 'public',
    status: 200,
    contentType: 'text/html',
  },
  {
    id: 'widgetBundle',
    method: 'GET',
    path: '/widget.js',
    summary:
      'The latest widget: `<script type="module" src=".../widget.js">` defines `<esim-widget>` (cached 5 minutes).',
    auth: 'public',
    status: 200,
    contentType: 'text/javascript',
  },
  {
    id: 'widgetChunk',
    method: 'GET',
    path: '/widget-chunks/{file}',
    summary: 'A lazily loaded part of the latest widget (content-hashed name, cached for a year).',
    auth: 'public',
    status: 200,
    contentType: 'text/javascript',
  },
  {
    id: 'widgetOfMajor',
    method: 'GET',
    path: '/v{major}/widget.js',
    summary:
      'The latest widget of one major version (`/v1/widget.js`): compatible updates, cached 5 minutes.',
    auth: 'public',
    status: 200,
    contentType: 'text/javascript',
  },
  {
    id: 'widgetChunkOfMajor',
    method: 'GET',
    path: '/v{major}/widget-chunks/{file}',
    summary: 'A lazily loaded part of the widget of one major version (content-hashed, cached for a year).',
    auth: 'public',
    status: 200,
    contentType: 'text/javascript',
  },
  {
    id: 'pinnedWidget',
    method: 'GET',
    path: '/widget@{version}/widget.js',
    summary:
      'One version of the widget, never changed (`immutable`, cached for a year): pin it with Subresource Integrity.',
    auth: 'public',
    status: 200,
    contentType: 'text/javascript',
  },
  {
    id: 'pinnedWidgetChunk',
    method: 'GET',
    path: '/widget@{version}/widget-chunks/{file}',
    summary: 'A lazily loaded part of one version of the widget (immutable).',
    auth: 'public',
    status: 200,
    contentType: 'text/javascript',
  },
  {
    id: 'pinnedWidgetIntegrity',
    method: 'GET',
    path: '/widget@{version}/integrity.json',
    summary: 'The Subresource Integrity (`sha384-…`) of one version’s `widget.js` and of each of its chunks.',
    auth: 'public',
    status: 200,
    response: WidgetIntegritySchema,
  },
] as const satisfies readonly RouteSpec[];

/** The id of one of the BFF's routes. */
export type RouteId = (typeof TABLE)[number]['id'];

/** The BFF's routes: what is mounted, with which auth and idempotency, what OpenAPI and the 405 answers say. */
export const ROUTES: readonly RouteSpec<RouteId>[] = TABLE;

/** The error envelope every failure answers with. */
export const ERROR_RESPONSE_SCHEMA = ApiErrorEnvelopeSchema;

const patterns = ROUTES.map((route) => ({
  route,
  regex: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The methods a path answers to (empty: the path does not exist). HEAD goes wherever GET does. */
export function allowedMethods(path: string): string[] {
  const methods = new Set<string>();
  for (const { route, regex } of patterns) if (regex.test(path)) methods.add(route.method);
  if (methods.has('GET')) methods.add('HEAD');
  if (methods.size > 0 && path.startsWith('/v1/') && !path.startsWith('/v1/partner/')) methods.add('OPTIONS');
  return [...methods];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The route's path as Hono writes it (`/v1/checkouts/:id`). Hono's parameters take whole segments, so a
 * parameter that shares its segment with text (`/widget@{version}/…`) matches the whole segment
 * (`/:version{widget@[^/]+}/…`), and its value keeps that text for the handler to drop.
 */
export function honoPath(route: Pick<RouteSpec, 'path'>): string {
  return route.path
    .split('/')
    .map((segment) => {
      const match = /^([^{}]*)\{([^}]+)\}([^{}]*)$/.exec(segment);
      if (match === null) return segment;
      const [, before = '', name = '', after = ''] = match;
      if (before === '' && after === '') return `:${name}`;
      return `:${name}{${escapeRegExp(before)}[^/]+${escapeRegExp(after)}}`;
    })
    .join('/');
}
