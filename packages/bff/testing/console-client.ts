/**
 * @module
 * Test support for the partner console's API: its users added straight into a BFF's store (as the release's
 * `console-user` command adds them), and a client that signs in as a browser does — keeping the session cookie,
 * sending the CSRF token with every write — from the address it is given (an `X-Forwarded-For` behind
 * `trustedProxyHops`).
 */
import type { ConsoleRole } from '@esim-embed/shared/console';
import { CONSOLE_CSRF_HEADER } from '@esim-embed/shared/console';
import type { Bff } from '../src/bff';
import { consoleUsersOn } from '../src/console/console-feature';
import { partnerOf } from '../src/console/console-partners';
import { matchTotp, totpCode, totpStep } from '../src/console/totp';
import { type Answer, call } from './stack';

/** A console user added for a test: their name, password, and the second factor's secret (null: none). */
export interface TestConsoleUser {
  id: string;
  username: string;
  password: string;
  role: ConsoleRole;
  totpSecret: Buffer | null;
}

/** Add a user of the partner that `widgetId` belongs to into `bff`'s store. */
export async function addConsoleUser(
  bff: Bff,
  sessionSecret: Uint8Array,
  user: { username: string; role: ConsoleRole; widgetId: string; secondFactor?: boolean; password?: string },
  now: () => number = Date.now,
): Promise<TestConsoleUser> {
  const partner = partnerOf(bff.widgets, user.widgetId);
  if (partner === null) throw new Error(`no widget ${user.widgetId}`);
  const users = consoleUsersOn(bff.store, [sessionSecret], now);
  const password = user.password ?? `pw-${user.username}-correct-horse`;
  const added = await users.add(partner, {
    username: user.username,
    password,
    role: user.role,
    secondFactor: user.secondFactor ?? false,
    createdBy: 'cli',
  });
  return {
    id: added.user.id,
    username: added.user.username,
    password,
    role: user.role,
    totpSecret: users.secondFactorOf(added.user),
  };
}

/** The current code of a second factor (as an authenticator app shows it at `nowMs`). */
export const currentTotp = (secret: Buffer, nowMs: number = Date.now()): string =>
  totpCode(secret, totpStep(nowMs));
export { matchTotp };

/** A browser on the console: its cookie jar (the session cookie) and CSRF token. */
export interface ConsoleBrowser {
  /** The session cookie's value, once signed in. */
  cookie: string | null;
  csrfToken: string | null;
  /** The headers of every request (an `X-Forwarded-For` to speak from another address). */
  headers: Record<string, string>;
  signIn(username: string, password: string, totp?: string): Promise<Answer>;
  get(path: string): Promise<Answer>;
  /** A write with the CSRF token (unless `withCsrf` is false). */
  send(
    method: 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    withCsrf?: boolean,
  ): Promise<Answer>;
}

/** A console browser against the BFF at `baseUrl`. */
export function consoleBrowser(baseUrl: string, headers: Record<string, string> = {}): ConsoleBrowser {
  const browser: ConsoleBrowser = {
    cookie: null,
    csrfToken: null,
    headers,
    async signIn(username, password, totp) {
      const answer = await request('POST', '/console/api/session', {
        username,
        password,
        ...(totp === undefined ? {} : { totp }),
      });
      if (answer.status === 200) browser.csrfToken = answer.body.data.csrfToken;
      return answer;
    },
    get: (path) => request('GET', path),
    send: (method, path, body, withCsrf = true) =>
      request(method, path, body ?? {}, withCsrf ? { [CONSOLE_CSRF_HEADER]: browser.csrfToken ?? '' } : {}),
  };

  async function request(method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
    const answer = await call(baseUrl, path, {
      method,
      body,
      headers: {
        ...headers,
        ...extra,
        ...(browser.cookie === null ? {} : { Cookie: `esim_console=${browser.cookie}` }),
      },
    });
    const set = answer.headers.get('set-cookie');
    const token = set?.match(/esim_console=([^;]*)/)?.[1];
    if (token !== undefined) browser.cookie = token === '' ? null : token;
    return answer;
  }

  return browser;
}
