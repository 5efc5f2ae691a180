/**
 * A `stable` upstream that adds values: a relay in front of the sandbox puts unknown enum values, a newer
 * `apiVersion` and extra fields into every answer the BFF reads, and every widget flow still completes or
 * refuses cleanly (never a 5xx). An unknown error code is a 422 `upstream_refused` with the upstream's id.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim, myEsim, untilReady } from '../../testing/after-sale-flow';
import { call, newKey, openWidget, PARTNER_SECRET, type RunningBff, startBff } from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';

/** Order statuses still in progress, replaced by one the BFF cannot know. */
const IN_PROGRESS = new Set(['draft', 'awaiting_payment', 'paid', 'provisioning']);

/** Every answer, changed as a newer upstream release could: new values and new fields at every depth. */
function future(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => future(item, key));
    const first = items[0];
    if (key === 'grantedScopes') items.push('teleport:write');
    // One offer of every page in a currency nothing can stand for: left out, the rest still sells.
    const second = items[1];
    if (key === 'data' && isObject(second) && isObject(second.price)) {
      items[1] = { ...second, price: { ...second.price, currency: 'XTS' } };
    }
    if (key === 'actions' && isObject(first)) items.push({ ...first, type: 'teleport' });
    if (key === 'supplyOperations' && isObject(first)) items.push({ ...first, id: 'teleport' });
    if (key === 'capabilities' && isObject(first) && 'id' in first) items.push({ ...first, id: 'teleport' });
    return items;
  }
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = { futureField: { added: 'later' } };
  for (const [name, inner] of Object.entries(value)) out[name] = future(inner, name);
  if ('apiVersion' in value) out.apiVersion = '2.9.0';
  if ('fiveG' in value) Object.assign(out, { fiveG: 'partial', tethering: 'partial' });
  if ('billing' in value && typeof value.status === 'string' && IN_PROGRESS.has(value.status)) {
    out.status = 'allocating';
  }
  if (key === 'billing') out.status = 'escrowed';
  if ('profileState' in value) {
    Object.assign(out, { profileState: 'swapping', serviceState: 'paused', allowanceState: 'plenty' });
  }
  if (key === 'usage' && 'status' in value) out.status = 'estimated';
  if ('availability' in value && value.availability !== 'available') out.availability = 'waitlisted';
  if ('access' in value && value.access === 'none') out.access = 'by_pigeon';
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

let stack: RunningBff;
let sandbox: RunningSandbox;
let relay: TestRelay;
beforeAll(async () => {
  sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
  relay = await startTestRelay(sandbox.url);
  relay.hooks.rewrite = (_request, body) => future(body);
  stack = await startBff(relay.url, { sessionSecret: randomBytes(32) });
});
afterAll(async () => {
  await stack?.server.close();
  await relay?.close();
  await sandbox?.close();
});

describe('an upstream with values this release does not know', () => {
  it('sells and installs in direct mode, and opens my eSIM', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const bought = await buyEsim(page);
    const installation = await page.get(`/v1/checkouts/${bought.checkoutId}/installation`, {
      [CHECKOUT_SECRET_HEADER]: bought.clientSecret,
    });
    expect(installation.status).toBe(200);
    expect(installation.body.data.lpa).toMatch(/^LPA:1\$/);
    const mine = await myEsim(page, bought.manageToken);
    expect(mine.status).toBe(200);
    const plans = await page.get(`/v1/destinations?locale=en`);
    expect(plans.status).toBe(200);
    expect(relay.requests.some((request) => request.path.includes('/catalog/offers'))).toBe(true);
    // Logged once per value, with the meaning it was read with.
    const noted = stack.logs.filter((line) => line.includes('this release does not know'));
    expect(
      noted.some((line) => line.includes('"value":"partial"') && line.includes('"readsAs":"unknown"')),
    ).toBe(true);
    expect(noted.some((line) => line.includes('"value":"allocating"'))).toBe(true);
    expect(noted.filter((line) => line.includes('"value":"partial"'))).toHaveLength(1);
    expect(stack.logs.some((line) => line.includes('upstream answer unreadable'))).toBe(false);
    expect(
      noted.some((line) => line.includes('"field":"list entry"') && line.includes('price.currency')),
    ).toBe(true);
  });

  it('sells in partner_confirm mode', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const destinations = await page.get('/v1/destinations?locale=en');
    const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    expect(plans.status).toBe(200);
    expect(plans.body.data.length).toBeGreaterThan(0);
    const quote = await page.post(
      '/v1/quotes',
      { offerId: plans.body.data[0].offerId },
      { 'Idempotency-Key': newKey() },
    );
    expect(quote.status).toBe(201);
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    const { id, clientSecret } = checkout.body.data;
    const confirmed = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      body: { paymentReference: 'pay_future' },
    });
    expect(confirmed.status).toBe(200);
    await untilReady(page, id, clientSecret);
  });

  it('keeps a checkout polling while the order is in a status it does not know', async () => {
    relay.hooks.rewrite = (request, body) => {
      const changed = future(body) as { data?: { status?: string } };
      if (request.method === 'GET' && /\/orders\/[^/?]+$/.test(request.path) && changed.data) {
        changed.data.status = 'on_hold';
      }
      return changed;
    };
    try {
      const page = await openWidget(stack.server.url, 'shop');
      const destinations = await page.get('/v1/destinations?locale=en');
      const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
      const quote = await page.post(
        '/v1/quotes',
        { offerId: plans.body.data[0].offerId },
        { 'Idempotency-Key': newKey() },
      );
      const checkout = await page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      );
      expect(checkout.status).toBe(201);
      const { id, clientSecret } = checkout.body.data;
      for (let read = 0; read < 3; read += 1) {
        const status = await page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
        expect(status.status).toBe(200);
        expect(status.body.data.status).toBe('provisioning');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      relay.hooks.rewrite = (_request, body) => future(body);
      await untilReady(page, id, clientSecret);
    } finally {
      relay.hooks.rewrite = (_request, body) => future(body);
    }
  });

  it('reads an error code it does not know as a refusal carrying the upstream request id', async () => {
    relay.hooks.respond = (request) =>
      request.method === 'POST' && request.path.endsWith('/quotes')
        ? {
            status: 422,
            body: {
              error: { code: 'quote_embargoed', params: { region: 'somewhere' } },
              meta: { requestId: 'req_future_1', apiVersion: '2.9.0' },
            },
          }
        : undefined;
    try {
      const page = await openWidget(stack.server.url, 'shop');
      const destinations = await page.get('/v1/destinations?locale=en');
      const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
      const quote = await page.post(
        '/v1/quotes',
        { offerId: plans.body.data[0].offerId },
        { 'Idempotency-Key': newKey() },
      );
      expect(quote.status).toBe(422);
      expect(quote.body.error).toEqual({
        code: 'upstream_refused',
        params: { upstreamRequestId: 'req_future_1' },
      });
      expect(stack.logs.some((line) => line.includes('error code this release does not know'))).toBe(true);
    } finally {
      relay.hooks.respond = undefined;
    }
  });

  it('answered no request with a 5xx through all of it', () => {
    const answers = stack.logs
      .map((line) => JSON.parse(line) as { message: string; status?: number; path?: string })
      .filter((line) => line.message === 'request');
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((line) => (line.status ?? 0) >= 500)).toEqual([]);
  });
});
