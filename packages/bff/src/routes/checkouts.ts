/**
 * @module
 * The widget's side of a sale: `POST /v1/quotes`, `POST /v1/checkouts`, `GET /v1/checkouts/{id}`,
 * `POST /v1/checkouts/{id}/cancel` (the traveller abandons the payment), `GET /v1/checkouts/{id}/installation`
 * (no-store) and `POST /v1/checkouts/{id}/delivery-links`. Creates are idempotent per session, their answers
 * kept no longer than the session (a checkout's: the session and a grace after it) and never with a secret in
 * them; everything about one checkout needs its client secret.
 */
import {
  CHECKOUT_SECRET_HEADER,
  CreateCheckoutRequestSchema,
  CreateDeliveryLinkRequestSchema,
  CreateQuoteRequestSchema,
  IDEMPOTENCY_KEY_HEADER,
  MANAGE_TOKEN_HEADER,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import type { CheckoutService, SessionCaller } from '../checkout/checkout-service';
import type { EsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import { answerJson, answerMeta } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import type { IdempotencyOptions } from '../http/idempotency';
import { readJsonBody } from '../http/json-body';
import type { Logger } from '../logger';
import { limitedAddress } from '../security/client-ip';
import type { KeyedDigest } from '../security/keyed-digest';
import type { Store } from '../store/store';
import type { RouteHandlers } from './mount-routes';

export interface CheckoutRoutesOptions {
  checkouts: CheckoutService;
  store: Store;
  /** Verifies the manage token of top-up quotes and checkouts. */
  afterSale: AfterSaleService;
  /** Records which widget made each delivery link. */
  esimOwners: EsimOwners;
}

const caller = (c: Context<AppEnv>): SessionCaller => ({
  claims: c.get('session'),
  widget: c.get('widget'),
  address: limitedAddress(c.get('clientIp')),
});
/** The checkout id from the path: anything that cannot be an id is simply not found. */
const checkoutId = (c: Context<AppEnv>) => {
  const id = c.req.param('id') ?? '';
  if (!/^chk_[A-Za-z0-9_-]{8,64}$/.test(id)) throw new ApiError('checkout_not_found');
  return id;
};
const idempotencyKey = (c: Context<AppEnv>) => c.req.header(IDEMPOTENCY_KEY_HEADER) as string;

/**
 * The idempotency of the widget's creates: keys scoped to the session, which alone can replay them, and its
 * answers kept no longer than it lives (but a checkout's create's, kept for a grace after it: `mount-routes.ts`).
 */
export function sessionIdempotency(options: {
  store: Store;
  idempotencyTtlMs: number;
  logger: Logger;
  /** What a create asked, as kept with its key (`IdempotencyOptions.fingerprint`). */
  fingerprint: KeyedDigest;
  /** The BFF's clock (the sessions' and the leases'). Default `Date.now`. */
  now?: (() => number) | undefined;
}): IdempotencyOptions {
  const now = options.now ?? Date.now;
  return {
    store: options.store,
    ttlMs: (c) => Math.min(options.idempotencyTtlMs, c.get('session').exp * 1000 - now()),
    scope: (c) => `session:${c.get('session').sid}`,
    fingerprint: options.fingerprint,
    logger: options.logger,
    now,
  };
}

type CheckoutRouteId =
  | 'createQuote'
  | 'createCheckout'
  | 'readCheckout'
  | 'cancelCheckout'
  | 'readInstallation'
  | 'createDeliveryLink';

/** The quote and checkout routes (behind the session auth; idempotent where the API description says so). */
export function checkoutHandlers(options: CheckoutRoutesOptions): RouteHandlers<CheckoutRouteId> {
  const { checkouts } = options;
  /** The caller, with its manage token when one is sent (a top-up). */
  const buyer = async (c: Context<AppEnv>): Promise<SessionCaller> => {
    const base = caller(c);
    const token = c.req.header(MANAGE_TOKEN_HEADER);
    if (token === undefined) return base;
    return { ...base, manage: await options.afterSale.verifyManageToken(base, token) };
  };
  const owners = options.esimOwners;

  async function createQuote(c: Context<AppEnv>) {
    const body = await readJsonBody(c, CreateQuoteRequestSchema);
    const quote = await checkouts.createQuote(await buyer(c), body, idempotencyKey(c));
    return answerJson(c, { data: quote, meta: answerMeta(c) }, 201, { 'Cache-Control': 'no-store' });
  }

  async function createCheckout(c: Context<AppEnv>) {
    const body = await readJsonBody(c, CreateCheckoutRequestSchema);
    const checkout = await checkouts.createCheckout(await buyer(c), body, c.get('idempotentResourceId'));
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 201, { 'Cache-Control': 'no-store' });
  }

  async function readCheckout(c: Context<AppEnv>) {
    const checkout = await checkouts.readCheckout(
      caller(c),
      checkoutId(c),
      c.req.header(CHECKOUT_SECRET_HEADER),
    );
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  // Idempotent by nature (a cancelled checkout stays cancelled), so no Idempotency-Key.
  async function cancelCheckout(c: Context<AppEnv>) {
    const checkout = await checkouts.cancelCheckout(
      caller(c),
      checkoutId(c),
      c.req.header(CHECKOUT_SECRET_HEADER),
    );
    return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function readInstallation(c: Context<AppEnv>) {
    const installation = await checkouts.installation(
      caller(c),
      checkoutId(c),
      c.req.header(CHECKOUT_SECRET_HEADER),
    );
    // The installation data is the product itself: no cache anywhere may keep it.
    return answerJson(c, { data: installation, meta: answerMeta(c) }, 200, {
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
    });
  }

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
  async function createDeliveryLink(c: Context<AppEnv>) {
    const link = await deliveryLink(c);
    return answerJson(c, { data: link, meta: answerMeta(c) }, 201, { 'Cache-Control': 'no-store' });
  }

  return {
    createQuote,
    // The checkout id is derived from the key, before anything happens: a retry after a lost holder resumes it,
    // and so does a retry whose records a Redis failover lost (it places its order under the same reference).
    // The client secret is never kept with the answer: it is derived from the checkout id, so a replay
    // recomputes it. The answer can be read back with the session's token for a while after the session ended
    // (and only that: `endedSessions` in session-auth.ts), so that a page reloaded late learns what it bought.
    createCheckout: {
      handle: createCheckout,
      idempotency: {
        replayAfterSession: true,
        resourceId: (createKey) => checkouts.checkoutIdFor(createKey),
        secret: {
          // Nor the traveller's email, kept as long as the answer is (a day): a replay sends it again in the body.
          leaveOut: ({ clientSecret: _secret, email: _email, ...kept }) => kept,
          putBack: async (c, kept) => ({
            ...kept,
            email: (await readJsonBody(c, CreateCheckoutRequestSchema)).email ?? null,
            clientSecret: checkouts.clientSecretOf(String(kept.id)),
          }),
        },
      },
    },
    readCheckout,
    cancelCheckout,
    readInstallation,
    // The link's URL is a bearer secret and is never kept: a replay asks the upstream again with the same key,
    // which answers the same link (the client secret and the access checks are required again, too).
    createDeliveryLink: {
      handle: createDeliveryLink,
      idempotency: {
        secret: {
          leaveOut: ({ url: _url, ...kept }) => kept,
          putBack: async (c, kept) => ({ ...kept, ...(await deliveryLink(c)) }),
        },
      },
    },
  };
}
