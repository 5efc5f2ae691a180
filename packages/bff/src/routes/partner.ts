/**
 * @module
 * The partner server's API: `GET /v1/partner/account` (its balance, what open checkouts hold, its limits),
 * `GET /v1/partner/checkouts/{id}`, `POST …/confirm` (the partner took the payment: place the order),
 * `POST …/decline` (a payment attempt was declined: another card may follow) and `POST …/cancel`; after the sale,
 * the manage link of an eSIM it sold (and the revocation of one link of its own widgets, or of every link of the
 * eSIM), the eSIM's view, help requests (cancellation, refund, reissue) with their status, and delivery links
 * (create, revoke). Its support desk's lists are `partner-desk.ts`. Behind the partner auth
 * (`routes/route-auth.ts`): the widget's partner secret in `X-Partner-Secret`; never callable from a browser (no
 * CORS).
 */
import {
  ConfirmCheckoutRequestSchema,
  CreateActionRequestSchema,
  CreateManageLinkRequestSchema,
  CreatePartnerDeliveryLinkRequestSchema,
  DeclineCheckoutPaymentRequestSchema,
  IDEMPOTENCY_KEY_HEADER,
  PartnerAccountQuerySchema,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import type { ManageTokens } from '../after-sale/manage-token';
import type { CheckoutService } from '../checkout/checkout-service';
import type { EsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import type { PartnerFunding } from '../funding/partner-funding';
import { answerJson, answerMeta } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import type { IdempotencyOptions } from '../http/idempotency';
import { parseOrThrow, readJsonBody } from '../http/json-body';
import type { Logger } from '../logger';
import type { KeyedDigest } from '../security/keyed-digest';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { RouteHandlers } from './mount-routes';

export interface PartnerRoutesOptions {
  checkouts: CheckoutService;
  funding: PartnerFunding;
  afterSale: AfterSaleService;
  manageTokens: ManageTokens;
  /** Which widget sold each eSIM. */
  esimOwners: EsimOwners;
  /** Hears manage links revoked. */
  logger: Logger;
}

/** Whether `id` can name a checkout: anything else is answered as an unknown checkout before anything is read. */
export const isCheckoutId = (id: string) => /^chk_[A-Za-z0-9_-]{8,64}$/.test(id);
const checkoutId = (c: Context<AppEnv>) => {
  const id = c.req.param('id') ?? '';
  if (!isCheckoutId(id)) throw new ApiError('checkout_not_found');
  return id;
};
/** An eSIM id from the path (the upstream's ids are short opaque strings). */
const esimId = (c: Context<AppEnv>) => {
  const id = c.req.param('esimId') ?? '';
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new ApiError('esim_not_found');
  return id;
};
/**
 * The widget a partner call is about: the one its secret opens, or — when the secret opens several — the one
 * `?widgetId=` names (`validation_failed` otherwise).
 */
function widgetOfQuery(c: Context<AppEnv>, widgetId: string | undefined): WidgetRuntime {
  const widgets = c.get('partnerWidgets');
  const widget =
    widgetId === undefined && widgets.size === 1 ? [...widgets.values()][0] : widgets.get(widgetId ?? '');
  if (widget === undefined) {
    throw new ApiError('validation_failed', {
      params: { field: 'widgetId', reason: widgetId === undefined ? 'required' : 'unknown' },
    });
  }
  return widget;
}

/**
 * The idempotency of the partner's creates: the partner's own keys, scoped to the partner — named by the widgets its
 * secret opens (as its write budget is, `route-auth.ts`), so that the store holds nothing derived from the secret
 * (a digest of it, even keyed, would let a copy of the store test guesses or change with every rotation), and a
 * retry after the partner rotates its secret still finds its answer. Widgets of one secret are never another's.
 */
export function partnerIdempotency(options: {
  store: Store;
  idempotencyTtlMs: number;
  logger: Logger;
  /** What a create asked, as kept with its key (`IdempotencyOptions.fingerprint`). */
  fingerprint: KeyedDigest;
  /** The BFF's clock (the leases'). Default `Date.now`. */
  now?: (() => number) | undefined;
}): IdempotencyOptions {
  return {
    store: options.store,
    ttlMs: options.idempotencyTtlMs,
    now: options.now,
    scope: (c) => `partner:${[...c.get('partnerWidgets').keys()].sort().join(',')}`,
    fingerprint: options.fingerprint,
    logger: options.logger,
  };
}

type PartnerRouteId =
  | 'readPartnerAccount'
  | 'readPartnerCheckout'
  | 'readPartnerInstallation'
  | 'startPartnerPayment'
  | 'confirmPartnerCheckout'
  | 'declinePartnerCheckoutPayment'
  | 'cancelPartnerCheckout'
  | 'createPartnerManageLink'
  | 'revokeManageLink'
  | 'revokeAllManageLinks'
  | 'readPartnerEsim'
  | 'createPartnerActionRequest'
  | 'readPartnerActionRequest'
  | 'createPartnerDeliveryLink'
  | 'revokePartnerDeliveryLink';

/** The partner routes (behind the partner auth; idempotent where the API description says so). */
export function partnerHandlers(options: PartnerRoutesOptions): RouteHandlers<PartnerRouteId> {
  /**
   * The caller's widget that sold `id`, as the BFF recorded the sale: never merely one whose upstream account
   * knows the eSIM, since widgets of different partners may share an upstream key.
   */
  const widgetOfEsim = (widgets: ReadonlyMap<string, WidgetRuntime>, id: string) =>
    options.esimOwners.sellerAmong(widgets, id);

  async function readPartnerAccount(c: Context<AppEnv>) {
    // A secret that opens several widgets names the one whose account it asks for.
    const { widgetId } = parseOrThrow(PartnerAccountQuerySchema, c.req.query(), 400, 'query');
    const widget = widgetOfQuery(c, widgetId);
    const account = await options.funding.account(widget);
    return answerJson(c, { data: account, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function readPartnerCheckout(c: Context<AppEnv>) {
    const checkout = await options.checkouts.partnerRead(c.get('partnerWidgets'), checkoutId(c));
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function readPartnerInstallation(c: Context<AppEnv>) {
    const installation = await options.checkouts.partnerInstallation(c.get('partnerWidgets'), checkoutId(c));
    // The installation data is the product itself: for the partner to send the traveller, kept by no cache.
    return answerJson(c, { data: installation, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function startPartnerPayment(c: Context<AppEnv>) {
    const id = checkoutId(c);
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    const checkout = await options.checkouts.partnerPaymentStarted(c.get('partnerWidgets'), id);
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function confirmPartnerCheckout(c: Context<AppEnv>) {
    const id = checkoutId(c);
    const body = await readJsonBody(c, ConfirmCheckoutRequestSchema);
    const checkout = await options.checkouts.partnerConfirm(c.get('partnerWidgets'), id, body);
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function declinePartnerCheckoutPayment(c: Context<AppEnv>) {
    const id = checkoutId(c);
    const body = await readJsonBody(c, DeclineCheckoutPaymentRequestSchema);
    const checkout = await options.checkouts.partnerDeclinePayment(c.get('partnerWidgets'), id, body);
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function cancelPartnerCheckout(c: Context<AppEnv>) {
    const id = checkoutId(c);
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    const checkout = await options.checkouts.partnerCancel(c.get('partnerWidgets'), id);
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function createPartnerManageLink(c: Context<AppEnv>) {
    const id = esimId(c);
    const body = await readJsonBody(c, CreateManageLinkRequestSchema);
    const widget = c.get('partnerWidgets').get(body.widgetId);
    if (widget === undefined)
      throw new ApiError('storefront_app_not_found', { params: { field: 'widgetId' } });
    // The eSIM must be one the caller's widgets sold, not merely one its upstream account knows.
    await widgetOfEsim(c.get('partnerWidgets'), id);
    const link = await options.afterSale.manageLinkForPartner(widget, id);
    return answerJson(c, { data: link, meta: answerMeta(c) }, 201, { 'Cache-Control': 'no-store' });
  }

  async function revokeManageLink(c: Context<AppEnv>) {
    const id = c.req.param('id') ?? '';
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    // Only a link of one of the caller's own widgets; another partner's is answered as unknown.
    const revoked = await options.manageTokens.revoke(id, new Set(c.get('partnerWidgets').keys()));
    options.logger.info('manage link revoked', { manageLinkId: id });
    return answerJson(c, { data: revoked, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function revokeAllManageLinks(c: Context<AppEnv>) {
    const id = esimId(c);
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    // The eSIM must be one the caller's widgets sold.
    const widget = await widgetOfEsim(c.get('partnerWidgets'), id);
    const revoked = await options.manageTokens.revokeAll(id);
    options.logger.info('manage links revoked', { widgetId: widget.config.id, esimId: id });
    return answerJson(c, { data: revoked, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function readPartnerEsim(c: Context<AppEnv>) {
    const id = esimId(c);
    const view = await options.afterSale.partnerEsim(await widgetOfEsim(c.get('partnerWidgets'), id), id);
    return answerJson(c, { data: view, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function createPartnerActionRequest(c: Context<AppEnv>) {
    const id = esimId(c);
    const body = await readJsonBody(c, CreateActionRequestSchema);
    const widget = await widgetOfEsim(c.get('partnerWidgets'), id);
    const request = await options.afterSale.requestAction(
      widget,
      id,
      body,
      c.req.header(IDEMPOTENCY_KEY_HEADER) as string,
    );
    return answerJson(c, { data: request, meta: answerMeta(c) }, 201, { 'Cache-Control': 'no-store' });
  }

  async function readPartnerActionRequest(c: Context<AppEnv>) {
    const id = c.req.param('id') ?? '';
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new ApiError('action_request_not_found');
    // Only a request of an eSIM the caller's widgets sold, checked before anything is recorded or reported.
    const request = await options.afterSale.readActionRequest(c.get('partnerWidgets'), id);
    return answerJson(c, { data: request, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  /** The delivery link of this request, asked of the upstream under a key derived from the request's own. */
  const partnerDeliveryLink = async (c: Context<AppEnv>) => {
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
  async function createPartnerDeliveryLink(c: Context<AppEnv>) {
    const link = await partnerDeliveryLink(c);
    // The answer carries the link's secret url (on a replay too): never cached.
    return answerJson(c, { data: link, meta: answerMeta(c) }, 201, { 'Cache-Control': 'no-store' });
  }

  async function revokePartnerDeliveryLink(c: Context<AppEnv>) {
    const id = c.req.param('id') ?? '';
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new ApiError('delivery_link_invalid');
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    // Only a link one of the caller's widgets made; another partner's (same upstream key) reads as unknown.
    const maker = await options.esimOwners.linkMakerAmong(c.get('partnerWidgets'), id);
    const revoked = await options.afterSale.revokeDeliveryLink(new Map([[maker.config.id, maker]]), id);
    return answerJson(c, { data: revoked, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  return {
    readPartnerAccount,
    readPartnerCheckout,
    readPartnerInstallation,
    startPartnerPayment,
    confirmPartnerCheckout,
    declinePartnerCheckoutPayment,
    cancelPartnerCheckout,
    createPartnerManageLink,
    revokeManageLink,
    revokeAllManageLinks,
    readPartnerEsim,
    createPartnerActionRequest,
    readPartnerActionRequest,
    // The link's url is a bearer secret, never kept with the answer: a replay asks the upstream again under the
    // same key, which answers the same link.
    createPartnerDeliveryLink: {
      handle: createPartnerDeliveryLink,
      idempotency: {
        secret: {
          leaveOut: ({ url: _url, ...kept }) => kept,
          putBack: async (c, kept) => ({ ...kept, ...(await partnerDeliveryLink(c)) }),
        },
      },
    },
    revokePartnerDeliveryLink,
  };
}
