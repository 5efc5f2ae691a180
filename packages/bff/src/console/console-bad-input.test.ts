/**
 * Every console route, described once in `CONSOLE_ROUTES`, answers bad input in the error envelope and never with
 * a 500: malformed JSON, a body of the wrong shape, an unknown field, absurd query values and path parameters —
 * sent by an admin with a valid session and CSRF token, so that every check past the auth is reached. And every
 * route but the sign-in refuses a request without a session (401), whatever it carries.
 */
import { ApiErrorEnvelopeSchema } from '@esim-embed/shared';
import { CONSOLE_API_PREFIX, CONSOLE_CSRF_HEADER, CONSOLE_ROUTES } from '@esim-embed/shared/console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addConsoleUser, type ConsoleBrowser, consoleBrowser } from '../../testing/console-client';
import { call, type Stack, startStack, testConfig } from '../../testing/stack';

let stack: Stack;
let admin: ConsoleBrowser;

beforeAll(async () => {
  stack = await startStack({ config: (url) => ({ ...testConfig(url), console: { enabled: true } }) });
  const user = await addConsoleUser(stack.bff, stack.sessionSecret, {
    username: 'fuzz@shop.example',
    role: 'admin',
    widgetId: 'shop',
  });
  admin = consoleBrowser(stack.server.url);
  expect((await admin.signIn(user.username, user.password)).status).toBe(200);
});
afterAll(async () => {
  await stack?.close();
});

/** Path parameters that are no id of anything. */
const STRANGE_PARAMS = ['x', 'chk_%00', '..%2F..%2Fetc', 'a'.repeat(300), 'usr_nobody', '%E2%80%AE'];
const STRANGE_BODIES = ['{', '[]', 'null', '"text"', '{"unknown":1}', '{"since":"yesterday","widgetId":7}'];
const STRANGE_QUERIES = [
  'limit=-1',
  'limit=abc',
  'cursor=%00',
  'from=tomorrow',
  'widgetId=nope',
  'status=lost',
  'q=',
];

const fill = (path: string, value: string) => path.replace(/\{\w+\}/g, value);

describe('console routes and bad input', () => {
  it('answers every strange request in the error envelope, never a 500', async () => {
    for (const route of CONSOLE_ROUTES) {
      if (route.id === 'signOut') continue;
      for (const param of route.path.includes('{') ? STRANGE_PARAMS : ['']) {
        const path = CONSOLE_API_PREFIX + fill(route.path, param);
        const attempts =
          route.method === 'GET'
            ? STRANGE_QUERIES.map((query) => ({ path: `${path}?${query}`, body: undefined }))
            : STRANGE_BODIES.map((body) => ({ path, body }));
        for (const attempt of attempts) {
          const answer = await call(stack.server.url, attempt.path, {
            method: route.method,
            rawBody: attempt.body,
            headers: {
              Cookie: `esim_console=${admin.cookie}`,
              [CONSOLE_CSRF_HEADER]: admin.csrfToken ?? '',
              ...(attempt.body === undefined ? {} : { 'Content-Type': 'application/json' }),
            },
          });
          const named = `${route.method} ${attempt.path} ${attempt.body ?? ''}`;
          expect(answer.status, `${named}: ${answer.text}`).toBeLessThan(500);
          // Past the auth, to the route itself: the admin's session and token open every route, so a refusal
          // here is the route's answer to the input (a lost session would make every answer a pass).
          expect([401, 403], `${named}: ${answer.text}`).not.toContain(answer.status);
          // A route without a path parameter is there: it answers the request, not "no such path".
          if (param === '') expect(answer.body?.error?.code, named).not.toBe('not_found');
          if (answer.status >= 400)
            expect(ApiErrorEnvelopeSchema.safeParse(answer.body).success, named).toBe(true);
        }
      }
    }
  }, 120_000);

  it('refuses every route but the sign-in without a session', async () => {
    for (const route of CONSOLE_ROUTES) {
      const path = CONSOLE_API_PREFIX + fill(route.path, 'chk_abcdefgh12');
      const answer = await call(stack.server.url, path, {
        method: route.method,
        ...(route.method === 'GET' ? {} : { body: {} }),
        headers: { Cookie: 'esim_console=forged-token-that-is-no-session-at-all-xx' },
      });
      if (route.role === 'signedOut') expect(answer.status).toBe(422);
      else {
        expect(answer.status, path).toBe(401);
        expect(answer.body.error.params.reason).toBe('session');
      }
    }
  });
});
