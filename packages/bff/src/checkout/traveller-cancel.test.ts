/**
 * The traveller abandons a payment (`POST /v1/checkouts/{id}/cancel`) against the real sandbox over HTTP:
 * only the holder of the client secret, from the widget and origin that made the checkout, and only while it
 * awaits payment; the partner hears `checkout.cancelled` as when its own server cancels.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dereferenced } from '../../testing/openapi-document';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';

/** A second origin the partner_confirm widget allows, for a page of the same widget on another site. */
const OTHER_ORIGIN = 'https://other-shop.example';

/** The webhook bodies the partner's endpoint received. */
const webhooks: { type: string; data: { checkout: { id: string; status: string } } }[] = [];
let receiver: Server;
let stack: Stack;
beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      webhooks.push(JSON.parse(Buffer.concat(chunks).toString()));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  stack = await startStack({
    sandbox: { faultInjection: true },
    config: (url) => {
      const config = testConfig(url);
      return {
        ...config,
        widgets: config.widgets.map((widget) =>
          widget.id === 'shop-pay'
            ? {
                ...widget,
                allowedOrigins: [SHOP_ORIGIN, OTHER_ORIGIN],
                webhookUrl: hookUrl,
                webhookSecretEnv: 'TEST_WEBHOOK_SECRET',
              }
            : widget,
        ),
      };
    },
    env: { TEST_WEBHOOK_SECRET: 'whsec_traveller_cancel_0123456789abcdef' },
    // The upstream client's pauses between attempts (a 503's Retry-After) are not waited out: no test reads a clock.
    bffOptions: { webhooks: { intervalMs: 25 }, upstreamSleep: async () => {} },
  });
});
afterEach(async () => {
  await stack.sandbox.control.clearFaults();
});
afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** A checkout of the `shop-pay` widget (partner_confirm) that awaits payment. */
async function awaitingCheckout(page: WidgetPage): Promise<{ id: string; clientSecret: string }> {
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
  expect(created.body.data.status).toBe('awaiting_payment');
  return created.body.data;
}

const partnerStatus = async (id: string) =>
  (
    await call(stack.server.url, `/v1/partner/checkouts/${id}`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    })
  ).body.data.status;

describe('the traveller cancels a checkout', () => {
  it('with the client secret: cancelled, again the same answer, and the partner hears of it', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const { id, clientSecret } = await awaitingCheckout(page);
    const secret = { [CHECKOUT_SECRET_HEADER]: clientSecret };
    const cancelled = await page.post(`/v1/checkouts/${id}/cancel`, undefined, secret);
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.get('cache-control')).toContain('no-store');
    expect(cancelled.body.data).toMatchObject({ id, status: 'cancelled', mode: 'partner_confirm' });
    expect(cancelled.body.data.clientSecret).toBeUndefined();

    const again = await page.post(`/v1/checkouts/${id}/cancel`, undefined, secret);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('cancelled');
    expect(await partnerStatus(id)).toBe('cancelled');
    // Too late for the partner's confirm: the payment it may still be taking must be given back.
    const confirm = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(confirm.status).toBe(409);
    expect(confirm.body.error).toMatchObject({ code: 'invalid_transition', params: { status: 'cancelled' } });
    const event = await eventually(async () =>
      webhooks.find((hook) => hook.type === 'checkout.cancelled' && hook.data.checkout.id === id),
    );
    expect(event.data.checkout.status).toBe('cancelled');
    expect(
      stack.logs.some((line) => line.includes('"checkout cancelled"') && line.includes('"by":"traveller"')),
    ).toBe(true);
  });

  it('is refused without the secret, with a wrong one, and from a page on another origin', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const { id, clientSecret } = await awaitingCheckout(page);
    const elsewhere = await openWidget(stack.server.url, 'shop-pay', OTHER_ORIGIN);
    const otherWidget = await openWidget(stack.server.url, 'shop');
    const attempts = [
      await page.post(`/v1/checkouts/${id}/cancel`, undefined),
      await page.post(`/v1/checkouts/${id}/cancel`, undefined, {
        [CHECKOUT_SECRET_HEADER]: `${clientSecret.slice(0, -2)}xx`,
      }),
      await elsewhere.post(`/v1/checkouts/${id}/cancel`, undefined, {
        [CHECKOUT_SECRET_HEADER]: clientSecret,
      }),
      await otherWidget.post(`/v1/checkouts/${id}/cancel`, undefined, {
        [CHECKOUT_SECRET_HEADER]: clientSecret,
      }),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(404);
      expect(attempt.body.error.code).toBe('checkout_not_found');
    }
    // Without a session at all the route is not even reached.
    const anonymous = await call(stack.server.url, `/v1/checkouts/${id}/cancel`, {
      method: 'POST',
      headers: { Origin: SHOP_ORIGIN, [CHECKOUT_SECRET_HEADER]: clientSecret },
    });
    expect(anonymous.status).toBe(401);
    expect(await partnerStatus(id)).toBe('awaiting_payment');
  });

  it('cannot cancel a checkout that is being placed, nor a direct one', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const { id, clientSecret } = await awaitingCheckout(page);
    // The upstream answers every order with 503: the confirmed checkout stays in placing.
    await stack.sandbox.control.setFaults([{ kind: 'error', method: 'POST', path: '/orders', status: 503 }]);
    const confirmed = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      body: { paymentReference: 'pay_cancel_late' },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.status).toBe('placing');
    const refused = await page.post(`/v1/checkouts/${id}/cancel`, undefined, {
      [CHECKOUT_SECRET_HEADER]: clientSecret,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'invalid_transition', params: { status: 'placing' } });
    expect(await partnerStatus(id)).toBe('placing');

    const direct = await openWidget(stack.server.url, 'shop');
    const destinations = await direct.get('/v1/destinations');
    const plans = await direct.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    const quote = await direct.post(
      '/v1/quotes',
      { offerId: plans.body.data[0].offerId },
      { 'Idempotency-Key': newKey() },
    );
    await stack.sandbox.control.clearFaults();
    const created = await direct.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    const directCancel = await direct.post(`/v1/checkouts/${created.body.data.id}/cancel`, undefined, {
      [CHECKOUT_SECRET_HEADER]: created.body.data.clientSecret,
    });
    expect(directCancel.status).toBe(409);
    expect(directCancel.body.error.code).toBe('invalid_transition');
  });

  it('is described in the OpenAPI document with the client secret header', async () => {
    const document = (await call(stack.server.url, '/openapi.json')).body;
    const operation = document.paths['/v1/checkouts/{id}/cancel'].post;
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['id', CHECKOUT_SECRET_HEADER, 'Origin']),
    );
    const answer = dereferenced(document, operation.responses['200'].content['application/json'].schema) as {
      properties: { data: { required: string[] } };
    };
    expect(answer.properties.data.required).toEqual(expect.arrayContaining(['id', 'status', 'expiresAt']));
    const wrongMethod = await call(stack.server.url, '/v1/checkouts/chk_whatever0000/cancel');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('POST');
  });
});
