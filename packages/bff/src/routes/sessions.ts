/**
 * @module
 * `POST /v1/sessions`: a widget id and the page's Origin become a short-lived session token and the
 * widget's public config. The `origin` auth (`security/route-auth.ts`) has refused an unknown or disabled
 * widget and an origin it does not allow; a widget that cannot sell is `widget_misconfigured`.
 */
import { API_VERSION, type SessionResponse } from '@esim-embed/shared';
import { ApiError } from '../errors';
import { answerJson } from '../http/answer';
import type { SessionSigner } from '../security/session-token';
import type { RouteHandlers } from './mount-routes';
import { publicCatalogPath } from './public-catalog';

export interface SessionRoutesOptions {
  signer: SessionSigner;
}

/** The sessions route (behind the `origin` auth, which found the widget and the origin it allows). */
export function sessionHandlers(options: SessionRoutesOptions): RouteHandlers<'createSession'> {
  return {
    async createSession(c) {
      const widget = c.get('widget');
      const widgetId = widget.config.id;
      const origin = c.get('origin');
      // A widget that cannot sell as configured (scopes, environment, brand, mTLS) is stopped before anyone pays.
      if ((await widget.catalog.fitness()).problems.length > 0) {
        throw new ApiError('widget_misconfigured', { params: { widgetId } });
      }

      const config = widget.config;
      const [brand, settlement, catalogVersion] = await Promise.all([
        widget.catalog.brand(),
        widget.catalog.settlement(),
        widget.catalog.version(),
      ]);
      const { token, claims } = options.signer.issue({ widgetId, origin, environment: config.environment });
      const body: SessionResponse = {
        data: {
          token,
          expiresAt: new Date(claims.exp * 1000).toISOString(),
          widget: {
            widgetId,
            environment: config.environment,
            checkoutMode: config.checkoutMode,
            currency: settlement.currency,
            wholeRubOnly: settlement.wholeRubOnly,
            defaultLocale: config.defaultLocale,
            locales: config.locales,
            emailRequired: config.emailRequired,
            emailSender:
              config.deliveryMode === 'platform' ? 'upstream' : config.partnerSendsEmail ? 'partner' : 'none',
            brand,
          },
          catalog: { path: publicCatalogPath(widgetId, catalogVersion) },
        },
        meta: { requestId: c.get('requestId'), apiVersion: API_VERSION },
      };
      return answerJson(c, body, 201, { 'Cache-Control': 'no-store' });
    },
  };
}
