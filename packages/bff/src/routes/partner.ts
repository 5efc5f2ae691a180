/**
 * @module
 * The partner server's API: `GET /v1/partner/checkouts/{id}`, `POST …/confirm` (the partner took the
 * payment: place the order) and `POST …/cancel`. Authenticated by the widget's partner secret in
 * `X-Partner-Secret`, compared in constant time; never callable from a browser (no CORS).
 */
import { API_VERSION, ConfirmCheckoutRequestSchema, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { widgetsForPartnerSecret } from '../checkout/checkout-access';
import type { CheckoutService } from '../checkout/checkout-service';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/app-env';
import { readJsonBody } from '../http/json-body';
import { annotateRequest } from '../http/request-context';
import { enforceLimit } from '../security/rate-limit';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { allowedMethods } from './route-table';

export interface PartnerRoutesOptions {
  checkouts: CheckoutService;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
}

/** Wrong partner secrets one client IP may send per minute before it is refused outright. */
const FAILED_SECRETS_PER_MINUTE = 20;

type PartnerEnv = AppEnv & { Variables: { partnerWidgets: ReadonlyMap<string, WidgetRuntime> } };

const meta = (c: Context<PartnerEnv>) => ({ requestId: c.get('requestId'), apiVersion: API_VERSION });
const checkoutId = (c: Context<PartnerEnv>) => {
  const id = c.req.param('id') ?? '';
  if (!/^chk_[A-Za-z0-9_-]{8,64}$/.test(id)) throw new ApiError('checkout_not_found');
  return id;
};

/** The partner routes. */
export function partnerRoutes(options: PartnerRoutesOptions): Hono<PartnerEnv> {
  const app = new Hono<PartnerEnv>();

  const requirePartner: MiddlewareHandler<PartnerEnv> = async function requirePartnerSecret(c, next) {
    // A method the path does not have is `method_not_allowed`, secret or not.
    if (!allowedMethods(c.req.path).includes(c.req.method)) return await next();
    const matched = widgetsForPartnerSecret(options.widgets.values(), c.req.header(PARTNER_SECRET_HEADER));
    if (matched.size === 0) {
      // Guessing secrets costs a rate limit per client IP.
      await enforceLimit(options.store, {
        name: `partner-secret-failures:${c.get('clientIp')}`,
        limit: FAILED_SECRETS_PER_MINUTE,
        windowMs: 60_000,
      });
      throw new ApiError('unauthorized', { params: { header: PARTNER_SECRET_HEADER } });
    }
    const widgets = new Map<string, WidgetRuntime>();
    for (const id of matched) widgets.set(id, options.widgets.get(id) as WidgetRuntime);
    if (matched.size === 1) annotateRequest({ widgetId: [...matched][0] });
    c.set('partnerWidgets', widgets);
    await next();
  };
  app.use('/v1/partner/*', requirePartner);

  app.get('/v1/partner/checkouts/:id', async function readPartnerCheckout(c) {
    const checkout = await options.checkouts.partnerRead(c.get('partnerWidgets'), checkoutId(c));
    return c.json({ data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/v1/partner/checkouts/:id/confirm', async function confirmCheckout(c) {
    const id = checkoutId(c);
    const body = await readJsonBody(c, ConfirmCheckoutRequestSchema);
    const checkout = await options.checkouts.partnerConfirm(c.get('partnerWidgets'), id, body);
    return c.json({ data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/v1/partner/checkouts/:id/cancel', async function cancelCheckout(c) {
    const id = checkoutId(c);
    await readJsonBody(c, ConfirmCheckoutRequestSchema.pick({}));
    const checkout = await options.checkouts.partnerCancel(c.get('partnerWidgets'), id);
    return c.json({ data: checkout, meta: meta(c) }, 200, { 'Cache-Control': 'no-store' });
  });

  return app;
}
