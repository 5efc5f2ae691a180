/**
 * @module
 * `POST /v1/sessions`: a widget id and the page's Origin become a short-lived session token, with the widget's
 * start (public config, catalog address) for widgets that open their session first. The widget opens it at the
 * quote; the answer says until when its token may still read back its checkout's create after it ended. The
 * `origin` auth (`routes/route-auth.ts`) has refused an unknown or disabled widget and an origin it does not
 * allow; a widget that cannot sell is `widget_misconfigured`.
 */
import type { SessionResponse } from '@esim-embed/shared';
import { answerJson, answerMeta, encodedOnce } from '../http/answer';
import type { SessionSigner } from '../security/session-token';
import type { RouteHandlers } from './mount-routes';
import type { WidgetStarts } from './widget-start';

export interface SessionRoutesOptions {
  signer: SessionSigner;
  /** The app's widget starts (shared with `GET /v1/widgets/{widgetId}/start`). */
  starts: WidgetStarts;
  /** How long after it ends a session may read back its checkout's create (`endedSessions` of session-auth.ts). */
  replayGraceMs: number;
}

/** The sessions route (behind the `origin` auth, which found the widget and the origin it allows). */
export function sessionHandlers(options: SessionRoutesOptions): RouteHandlers<'createSession'> {
  return {
    async createSession(c) {
      const widget = c.get('widget');
      const start = await options.starts.start(widget);
      const { token, claims } = options.signer.issue({
        widgetId: widget.config.id,
        origin: c.get('origin'),
        environment: widget.config.environment,
      });
      const meta: SessionResponse['meta'] = answerMeta(c);
      // The session's own fields, then the start's (each encoded once per catalog state).
      const data = {
        token,
        expiresAt: new Date(claims.exp * 1000).toISOString(),
        replayUntil: new Date(claims.exp * 1000 + options.replayGraceMs).toISOString(),
        widget: encodedOnce(c, start.widget),
        catalog: encodedOnce(c, start.catalog),
      };
      return answerJson(c, { data, meta }, 201, { 'Cache-Control': 'no-store' });
    },
  };
}
