/**
 * A failover that loses acknowledged writes, for real: a replica stops replicating (`REPLICAOF NO ONE`) after it got
 * the traveller's quote and before the checkout was created on the primary, and a BFF then serves from it, as from
 * a promoted replica that lagged. The traveller's retry of the create (same key, same body, as the widget sends it)
 * reaches the checkout whose order the lost write had placed: one upstream order, shown by the checkout, none
 * reported unmatched, none made twice.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, type Plan } from '@esim-embed/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { call, eventually, newKey, openWidget, type RunningBff, startBff } from '../../testing/stack';
import { createRedisStore } from './redis-store';
import type { Store } from './store';

let sandbox: RunningSandbox;
let primary: RunningRedis;
let replica: RunningRedis;
const stores: Store[] = [];
const bffs: RunningBff[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
  primary = await startRedisServer();
  replica = await startRedisServer({ replicaOf: primary.port });
});
afterAll(async () => {
  for (const running of bffs) await running.server.close();
  for (const store of stores) await store.close();
  await replica?.stop();
  await primary?.stop();
  await sandbox?.close();
});

/** A BFF on the Redis at `url` (every instance shares the session secret and the key prefix). */
async function bffOn(url: string, sessionSecret: Buffer, keyPrefix: string): Promise<RunningBff> {
  const store = createRedisStore({ url, keyPrefix });
  stores.push(store);
  const running = await startBff(sandbox.url, { sessionSecret, store });
  bffs.push(running);
  return running;
}

it("reaches the lost checkout's order on the traveller's retry: one order, none unmatched", async () => {
  const sessionSecret = randomBytes(32);
  const keyPrefix = `lost-${randomBytes(4).toString('hex')}:`;
  const before = await bffOn(primary.url, sessionSecret, keyPrefix);
  const page = await openWidget(before.server.url, 'shop');
  const destinations = await page.get('/v1/destinations?locale=en');
  const country = (destinations.body.data as { code: string; kind: string }[]).find(
    (destination) => destination.kind === 'country',
  );
  const plans = await page.get(`/v1/destinations/${country?.code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: (plans.body.data as Plan[])[0]?.offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(quote.status).toBe(201);

  // The replica holds everything up to the quote, then stops following the primary: what the primary
  // acknowledges from now on is lost when the BFF moves to it.
  const onPrimary = new Redis(primary.port, '127.0.0.1');
  const onReplica = new Redis(replica.port, '127.0.0.1');
  try {
    expect(await onPrimary.wait(1, 10_000)).toBe(1);
    await onReplica.replicaof('NO', 'ONE');
  } finally {
    onPrimary.disconnect();
    onReplica.disconnect();
  }
  const ordersBefore = (await sandbox.control.state()).environments.test?.orders ?? 0;

  const key = newKey();
  const body = { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true };
  const created = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
  expect(created.status).toBe(201);
  const checkoutId = created.body.data.id as string;
  expect((await sandbox.control.state()).environments.test?.orders).toBe(ordersBefore + 1);

  // The failover: a BFF on the promoted replica, which never saw the checkout, its order reference or the key.
  // Its first reconciliation pass finds the order of a checkout it made and lost: left to the traveller's retry.
  const after = await bffOn(replica.url, sessionSecret, keyPrefix);
  expect(await after.bff.orderReconciliation.run()).toMatchObject({ reported: 0, adopted: 0 });
  expect(after.logs.join('\n')).toContain('upstream order of a checkout the store lost');
  const auth = { Origin: 'https://shop.example', Authorization: `Bearer ${page.token}` };
  const retried = await call(after.server.url, '/v1/checkouts', {
    method: 'POST',
    headers: { ...auth, 'Idempotency-Key': key },
    body,
  });
  expect(retried.status).toBe(201);
  expect(retried.body.data.id).toBe(checkoutId);

  const shown = await eventually(async () => {
    const answer = await call(after.server.url, `/v1/checkouts/${checkoutId}`, {
      headers: { ...auth, [CHECKOUT_SECRET_HEADER]: retried.body.data.clientSecret },
    });
    return answer.body.data?.status === 'ready' ? answer.body.data : undefined;
  });
  expect(shown.id).toBe(checkoutId);
  const orders = await after.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(checkoutId);
  expect(orders).toHaveLength(1);

  // Reconciliation on the promoted store: the order has its checkout, so nothing is reported.
  const pass = await after.bff.orderReconciliation.run();
  expect(pass.reported).toBe(0);
  expect(after.logs.join('\n')).not.toContain('upstream order without a checkout');
  expect((await sandbox.control.state()).environments.test?.orders).toBe(ordersBefore + 1);
}, 60_000);
