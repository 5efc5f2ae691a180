/**
 * Signing in to the console, over HTTP against the real BFF and sandbox: the cookie's flags, the session's
 * widgets and CSRF token, refusals that never say which part was wrong, the second factor (a code spent once),
 * the lockout of a name from one address that leaves its owner elsewhere alone, a second factor locked after ten
 * wrong codes from any addresses, a new session at every sign-in that ends the one sent, the idle timeout and the
 * absolute lifetime on the BFF's clock, a write without the CSRF token refused, the single sign-on header believed only from
 * the proxy, a disabled user's session over at once, and the audit log of it all with no secret in it.
 */
import { randomBytes } from 'node:crypto';
import { ConsoleSessionSchema } from '@esim-embed/shared/console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addConsoleUser,
  consoleBrowser,
  currentTotp,
  type TestConsoleUser,
} from '../../testing/console-client';
import { type Stack, startStack, type TestClock, testClock, testConfig } from '../../testing/stack';

const SSO_SECRET = `sso-${randomBytes(24).toString('hex')}`;
let stack: Stack;
let clock: TestClock;
let support: TestConsoleUser;
let admin: TestConsoleUser;
let rubViewer: TestConsoleUser;
const url = () => stack.server.url;

beforeAll(async () => {
  clock = testClock();
  stack = await startStack({
    env: { TEST_CONSOLE_SSO_SECRET: SSO_SECRET },
    config: (sandboxUrl) => ({
      ...testConfig(sandboxUrl),
      // One proxy in front: each test speaks from the address its X-Forwarded-For names.
      trustedProxyHops: 1,
      console: {
        enabled: true,
        sso: { partner: 'shop', secretEnv: 'TEST_CONSOLE_SSO_SECRET', signUpRole: 'viewer' },
      },
    }),
    bffOptions: { now: clock.now },
  });
  support = await addConsoleUser(stack.bff, stack.sessionSecret, {
    username: 'sam@shop.example',
    role: 'support',
    widgetId: 'shop',
  });
  admin = await addConsoleUser(stack.bff, stack.sessionSecret, {
    username: 'ada@shop.example',
    role: 'admin',
    widgetId: 'shop',
    secondFactor: true,
  });
  rubViewer = await addConsoleUser(stack.bff, stack.sessionSecret, {
    username: 'vera@rub.example',
    role: 'viewer',
    widgetId: 'shop-rub',
  });
});

afterAll(async () => {
  await stack?.close();
});

const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('console sign-in', () => {
  it('opens a session in an HttpOnly, Secure, SameSite=Strict cookie on /console, with the partner’s widgets', async () => {
    const browser = consoleBrowser(url(), from('198.51.100.1'));
    const answer = await browser.signIn('Sam@Shop.example', support.password);
    expect(answer.status).toBe(200);
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^esim_console=[A-Za-z0-9_-]{43};/);
    for (const flag of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/console'])
      expect(cookie).toContain(flag);
    const session = ConsoleSessionSchema.parse(answer.body.data);
    expect(session.user).toMatchObject({ username: 'sam@shop.example', role: 'support', via: 'password' });
    expect(session.widgets.map((widget) => widget.id).sort()).toEqual(['shop', 'shop-pay']);
    const read = await browser.get('/console/api/session');
    expect(read.status).toBe(200);
    expect(read.body.data.csrfToken).toBe(session.csrfToken);
    // Partner B's user sees partner B's widget alone.
    const rub = consoleBrowser(url(), from('198.51.100.1'));
    expect((await rub.signIn(rubViewer.username, rubViewer.password)).body.data.widgets).toEqual([
      { id: 'shop-rub', displayName: 'Тест', environment: 'test' },
    ]);
  });

  it('answers a wrong password and an unknown name alike, and a missing session as signed out', async () => {
    const browser = consoleBrowser(url(), from('198.51.100.2'));
    const wrong = await browser.signIn(support.username, 'not the password');
    const unknown = await browser.signIn('nobody@shop.example', 'not the password');
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.body.error).toEqual({ code: 'unauthorized', params: { reason: 'credentials' } });
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
    const signedOut = await browser.get('/console/api/session');
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.error.params.reason).toBe('session');
    const bad = await browser.send('POST', '/console/api/session', { username: '', password: 'x' }, false);
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
  });

  it('asks a user with a second factor for the code, and takes each code once', async () => {
    const browser = consoleBrowser(url(), from('198.51.100.3'));
    const noCode = await browser.signIn(admin.username, admin.password);
    expect(noCode.status).toBe(401);
    expect(noCode.body.error.params.reason).toBe('second_factor');
    const code = currentTotp(admin.totpSecret as Buffer, clock.now());
    const wrongCode = await browser.signIn(
      admin.username,
      admin.password,
      code === '123456' ? '654321' : '123456',
    );
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body.error.params.reason).toBe('credentials');
    const signedIn = await browser.signIn(admin.username, admin.password, code);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user).toMatchObject({ role: 'admin', secondFactor: true });
    const replayed = await consoleBrowser(url(), from('198.51.100.3')).signIn(
      admin.username,
      admin.password,
      code,
    );
    expect(replayed.status).toBe(401);
  });

  it('locks a second factor after ten wrong codes, from whatever addresses they came', async () => {
    const owner = await addConsoleUser(stack.bff, stack.sessionSecret, {
      username: 'otto@shop.example',
      role: 'support',
      widgetId: 'shop',
      secondFactor: true,
    });
    const code = currentTotp(owner.totpSecret as Buffer, clock.now());
    const wrong = code === '123456' ? '654321' : '123456';
    const signInFrom = (address: string, password: string, totp: string) =>
      consoleBrowser(url(), from(address)).signIn(owner.username, password, totp);
    // Without the password the count cannot be aimed: a stranger's wrong codes count nothing against it.
    for (let n = 0; n < 12; n += 1) {
      expect((await signInFrom(`192.0.2.${50 + n}`, 'not the password', wrong)).status).toBe(401);
    }
    expect((await signInFrom('192.0.2.99', owner.password, code)).status).toBe(200);
    // One wrong code from each of ten addresses: no address, and no name from an address, reaches its limit.
    for (let n = 0; n < 10; n += 1) {
      expect((await signInFrom(`192.0.2.${100 + n}`, owner.password, wrong)).status).toBe(401);
    }
    const locked = await signInFrom('192.0.2.200', owner.password, wrong);
    expect(locked.status, locked.text).toBe(429);
    expect(locked.body.error.code).toBe('rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('ends the session a browser came with when it signs in again (no session carried across a sign-in)', async () => {
    const browser = consoleBrowser(url(), from('198.51.100.7'));
    expect((await browser.signIn(support.username, support.password)).status).toBe(200);
    const planted = browser.cookie;
    expect((await browser.signIn(support.username, support.password)).status).toBe(200);
    expect(browser.cookie).not.toBe(planted);
    const old = consoleBrowser(url(), from('198.51.100.7'));
    old.cookie = planted;
    expect((await old.get('/console/api/session')).status).toBe(401);
    expect((await browser.get('/console/api/session')).status).toBe(200);
  });

  it('locks a name out from the address that failed, never from another', async () => {
    const guesser = consoleBrowser(url(), from('203.0.113.66'));
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await guesser.signIn(support.username, `guess-${attempt}`)).status).toBe(401);
    }
    const locked = await guesser.signIn(support.username, support.password);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, elsewhere, signs in as ever.
    const owner = consoleBrowser(url(), from('198.51.100.4'));
    expect((await owner.signIn(support.username, support.password)).status).toBe(200);
  });

  it('ends a session after the idle timeout and after its lifetime, on the BFF’s clock', async () => {
    const idle = consoleBrowser(url(), from('198.51.100.5'));
    expect((await idle.signIn(support.username, support.password)).status).toBe(200);
    clock.advance(29 * 60_000);
    expect((await idle.get('/console/api/session')).status).toBe(200);
    clock.advance(31 * 60_000);
    expect((await idle.get('/console/api/session')).status).toBe(401);

    const busy = consoleBrowser(url(), from('198.51.100.5'));
    expect((await busy.signIn(support.username, support.password)).status).toBe(200);
    // Used every 20 minutes, it lasts its 12 hours and no longer.
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      clock.advance(20 * 60_000);
      expect((await busy.get('/console/api/session')).status).toBe(200);
    }
    clock.advance(20 * 60_000);
    expect((await busy.get('/console/api/session')).status).toBe(401);
  });

  it('refuses a write without the session’s CSRF token', async () => {
    const browser = consoleBrowser(url(), from('198.51.100.6'));
    expect((await browser.signIn(support.username, support.password)).status).toBe(200);
    const without = await browser.send('DELETE', '/console/api/session', undefined, false);
    expect(without.status).toBe(403);
    expect(without.body.error).toEqual({
      code: 'forbidden',
      params: { reason: 'csrf_token', header: 'X-CSRF-Token' },
    });
    browser.csrfToken = 'x'.repeat(32);
    expect((await browser.send('DELETE', '/console/api/session')).status).toBe(403);
    expect((await browser.get('/console/api/session')).status).toBe(200);
    browser.csrfToken = (await browser.get('/console/api/session')).body.data.csrfToken;
    const signedOut = await browser.send('DELETE', '/console/api/session');
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await browser.get('/console/api/session')).status).toBe(401);
  });

  it('believes the single sign-on header only with the proxy’s secret, and only for its partner', async () => {
    const forged = consoleBrowser(url(), { ...from('198.51.100.7'), 'X-WEBAUTH-USER': 'sam@shop.example' });
    expect((await forged.get('/console/api/session')).status).toBe(401);
    const wrongSecret = consoleBrowser(url(), {
      ...from('198.51.100.7'),
      'X-WEBAUTH-USER': 'sam@shop.example',
      'X-Console-Proxy-Secret': `${SSO_SECRET}x`,
    });
    expect((await wrongSecret.get('/console/api/session')).status).toBe(401);
    const proxied = consoleBrowser(url(), {
      ...from('198.51.100.7'),
      'X-WEBAUTH-USER': 'sam@shop.example',
      'X-Console-Proxy-Secret': SSO_SECRET,
    });
    const session = await proxied.get('/console/api/session');
    expect(session.status).toBe(200);
    // The proxy's sign-in opens a session like a password's: its cookie is set on the answer.
    expect(session.headers.get('set-cookie')).toMatch(/^esim_console=[A-Za-z0-9_-]{43};.*HttpOnly/);
    expect(session.body.data.user).toMatchObject({
      username: 'sam@shop.example',
      role: 'support',
      via: 'sso',
    });
    // A first sign-on makes a viewer of the proxy's partner; another partner's user is never signed in through it.
    const newcomer = consoleBrowser(url(), {
      'X-WEBAUTH-USER': 'new@shop.example',
      'X-Console-Proxy-Secret': SSO_SECRET,
    });
    expect((await newcomer.get('/console/api/session')).body.data.user).toMatchObject({
      role: 'viewer',
      via: 'sso',
    });
    const otherPartner = consoleBrowser(url(), {
      'X-WEBAUTH-USER': rubViewer.username,
      'X-Console-Proxy-Secret': SSO_SECRET,
    });
    expect((await otherPartner.get('/console/api/session')).status).toBe(401);
  });

  it('ends a disabled user’s sessions at once, and logs every sign-in and change without a secret', async () => {
    const adminBrowser = consoleBrowser(url(), from('198.51.100.8'));
    clock.advance(60_000);
    const code = currentTotp(admin.totpSecret as Buffer, clock.now());
    expect((await adminBrowser.signIn(admin.username, admin.password, code)).status).toBe(200);
    const victim = await addConsoleUser(stack.bff, stack.sessionSecret, {
      username: 'leaver@shop.example',
      role: 'viewer',
      widgetId: 'shop-pay',
    });
    const leaver = consoleBrowser(url(), from('198.51.100.8'));
    expect((await leaver.signIn(victim.username, victim.password)).status).toBe(200);
    const disabled = await adminBrowser.send('PATCH', `/console/api/users/${victim.id}`, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ id: victim.id, disabled: true });
    expect((await leaver.get('/console/api/session')).status).toBe(401);
    expect((await leaver.signIn(victim.username, victim.password)).status).toBe(401);
    // Another partner's user is not the admin's to change.
    expect(
      (await adminBrowser.send('PATCH', `/console/api/users/${rubViewer.id}`, { role: 'admin' })).status,
    ).toBe(404);

    const audit = await adminBrowser.get('/console/api/audit?limit=100');
    expect(audit.status).toBe(200);
    const actions = (audit.body.data as { action: string }[]).map((entry) => entry.action);
    for (const action of ['sign_in', 'sign_in_refused', 'sign_out', 'user_changed'])
      expect(actions).toContain(action);
    expect(audit.text).not.toContain(support.password);
    expect(audit.text).not.toContain(victim.password);
    expect(audit.text).not.toContain(SSO_SECRET);
    // Partner B's log holds none of partner A's.
    expect(audit.text).not.toContain(rubViewer.username);
    // Only an admin reads it.
    const supportBrowser = consoleBrowser(url(), from('198.51.100.9'));
    await supportBrowser.signIn(support.username, support.password);
    const refused = await supportBrowser.get('/console/api/audit');
    expect(refused.status).toBe(403);
    expect(refused.body.error.params).toEqual({ reason: 'role', needed: 'admin' });
  });
});
