/**
 * The partner API's budgets, over HTTP against the real sandbox, every call from one address (no proxy is
 * trusted: a shared NAT, or every caller behind a proxy the config does not count): wrong partner secrets are
 * refused within their own budget and never lock the right secret out; a partner's writes — every POST route
 * of the partner API, taken from the API's description — have a budget of their own, its reads none.
 */
import { randomBytes } from 'node:crypto';
import { API_ROUTES, fillPath, PARTNER_SECRET_HEADER, type RouteSpec } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  newKey,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testClock,
  testConfig,
} from '../../testing/stack';
import { createMemoryStore } from '../store/memory-store';

/** The partner API's writes, as the API's description lists them. */
const PARTNER_WRITES: readonly RouteSpec[] = API_ROUTES.filter(
  (route) => route.auth === 'partner' && route.method === 'POST',
);
/** A partner of its own (its widget `busy-pay`), whose writes per minute are as many as there are write routes. */
const BUSY_SECRET = `busy-partner-secret-${randomBytes(16).toString('hex')}`;

const store = createMemoryStore();
const clock = testClock();
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    store,
    bffOptions: { now: clock.now },
    env: { BUSY_PARTNER_SECRET: BUSY_SECRET },
    config: (url) => {
      const config = testConfig(url);
      const shopPay = config.widgets.find((widget) => widget.id === 'shop-pay');
      if (shopPay === undefined) throw new Error('the test config lost shop-pay');
      const busy = {
        ...shopPay,
        id: 'busy-pay',
        partnerSecretEnv: 'BUSY_PARTNER_SECRET',
        limits: { partnerWritesPerMinute: PARTNER_WRITES.length },
      };
      return { ...config, widgets: [...config.widgets, busy] };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

/** The partner's account read with `secret`. */
const readAccount = (secret: string) =>
  call(stack.server.url, '/v1/partner/account?widgetId=shop', {
    headers: { [PARTNER_SECRET_HEADER]: secret },
  });

describe('wrong partner secrets', () => {
  it('never lock the right secret out: each wrong one spends a budget of its own', async () => {
    const wrong = `wrong-secret-${randomBytes(16).toString('hex')}`;
    const answers = [];
    for (let index = 0; index < 24; index += 1) answers.push(await readAccount(wrong));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(20).fill(401), ...Array(4).fill(429)]);
    const refused = answers.at(-1);
    expect(refused?.body.error.code).toBe('rate_limited');
    expect(Number(refused?.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.headers.get('Retry-After'))).toBeLessThanOrEqual(60);

    // From the very same address, within the same minute: the right secret is answered.
    const right = await readAccount(PARTNER_SECRET);
    expect(right.status).toBe(200);
    // Another wrong secret is told it is wrong, not that the address is spent.
    expect((await readAccount(`${wrong}-other`)).status).toBe(401);

    // The budget is kept under a keyed digest of the secret, never the secret itself.
    const keys = [...(await store.contents()).keys()];
    expect(keys.filter((key) => key.includes('partner-secret-failures'))).toHaveLength(2);
    expect(keys.filter((key) => key.includes(wrong))).toEqual([]);
  });

  it('meet a ceiling per address that a new secret on every request cannot pass, and that costs no store write', async () => {
    // At the start of a minute of the BFF's clock: the ceiling's window is the clock's minute.
    clock.advance(60_000 - (clock.now() % 60_000) + 1);
    const counters = async () =>
      [...(await store.contents()).keys()].filter((key) => key.includes('partner-secret-failures')).length;
    const before = await counters();
    const statuses = [];
    for (let index = 0; index < 110; index += 1) {
      statuses.push((await readAccount(`guess-${index}-${randomBytes(16).toString('hex')}`)).status);
    }
    expect(statuses).toEqual([...Array(100).fill(401), ...Array(10).fill(429)]);
    // The refused ones started no counter of their own.
    expect((await counters()) - before).toBe(100);
    // The right secret is answered from the very same address, within the same minute.
    expect((await readAccount(PARTNER_SECRET)).status).toBe(200);
    // The next minute, the address may be told again that a secret is wrong.
    clock.advance(60_000);
    expect((await readAccount(`guess-late-${randomBytes(16).toString('hex')}`)).status).toBe(401);
  });
});

describe('a partner’s writes', () => {
  /** A write to `route` with `secret`; its path names nothing that exists (an answered refusal is a write too). */
  const write = (route: RouteSpec, secret: string) =>
    call(stack.server.url, fillPath(route.path, { id: 'chk_0000000000000000', esimId: 'esim_unknown' }), {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: secret, 'Idempotency-Key': newKey() },
      body: {},
    });

  it('are every POST route of the partner API', () => {
    expect(PARTNER_WRITES.map((route) => route.id)).toEqual(
      expect.arrayContaining([
        'startPartnerPayment',
        'confirmPartnerCheckout',
        'declinePartnerCheckoutPayment',
        'createPartnerManageLink',
        'createPartnerActionRequest',
        'createPartnerDeliveryLink',
        'resendPartnerWebhookDelivery',
      ]),
    );
  });

  it('have a budget per partner: each write route spends it, each is refused once it is spent', async () => {
    const spent = [];
    for (const route of PARTNER_WRITES) spent.push((await write(route, BUSY_SECRET)).status);
    expect(spent).not.toContain(429);
    for (const route of PARTNER_WRITES) {
      const refused = await write(route, BUSY_SECRET);
      expect({ route: route.id, status: refused.status, error: refused.body?.error }).toEqual({
        route: route.id,
        status: 429,
        error: {
          code: 'rate_limited',
          params: { limit: PARTNER_WRITES.length, windowSeconds: 60 },
        },
      });
      const retryAfter = Number(refused.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Its reads are not writes, and another partner's budget is its own.
    const account = await call(stack.server.url, '/v1/partner/account?widgetId=busy-pay', {
      headers: { [PARTNER_SECRET_HEADER]: BUSY_SECRET },
    });
    expect(account.status).toBe(200);
    expect((await write(PARTNER_WRITES[0] as RouteSpec, PARTNER_SECRET)).status).not.toBe(429);
  });
});
