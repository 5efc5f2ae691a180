/**
 * Order lookups by `externalRef` against an upstream that ignores the filter (the parameter is our assumption,
 * not the contract's): a relay in front of the real sandbox drops it, so a lookup lists every order of the
 * account. A placement whose create failed must not adopt another checkout's order from that list — it waits
 * and places its own, one order under its own reference.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  startBff,
  type WidgetPage,
} from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';

let sandbox: RunningSandbox;
let relay: TestRelay;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 100,
    faultInjection: true,
  });
  relay = await startTestRelay(sandbox.url);
  relay.hooks.beforeForward = (request) => {
    if (request.method !== 'GET' || !request.path.startsWith('/orders?')) return;
    const url = new URL(request.path, 'http://relay');
    url.searchParams.delete('externalRef');
    request.path = `${url.pathname}${url.search}`;
  };
  bff = await startBff(relay.url, { sessionSecret: randomBytes(32) });
});
afterAll(async () => {
  await bff?.server.close();
  await relay?.close();
  await sandbox?.close();
});

async function buy(page: WidgetPage) {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  const created = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  expect(created.status).toBe(201);
  return created.body.data as { id: string; clientSecret: string; status: string };
}

const partnerRead = async (id: string) =>
  (
    await call(bff.server.url, `/v1/partner/checkouts/${id}`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    })
  ).body.data as { status: string; order: { id: string } | null };

describe('an upstream that ignores the externalRef filter', () => {
  it('never lends one checkout another checkout’s order', async () => {
    const page = await openWidget(bff.server.url, 'shop');
    const first = await buy(page);
    const firstOrder = (await eventually(async () => (await partnerRead(first.id)).order ?? undefined)).id;

    // Every attempt to create the second order fails: the placement looks its order up by reference — and the
    // relay answers with the whole account's orders, the first checkout's among them.
    await sandbox.control.setFaults([
      { kind: 'error', method: 'POST', path: '/orders', status: 500, times: 3 },
    ]);
    const second = await buy(page);
    expect(second.status).toBe('placing');
    expect(bff.logs.some((line) => line.includes('listed orders of other references'))).toBe(true);

    const ready = await eventually(async () => {
      const answer = await page.get(`/v1/checkouts/${second.id}`, {
        [CHECKOUT_SECRET_HEADER]: second.clientSecret,
      });
      return answer.body.data.status === 'ready' ? answer.body.data : undefined;
    }, 15_000);
    expect(ready.id).toBe(second.id);
    const secondOrder = (await partnerRead(second.id)).order?.id;
    expect(secondOrder).toBeDefined();
    expect(secondOrder).not.toBe(firstOrder);
    // Straight from the sandbox, filter honoured: one order under each reference, each its checkout's.
    for (const [checkoutId, orderId] of [
      [first.id, firstOrder],
      [second.id, secondOrder],
    ]) {
      const response = await fetch(`${sandbox.url}/orders?externalRef=${checkoutId}`, {
        headers: { 'X-Api-Key': SANDBOX_KEYS.globetrotter },
      });
      const orders = ((await response.json()) as { data: { id: string }[] }).data;
      expect(orders.map((order) => order.id)).toEqual([orderId]);
    }
  });
});
