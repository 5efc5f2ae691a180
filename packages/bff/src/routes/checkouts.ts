/**
 * @module
 * The widget's side of a sale: `POST /v1/quotes`, `POST /v1/checkouts`, `GET /v1/checkouts/{id}`,
 * `POST /v1/checkouts/{id}/cancel` (the traveller abandons the payment), `GET /v1/checkouts/{id}/installation`
 * (no-store) and `POST /v1/checkouts/{id}/delivery-links`. Creates are idempotent per session, their answers
 * kept no longer than the session and never with a secret in them; everything about one checkout needs its
 * client secret.
 */
import {
  API_VERSION,
  CHECKOUT_SECRET_HEADER,
  CreateCheckoutRequestSchema,
  CreateDeliveryLinkRequestSchema,
  CreateQuoteRequestSchema,
  IDEMPOTENCY_KEY_HEADER,
  MANAGE_TOKEN_HEADER,
} from '@esim-embed/shared';
import { type Context, Hono } from 'hono';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import { type CheckoutService, newCheckoutId, type SessionCaller } from '../checkout/checkout-service';
import { createEsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import { answerJson } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { type IdempotencyOptions, idempotency } from '../http/idempotency';
import { readJsonBody } from '../http/json-body';
import type { Logger } from '../logger';
import type { Store } from '../store/store';

export interface CheckoutRoutesOptions {
  checkouts: CheckoutService;
  store: Store;
  idempotencyTtlMs: number;
  /** Verifies the manage token of top-up quotes and checkouts. */
  afterSale: AfterSaleService;
  /** Hears idempotent creates taken over from a lost holder. */
  logger: Logger;
}

const caller = (c: Context<AppEnv>): SessionCaller => ({ claims: c.get('session'), widget: c.get('widget') });
const meta = (c: Context<AppEnv>) => ({ requestId: c.get('requestId'), apiVersion: API_VERSION });
/** The checkout id from the path: anything that cannot be an id is simply not found. */
const checkoutId = (c: Context<AppEnv>) => {
  const id = c.req.param('id') ?? '';
  if (!/^chk_[A-Za-z0-9_-]{8,64}$/.test(id)) throw new ApiError('checkout_not_found');
  return id;
};
const idempotencyKey = (c: Context<AppEnv>) => c.req.header(IDEMPOTENCY_KEY_HEADER) as string;

/** The quote and checkout routes (behind the session middleware). */
export function checkoutRoutes(options: CheckoutRoutesOptions): Hono<AppEnv> {
  const { checkouts } = options;
  const idempotent: IdempotencyOptions = {
    store: options.store,
    // Only the session can replay its keys: its answers are kept no longer than it lives.
    ttlMs: (c) => Math.min(options.idempotencyTtlMs, c.get('session').exp * 1000 - Date.now()),
    scope: (c) => `session:${c.get('session').sid}`,
    logger: options.logger,
  };
  /** The caller, with its manage token when one is sent (a top-up). */
  const buyer = async (c: Context<AppEnv>): Promise<SessionCaller> => {
    const base = caller(c);
    const token = c.req.header(MANAGE_TOKEN_HEADER);
    if (token === undefined) return base;
    return { ...base, manage: await options.afterSale.verifyManageToken(base, token) };
  };
  const app = new Hono<AppEnv>();
  const owners = createEsimOwners(options.store);

  app.post('/v1/quotes', idempotency(idempotent), async function createQuote(c) {
    const body = await readJsonBody(c, CreateQuoteRequestSchema);
    const quote = await checkouts.createQuote(await buyer(c), body, idempotencyKey(c));
    return answerJson(c, { data: quote, meta: meta(c) }, 201, { 'Cache-Control': 'no-store' });
  });

  // The checkout id is chosen with the key, before anything happens: a retry after a lost holder resumes it.
  // The client secret is never kept with the answer: it is derived from the checkout id, so a replay recomputes it.
  const createsCheckout = idempotency({
    ...idempotent,
    resourceId: newCheckoutId,
    secret: {
      leaveOut: ({ clientSecret: _secret, ...kept }) => kept,
      putBack: async (_c, kept) => ({ ...kept, clientSecret: checkouts.clientSecretOf(String(kept.id)) }),
    },
  });
  app.post('/v1/checkouts', createsCheckout, async function createCheckout(c) {
    const body = await readJsonBody(c, CreateCheckoutRequestSchema);
    const checkout = await checkouts.createCheckout(await buyer(c), body, c.get('idempotentResourceId'));
    return answerJson(c, { data: checkout, meta: meta(c) }, 201, { 'Cache-Control': 'no-store' });
  });

  app.get('/v1/checkouts/:id', async function readCheckout(c) {
    const checkout = await checkouts.readCheckout(
      caller(c),
      checkoutId(c),
      c.req.header(CHECKOUT_SECRET_HEADER),
    );
    return answerJson(c, { data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  // Idempotent by nature (a cancelled checkout stays cancelled), so no Idempotency-Key.
  app.post('/v1/checkouts/:id/cancel', async function cancelCheckout(c) {
    const checkout = await checkouts.cancelCheckout(
      caller(c),
      checkoutId(c),
      c.req.header(CHECKOUT_SECRET_HEADER),
    );
    return answerJson(c, { data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.get('/v1/checkouts/:id/installation', async function readInstallation(c) {
    const installation = await checkouts.installation(
      caller(c),
      checkoutId(c),
      c.req.header(CHECKOUT_SECRET_HEADER),
    );
    // The installation data is the product itself: no cache anywhere may keep it.
    return answerJson(c, { data: installation, meta: meta(c) }, 200, {
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
    });
  });

  /** The delivery link of this request: asked of the upstream under a key derived from the request's own. */
  const deliveryLink = async (c: Context<AppEnv>) => {
    const link = await checkouts.createDeliveryLink(
      caller(c),
      checkoutId(c),
      c.req.header(CHECKOUT_SECRET_HEADER),
      await readJsonBody(c, CreateDeliveryLinkRequestSchema),
      idempotencyKey(c),
    );
    // The widget's partner may revoke it (and no other partner).
    await owners.recordLink(link.id, c.get('widget').config.id);
    return link;
  };
  // The link's URL is a bearer secret and is never kept: a replay asks the upstream again with the same key,
  // which answers the same link (the client secret and the access checks are required again, too).
  const createsDeliveryLink = idempotency({
    ...idempotent,
    secret: {
      leaveOut: ({ url: _url, ...kept }) => kept,
      putBack: async (c, kept) => ({ ...kept, ...(await deliveryLink(c)) }),
    },
  });
  app.post('/v1/checkouts/:id/delivery-links', createsDeliveryLink, async function createDeliveryLink(c) {
    const link = await deliveryLink(c);
    return answerJson(c, { data: link, meta: meta(c) }, 201, { 'Cache-Control': 'no-store' });
  });

  return app;
}
