/**
 * @module
 * The traveller's after-sale routes (behind the session auth): `POST /v1/checkouts/{id}/manage-link`
 * (client secret), `GET /v1/my-esim` and `GET /v1/my-esim/installation` (manage token, no-store).
 */
import { CHECKOUT_SECRET_HEADER, EsimViewQuerySchema } from '@esim-embed/shared';
import type { Context } from 'hono';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import type { SessionCaller } from '../checkout/checkout-service';
import { ApiError } from '../errors';
import { answerJson, answerMeta } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import type { RouteHandlers } from './mount-routes';

export interface AfterSaleRoutesOptions {
  afterSale: AfterSaleService;
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** The caller with the manage token the `session+manage` auth verified. */
const managingCaller = (c: Context<AppEnv>): SessionCaller => ({
  claims: c.get('session'),
  widget: c.get('widget'),
  manage: c.get('manage'),
});

/** The widget's after-sale routes. */
export function afterSaleHandlers(
  options: AfterSaleRoutesOptions,
): RouteHandlers<'createManageLink' | 'readMyEsim' | 'readMyInstallation'> {
  const { afterSale } = options;
  return {
    async createManageLink(c) {
      const id = c.req.param('id') ?? '';
      if (!/^chk_[A-Za-z0-9_-]{8,64}$/.test(id)) throw new ApiError('checkout_not_found');
      const link = await afterSale.manageLinkForCheckout(
        { claims: c.get('session'), widget: c.get('widget') },
        id,
        c.req.header(CHECKOUT_SECRET_HEADER),
      );
      return answerJson(c, { data: link, meta: answerMeta(c) }, 201, NO_STORE);
    },

    async readMyEsim(c) {
      const query = EsimViewQuerySchema.safeParse(c.req.query());
      if (!query.success) {
        throw new ApiError('validation_failed', { params: { field: 'locale', reason: 'invalid' } });
      }
      const view = await afterSale.myEsim(managingCaller(c), query.data.locale);
      return answerJson(c, { data: view, meta: answerMeta(c) }, 200, NO_STORE);
    },

    async readMyInstallation(c) {
      const installation = await afterSale.myInstallation(managingCaller(c));
      // The installation data is the product itself: no cache anywhere may keep it.
      return answerJson(c, { data: installation, meta: answerMeta(c) }, 200, NO_STORE);
    },
  };
}
