/**
 * @module
 * The console's session routes: sign in (`POST /console/api/session`: sets a new cookie, ends the one sent), read
 * the session (`GET`: the user, the partner's widgets and the CSRF token), sign out (`DELETE`: the session ends,
 * the cookie is cleared).
 */
import {
  CONSOLE_SESSION_COOKIE,
  type ConsoleSession,
  ConsoleSignInRequestSchema,
} from '@esim-embed/shared/console';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { answerJson } from '../http/answer';
import { readJsonBody } from '../http/json-body';
import type { ConsoleAudit } from './console-audit';
import { type ConsoleCaller, type ConsoleEnv, sessionCookie } from './console-auth';
import { consoleWidgets } from './console-partners';
import { type ConsoleHandlers, consoleMeta, NO_STORE } from './console-route-table';
import type { ConsoleSessions } from './console-sessions';
import type { ConsoleSignIn } from './console-sign-in';

export interface ConsoleSessionRoutesOptions {
  signIn: ConsoleSignIn;
  sessions: ConsoleSessions;
  audit: ConsoleAudit;
  now: () => number;
}

/** The session as the console page reads it. */
export const sessionView = ({ user, partner, session }: ConsoleCaller): ConsoleSession => ({
  user: {
    id: user.id,
    username: user.username,
    role: user.role,
    secondFactor: user.secondFactor !== null,
    via: session.via,
  },
  partnerId: partner.id,
  widgets: consoleWidgets(partner),
  csrfToken: session.csrfToken,
  idleExpiresAt: new Date(session.idleEndsAt).toISOString(),
  expiresAt: new Date(session.endsAt).toISOString(),
});

/** The session routes. */
export function consoleSessionHandlers(
  options: ConsoleSessionRoutesOptions,
): ConsoleHandlers<'signIn' | 'readSession' | 'signOut'> {
  async function signIn(c: Context<ConsoleEnv>) {
    const request = await readJsonBody(c, ConsoleSignInRequestSchema);
    const signedIn = await options.signIn.withPassword(request, c.get('countedAddress'));
    // A sign-in always starts a new session and ends the one the browser came with: a session planted in the
    // browser beforehand (or the last user's, on a shared computer) is never carried across it.
    const earlier = getCookie(c, CONSOLE_SESSION_COOKIE);
    if (earlier !== undefined) await options.sessions.end(earlier);
    return answerJson(c, { data: sessionView(signedIn), meta: consoleMeta(c) }, 200, {
      ...NO_STORE,
      'Set-Cookie': sessionCookie(signedIn.token, (signedIn.session.endsAt - options.now()) / 1000),
    });
  }

  async function readSession(c: Context<ConsoleEnv>) {
    return answerJson(c, { data: sessionView(c.get('consoleCaller')), meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function signOut(c: Context<ConsoleEnv>) {
    await options.sessions.end(getCookie(c, CONSOLE_SESSION_COOKIE) ?? '');
    await options.audit.recordBy(c.get('consoleCaller'), 'sign_out');
    return answerJson(c, { data: { signedOut: true }, meta: consoleMeta(c) }, 200, {
      ...NO_STORE,
      'Set-Cookie': sessionCookie('', 0),
    });
  }

  return { signIn, readSession, signOut };
}
