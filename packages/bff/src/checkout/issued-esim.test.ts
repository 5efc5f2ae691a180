/**
 * The eSIM a checkout issued, where a partner's server and the host page look for it: `esimId` on the checkout
 * (partner and widget views) as soon as the eSIM exists, the installation data for the partner to send
 * (`GET /v1/partner/checkouts/{id}/installation`, no-store), and the checkout's `order.status` following the
 * upstream order past `delivered` to `completed`.
 */
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
} from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  // Delivery at once, completion a moment later: the checkout is ready while its order is still `delivered`.
  // The default status cache, as a partner runs it.
  stack = await startStack({
    sandbox: { stepDelaysMs: { provisioning: 0, delivery: 0, completion: 400 } },
    config: (sandboxUrl) => testConfig(sandboxUrl, { statusCacheMs: 1_000 }),
  });
});
afterAll(async () => {
  await stack?.close();
});

const partnerRead = (id: string) =>
  call(stack.server.url, `/v1/partner/checkouts/${id}`, {
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
  });

describe('the issued eSIM on the checkout', () => {
  it('is named on the partner’s and the widget’s checkout once ready, and the order follows to completed', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const destinations = await page.get('/v1/destinations');
    const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    const quote = await page.post(
      '/v1/quotes',
      { offerId: plans.body.data[0].offerId },
      { 'Idempotency-Key': newKey() },
    );
    const created = (
      await page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      )
    ).body.data;
    expect((await partnerRead(created.id)).body.data.esimId).toBeNull();
    const confirmed = await call(stack.server.url, `/v1/partner/checkouts/${created.id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(confirmed.status).toBe(200);

    const widgetView = await eventually(async () => {
      const answer = await page.get(`/v1/checkouts/${created.id}`, {
        [CHECKOUT_SECRET_HEADER]: created.clientSecret,
      });
      return answer.body.data.status === 'ready' ? answer.body.data : undefined;
    });
    const ready = (await partnerRead(created.id)).body.data;
    expect(ready.status).toBe('ready');
    expect(ready.esimId).toMatch(/^\S+$/);
    expect(widgetView.esimId).toBe(ready.esimId);
    const order = await stack.bff.widgets.get('shop-pay')?.upstream.getOrder(ready.order.id);
    expect(ready.esimId).toBe(order?.esim?.id);

    // The installation data, for the partner to send the traveller: behind the partner secret, never cached.
    const installation = await call(stack.server.url, `/v1/partner/checkouts/${created.id}/installation`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(installation.status).toBe(200);
    expect(installation.headers.get('cache-control')).toBe('no-store');
    expect(installation.body.data).toMatchObject({
      checkoutId: created.id,
      lpa: expect.stringMatching(/^LPA:1\$/),
    });
    const anonymous = await call(stack.server.url, `/v1/partner/checkouts/${created.id}/installation`);
    expect(anonymous.status).toBe(401);

    const completed = await eventually(async () => {
      const answer = (await partnerRead(created.id)).body.data;
      return answer.order.status === 'completed' ? answer : undefined;
    });
    expect(completed.status).toBe('ready');
    expect(completed.esimId).toBe(ready.esimId);
  });
});
