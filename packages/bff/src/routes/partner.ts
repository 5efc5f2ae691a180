/**
 * @module
 * The partner server's API: `GET /v1/partner/account` (its balance, what open checkouts hold, its limits),
 * `GET /v1/partner/checkouts/{id}`, `POST …/confirm` (the partner took the
 * payment: place the order) and `POST …/cancel`; after the sale, the manage link of an eSIM it sold (and the
 * revocation of one link of its own widgets, or of every link of the eSIM), the eSIM's view, help requests (cancellation, refund, reissue) with their status, and delivery links (create, revoke). Authenticated by the widget's partner secret in
 * `X-Partner-Secret`, compared in constant time; never callable from a browser (no CORS).
 */
import { createHash } from 'node:crypto';
import {
  API_VERSION,
  ConfirmCheckoutRequestSchema,
  CreateActionRequestSchema,
  CreateManageLinkRequestSchema,
  CreatePartnerDeliveryLinkRequestSchema,
  IDEMPOTENCY_KEY_HEADER,
  PARTNER_SECRET_HEADER,
} from '@esim-embed/shared';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import type { ManageTokens } from '../after-sale/manage-token';
import { widgetsForPartnerSecret } from '../checkout/checkout-access';
import type { CheckoutService } from '../checkout/checkout-service';
import type { EsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import type { PartnerFunding } from '../funding/partner-funding';
import { answerJson } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { type IdempotencyOptions, idempotency } from '../http/idempotency';
import { readJsonBody } from '../http/json-body';
import { annotateRequest } from '../http/request-context';
import type { Logger } from '../logger';
import { limitedAddress } from '../security/client-ip';
import { assertBudgetLeft, enforceLimit } from '../security/rate-limit';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { allowedMethods } from './route-table';

export interface PartnerRoutesOptions {
  checkouts: CheckoutService;
  funding: PartnerFunding;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  afterSale: AfterSaleService;
  manageTokens: ManageTokens;
  /** Which widget sold each eSIM. */
  esimOwners: EsimOwners;
  idempotencyTtlMs: number;
  /** Hears idempotent creates taken over from a lost holder. */
  logger: Logger;
}

/** Wrong partner secrets one client IP (an IPv6 /64) may send per minute before it is refused outright. */
const FAILED_SECRETS_PER_MINUTE = 20;

type PartnerEnv = AppEnv & { Variables: { partnerWidgets: ReadonlyMap<string, WidgetRuntime> } };

const meta = (c: Context<PartnerEnv>) => ({ requestId: c.get('requestId'), apiVersion: API_VERSION });
const checkoutId = (c: Context<PartnerEnv>) => {
  const id = c.req.param('id') ?? '';
  if (!/^chk_[A-Za-z0-9_-]{8,64}$/.test(id)) throw new ApiError('checkout_not_found');
  return id;
};
/** An eSIM id from the path (the upstream's ids are short opaque strings). */
const esimId = (c: Context<PartnerEnv>) => {
  const id = c.req.param('esimId') ?? '';
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new ApiError('esim_not_found');
  return id;
};
/** The partner routes. */
export function partnerRoutes(options: PartnerRoutesOptions): Hono<PartnerEnv> {
  const app = new Hono<PartnerEnv>();
  /**
   * The caller's widget that sold `id`, as the BFF recorded the sale: never merely one whose upstream account
   * knows the eSIM, since widgets of different partners may share an upstream key.
   */
  const widgetOfEsim = (widgets: ReadonlyMap<string, WidgetRuntime>, id: string) =>
    options.esimOwners.sellerAmong(widgets, id);

  const requirePartner: MiddlewareHandler<PartnerEnv> = async function requirePartnerSecret(c, next) {
    // A method the path does not have is `method_not_allowed`, secret or not.
    if (!allowedMethods(c.req.path).includes(c.req.method)) return await next();
    const guesses = {
      name: `partner-secret-failures:${limitedAddress(c.get('clientIp'))}`,
      limit: FAILED_SECRETS_PER_MINUTE,
      windowMs: 60_000,
    };
    // The budget is looked at before the secret is compared: an IP that spent it is refused whatever it sends,
    // so the right secret cannot be told from a wrong one by its answer.
    await assertBudgetLeft(options.store, guesses);
    const matched = widgetsForPartnerSecret(options.widgets.values(), c.req.header(PARTNER_SECRET_HEADER));
    if (matched.size === 0) {
      await enforceLimit(options.store, guesses);
      throw new ApiError('unauthorized', { params: { header: PARTNER_SECRET_HEADER } });
    }
    const widgets = new Map<string, WidgetRuntime>();
    for (const id of matched) widgets.set(id, options.widgets.get(id) as WidgetRuntime);
    if (matched.size === 1) annotateRequest({ widgetId: [...matched][0] });
    c.set('partnerWidgets', widgets);
    await next();
  };
  app.use('/v1/partner/*', requirePartner);

  app.get('/v1/partner/account', async function readPartnerAccount(c) {
    const widgets = c.get('partnerWidgets');
    const widgetId = c.req.query('widgetId');
    // A secret that opens several widgets names the one whose account it asks for.
    const widget =
      widgetId === undefined && widgets.size === 1 ? [...widgets.values()][0] : widgets.get(widgetId ?? '');
    if (widget === undefined) {
      throw new ApiError('validation_failed', {
        params: { field: 'widgetId', reason: widgetId === undefined ? 'required' : 'unknown' },
      });
    }
    const account = await options.funding.account(widget);
    return answerJson(c, { data: account, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.get('/v1/partner/checkouts/:id', async function readPartnerCheckout(c) {
    const checkout = await options.checkouts.partnerRead(c.get('partnerWidgets'), checkoutId(c));
    return answerJson(c, { data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.get('/v1/partner/checkouts/:id/installation', async function readPartnerInstallation(c) {
    const installation = await options.checkouts.partnerInstallation(c.get('partnerWidgets'), checkoutId(c));
    // The installation data is the product itself: for the partner to send the traveller, kept by no cache.
    return answerJson(c, { data: installation, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/v1/partner/checkouts/:id/confirm', async function confirmCheckout(c) {
    const id = checkoutId(c);
    const body = await readJsonBody(c, ConfirmCheckoutRequestSchema);
    const checkout = await options.checkouts.partnerConfirm(c.get('partnerWidgets'), id, body);
    return answerJson(c, { data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/v1/partner/checkouts/:id/cancel', async function cancelCheckout(c) {
    const id = checkoutId(c);
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    const checkout = await options.checkouts.partnerCancel(c.get('partnerWidgets'), id);
    return answerJson(c, { data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/v1/partner/esims/:esimId/manage-links', async function createPartnerManageLink(c) {
    const id = esimId(c);
    const body = await readJsonBody(c, CreateManageLinkRequestSchema);
    const widget = c.get('partnerWidgets').get(body.widgetId);
    if (widget === undefined)
      throw new ApiError('storefront_app_not_found', { params: { field: 'widgetId' } });
    // The eSIM must be one the caller's widgets sold, not merely one its upstream account knows.
    await widgetOfEsim(c.get('partnerWidgets'), id);
    const link = await options.afterSale.manageLinkForPartner(widget, id);
    return answerJson(c, { data: link, meta: meta(c) }, 201, { 'Cache-Control': 'no-store' });
  });

  app.post('/v1/partner/manage-links/:id/revoke', async function revokeManageLink(c) {
    const id = c.req.param('id');
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    // Only a link of one of the caller's own widgets; another partner's is answered as unknown.
    const revoked = await options.manageTokens.revoke(id, new Set(c.get('partnerWidgets').keys()));
    options.logger.info('manage link revoked', { manageLinkId: id });
    return answerJson(c, { data: revoked, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/v1/partner/esims/:esimId/manage-links/revoke-all', async function revokeAllManageLinks(c) {
    const id = esimId(c);
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    // The eSIM must be one the caller's widgets sold.
    const widget = await widgetOfEsim(c.get('partnerWidgets'), id);
    const revoked = await options.manageTokens.revokeAll(id);
    options.logger.info('manage links revoked', { widgetId: widget.config.id, esimId: id });
    return answerJson(c, { data: revoked, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.get('/v1/partner/esims/:esimId', async function readPartnerEsim(c) {
    const id = esimId(c);
    const view = await options.afterSale.partnerEsim(await widgetOfEsim(c.get('partnerWidgets'), id), id);
    return answerJson(c, { data: view, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  // Creates take the partner's own keys, scoped to its secret (never stored as such, only its digest).
  const partnerKeys: IdempotencyOptions = {
    store: options.store,
    ttlMs: options.idempotencyTtlMs,
    scope: (c) =>
      `partner:${createHash('sha256')
        .update(c.req.header(PARTNER_SECRET_HEADER) ?? '')
        .digest('base64url')}`,
    logger: options.logger,
  };
  const partnerIdempotency = idempotency(partnerKeys);

  app.post(
    '/v1/partner/esims/:esimId/action-requests',
    partnerIdempotency,
    async function createPartnerActionRequest(c) {
      const id = esimId(c);
      const body = await readJsonBody(c, CreateActionRequestSchema);
      const widget = await widgetOfEsim(c.get('partnerWidgets'), id);
      const request = await options.afterSale.requestAction(
        widget,
        id,
        body,
        c.req.header(IDEMPOTENCY_KEY_HEADER) as string,
      );
      return answerJson(c, { data: request, meta: meta(c) }, 201, { 'Cache-Control': 'no-store' });
    },
  );

  app.get('/v1/partner/action-requests/:id', async function readPartnerActionRequest(c) {
    const id = c.req.param('id');
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new ApiError('action_request_not_found');
    const request = await options.afterSale.readActionRequest(c.get('partnerWidgets'), id);
    // A request of an eSIM another partner's widget sold (a shared upstream key finds it) is not the caller's.
    await widgetOfEsim(c.get('partnerWidgets'), request.esimId).catch((error: unknown) => {
      throw error instanceof ApiError && error.code === 'esim_not_found'
        ? new ApiError('action_request_not_found', { params: { actionRequestId: id } })
        : error;
    });
    return answerJson(c, { data: request, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  /** The delivery link of this request, asked of the upstream under a key derived from the request's own. */
  const partnerDeliveryLink = async (c: Context<PartnerEnv>) => {
    const id = esimId(c);
    const body = await readJsonBody(c, CreatePartnerDeliveryLinkRequestSchema);
    const widget = await widgetOfEsim(c.get('partnerWidgets'), id);
    const link = await options.afterSale.createDeliveryLink(
      widget,
      id,
      body,
      c.req.header(IDEMPOTENCY_KEY_HEADER) as string,
    );
    await options.esimOwners.recordLink(link.id, widget.config.id);
    return link;
  };
  // The link's url is a bearer secret, never kept with the answer: a replay asks the upstream again under the
  // same key, which answers the same link.
  const createsPartnerDeliveryLink = idempotency({
    ...partnerKeys,
    secret: {
      leaveOut: ({ url: _url, ...kept }) => kept,
      // The idempotency middleware is typed for any route; this one runs behind requirePartnerSecret.
      putBack: async (c, kept) => ({
        ...kept,
        ...(await partnerDeliveryLink(c as unknown as Context<PartnerEnv>)),
      }),
    },
  });
  app.post(
    '/v1/partner/esims/:esimId/delivery-links',
    createsPartnerDeliveryLink,
    async function createPartnerDeliveryLink(c) {
      const link = await partnerDeliveryLink(c);
      // The answer carries the link's secret url (on a replay too): never cached.
      return answerJson(c, { data: link, meta: meta(c) }, 201, { 'Cache-Control': 'no-store' });
    },
  );

  app.post('/v1/partner/delivery-links/:id/revoke', async function revokePartnerDeliveryLink(c) {
    const id = c.req.param('id');
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new ApiError('delivery_link_invalid');
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    // Only a link one of the caller's widgets made; another partner's (same upstream key) reads as unknown.
    const maker = await options.esimOwners.linkMakerAmong(c.get('partnerWidgets'), id);
    const revoked = await options.afterSale.revokeDeliveryLink(new Map([[maker.config.id, maker]]), id);
    return answerJson(c, { data: revoked, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  return app;
}
