/**
 * Two BFF instances behind one (pretend) load balancer, sharing a real Redis and the session secret: a
 * session, a checkout and an idempotency key made on one are honoured on the other; confirms racing on
 * both place one order; rate limits count across both.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  testConfig,
} from '../../testing/stack';
import { createRedisStore } from './redis-store';

let redis: RunningRedis;
let sandbox: RunningSandbox;
let one: RunningBff;
let two: RunningBff;

beforeAll(async () => {
  redis = await startRedisServer();
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  const sessionSecret = randomBytes(32);
  const prefix = `bff-${randomBytes(4).toString('hex')}:`;
  const config = (url: string) => {
    const base = testConfig(url);
    return {
      ...base,
      widgets: base.widgets.map((widget) => ({ ...widget, limits: { sessionsPerIpPerMinute: 6 } })),
    };
  };
  one = await startBff(sandbox.url, {
    config,
    sessionSecret,
    store: createRedisStore({ url: redis.url, keyPrefix: prefix }),
  });
  two = await startBff(sandbox.url, {
    config,
    sessionSecret,
    store: createRedisStore({ url: redis.url, keyPrefix: prefix }),
  });
});
afterAll(async () => {
  await one?.server.close();
  await two?.server.close();
  await sandbox?.close();
  await redis?.stop();
});

/** The same page talking to instance one for some calls and instance two for others. */
async function checkoutOn(widgetId: string) {
  const page = await openWidget(one.server.url, widgetId);
  const auth = { Origin: SHOP_ORIGIN, Authorization: `Bearer ${page.token}` };
  const destinations = await call(two.server.url, '/v1/destinations', { headers: auth });
  expect(destinations.status).toBe(200);
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const quote = await call(two.server.url, '/v1/quotes', {
    method: 'POST',
    headers: { ...auth, 'Idempotency-Key': newKey() },
    body: { offerId: plans.body.data[0].offerId },
  });
  expect(quote.status).toBe(201);
  const key = newKey();
  const body = { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true };
  const created = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
  expect(created.status).toBe(201);
  // The same key replayed on the other instance gets the same answer.
  const replay = await call(two.server.url, '/v1/checkouts', {
    method: 'POST',
    headers: { ...auth, 'Idempotency-Key': key },
    body,
  });
  expect(replay.body).toEqual(created.body);
  return { page, auth, checkout: created.body.data as { id: string; clientSecret: string } };
}

describe('two instances sharing Redis', () => {
  it('confirms on one instance what was created on the other, once, even when confirms race', async () => {
    const { auth, checkout } = await checkoutOn('shop-pay');
    const partner = { [PARTNER_SECRET_HEADER]: PARTNER_SECRET };
    const confirms = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        call((index % 2 === 0 ? one : two).server.url, `/v1/partner/checkouts/${checkout.id}/confirm`, {
          method: 'POST',
          headers: partner,
        }),
      ),
    );
    for (const confirm of confirms) expect(confirm.status).toBe(200);
    const ready = await eventually(async () => {
      const answer = await call(two.server.url, `/v1/checkouts/${checkout.id}`, {
        headers: { ...auth, [CHECKOUT_SECRET_HEADER]: checkout.clientSecret },
      });
      return answer.body.data.status === 'ready' ? answer.body.data : undefined;
    });
    expect(ready.id).toBe(checkout.id);
    const orders = await one.bff.widgets.get('shop-pay')?.upstream.findOrdersByExternalRef(checkout.id);
    expect(orders).toHaveLength(1);
  });

  it('places a direct checkout once and serves its installation from either instance', async () => {
    const { auth, checkout } = await checkoutOn('shop');
    await eventually(async () => {
      const answer = await call(one.server.url, `/v1/checkouts/${checkout.id}`, {
        headers: { ...auth, [CHECKOUT_SECRET_HEADER]: checkout.clientSecret },
      });
      return answer.body.data.status === 'ready' ? true : undefined;
    });
    const installation = await call(two.server.url, `/v1/checkouts/${checkout.id}/installation`, {
      headers: { ...auth, [CHECKOUT_SECRET_HEADER]: checkout.clientSecret },
    });
    expect(installation.status).toBe(200);
    expect(await one.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(checkout.id)).toHaveLength(1);
  });

  it('counts the per-IP session limit across both instances', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      const answer = await call((index % 2 === 0 ? one : two).server.url, '/v1/sessions', {
        method: 'POST',
        headers: { Origin: 'https://rub.example' },
        body: { widgetId: 'shop-rub' },
      });
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual([429, 429]);
  });
});
