/**
 * @module
 * `POST /v1/sessions`: a widget id and the page's Origin become a short-lived session token and the
 * widget's public config. Unknown widget → `storefront_app_not_found`, disabled → `storefront_app_disabled`,
 * an origin the widget does not allow → `widget_origin_forbidden`.
 */
import { API_VERSION, CreateSessionRequestSchema, type SessionResponse } from '@esim-embed/shared';
import { Hono } from 'hono';
import { ApiError } from '../errors';
import { answerJson } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { readJsonBody } from '../http/json-body';
import { annotateRequest } from '../http/request-context';
import { limitedAddress } from '../security/client-ip';
import { enforceLimit } from '../security/rate-limit';
import type { SessionSigner } from '../security/session-token';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { publicCatalogPath } from './public-catalog';

export interface SessionRoutesOptions {
  widgets: ReadonlyMap<string, WidgetRuntime>;
  signer: SessionSigner;
  store: Store;
}

/** The sessions route. */
export function sessionRoutes(options: SessionRoutesOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/v1/sessions', async function createSession(c) {
    const { widgetId } = await readJsonBody(c, CreateSessionRequestSchema);
    const widget = options.widgets.get(widgetId);
    if (widget === undefined) throw new ApiError('storefront_app_not_found', { params: { widgetId } });
    annotateRequest({ widgetId });
    await enforceLimit(options.store, {
      name: `sessions:${widgetId}:${limitedAddress(c.get('clientIp'))}`,
      limit: widget.config.limits.sessionsPerIpPerMinute,
      windowMs: 60_000,
    });
    if (!widget.config.enabled) throw new ApiError('storefront_app_disabled', { params: { widgetId } });
    const origin = widget.originPolicy.allow(c.req.header('Origin'));
    if (origin === null) throw new ApiError('widget_origin_forbidden', { params: { widgetId } });
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
  });

  return app;
}
