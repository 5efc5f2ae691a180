/**
 * @module
 * `POST /v1/sessions`: a widget id and the page's Origin become a short-lived session token, with the widget's
 * start (public config, catalog address) for widgets that open their session first. The widget opens it at the
 * quote. The `origin` auth (`routes/route-auth.ts`) has refused an unknown or disabled widget and an origin it
 * does not allow; a widget that cannot sell is `widget_misconfigured`.
 */
import { API_VERSION } from '@esim-embed/shared';
import { answerBody } from '../http/answer';
import type { SessionSigner } from '../security/session-token';
import type { RouteHandlers } from './mount-routes';
import { envelopeJson, widgetStartJson } from './widget-start';

export interface SessionRoutesOptions {
  signer: SessionSigner;
}

/** The sessions route (behind the `origin` auth, which found the widget and the origin it allows). */
export function sessionHandlers(options: SessionRoutesOptions): RouteHandlers<'createSession'> {
  return {
    async createSession(c) {
      const widget = c.get('widget');
      const start = await widgetStartJson(widget);
      const { token, claims } = options.signer.issue({
        widgetId: widget.config.id,
        origin: c.get('origin'),
        environment: widget.config.environment,
      });
      // The session's own fields, then the start's (encoded once per catalog state): `SessionResponse`.
      const session = JSON.stringify({ token, expiresAt: new Date(claims.exp * 1000).toISOString() });
      const body = envelopeJson(`${session.slice(0, -1)},${start.slice(1)}`, {
        requestId: c.get('requestId'),
        apiVersion: API_VERSION,
      });
      return answerBody(c, body, 201, { 'Cache-Control': 'no-store', 'Content-Type': 'application/json' });
    },
  };
}
