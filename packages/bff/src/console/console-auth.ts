/**
 * @module
 * What stands in front of every console route: the session cookie read (or a single sign-on proxy's header
 * turned into a session), its user still enabled and not changed since, the route's least role, and — on every
 * write — the session's CSRF token in `X-CSRF-Token`. The cookie is `HttpOnly; Secure; SameSite=Strict` on
 * `/console`: no script reads it, no other site's page sends it, and the CSRF token stops what SameSite would not
 * (a sibling subdomain, an old browser).
 */
import {
  CONSOLE_CSRF_HEADER,
  CONSOLE_SESSION_COOKIE,
  type ConsoleRole,
  roleAllows,
} from '@esim-embed/shared/console';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { constantTimeEqual } from '../checkout/checkout-access';
import { ApiError } from '../errors';
import { addAnswerHeaders } from '../http/answer';
import type { AppVariables } from '../http/app-env';
import { socketAddress } from '../security/client-ip';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { ConsolePartner } from './console-partners';
import { partnerOf } from './console-partners';
import type { ConsoleSessions, OpenSession } from './console-sessions';
import type { ConsoleSignIn } from './console-sign-in';
import type { ConsoleUsers, StoredConsoleUser } from './console-users';

/** Who is calling a console route, as the auth found them. */
export interface ConsoleCaller {
  user: StoredConsoleUser;
  partner: ConsolePartner;
  session: OpenSession;
}

/** The console's Hono environment: the BFF's, with the caller. */
export interface ConsoleEnv {
  Variables: AppVariables & { consoleCaller: ConsoleCaller };
}

/** The session cookie as set at sign-in: for the console's paths only, never to scripts or other sites. */
export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${CONSOLE_SESSION_COOKIE}=${token}; Path=/console; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; HttpOnly; Secure; SameSite=Strict`;
}

const signedOut = () => new ApiError('unauthorized', { params: { reason: 'session' } });

export interface ConsoleAuthOptions {
  users: ConsoleUsers;
  sessions: ConsoleSessions;
  signIn: ConsoleSignIn;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  now: () => number;
}

/** The middleware of a route that needs at least `role`. */
export function consoleAuth(options: ConsoleAuthOptions, role: ConsoleRole): MiddlewareHandler<ConsoleEnv> {
  async function sessionCaller(c: Context<ConsoleEnv>): Promise<ConsoleCaller | null> {
    const token = getCookie(c, CONSOLE_SESSION_COOKIE);
    if (token === undefined) return null;
    const session = await options.sessions.use(token);
    if (session === null) return null;
    const user = await options.users.read(session.userId);
    // Disabled, or changed (a role taken away) since this session began: it is over.
    if (user === null || user.disabled || user.sessionsNotBefore > session.startedAt) return null;
    const partner = partnerOf(options.widgets, user.partnerId);
    return partner === null ? null : { user, partner, session };
  }

  return async function requireConsoleRole(c, next) {
    let caller = await sessionCaller(c);
    if (caller === null) {
      const signedIn = await options.signIn.withProxy((name) => c.req.header(name), socketAddress(c));
      if (signedIn !== null) {
        // On the answer whatever the route writes (`http/answer.ts` adds them to every answer of the request).
        addAnswerHeaders(c, {
          'Set-Cookie': sessionCookie(signedIn.token, (signedIn.session.endsAt - options.now()) / 1000),
        });
        caller = signedIn;
      }
    }
    if (caller === null) throw signedOut();
    if (!roleAllows(caller.user.role, role)) {
      throw new ApiError('forbidden', { params: { reason: 'role', needed: role } });
    }
    // A write shows it comes from the console's own page: only that page could read the session's token.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const presented = c.req.header(CONSOLE_CSRF_HEADER) ?? '';
      if (!constantTimeEqual(presented, caller.session.csrfToken)) {
        throw new ApiError('forbidden', { params: { reason: 'csrf_token', header: CONSOLE_CSRF_HEADER } });
      }
    }
    c.set('consoleCaller', caller);
    await next();
  };
}
