/**
 * The upstream's supply read strictly, over HTTP against the sandbox (its supply control sets what
 * `GET /capabilities` reports): new eSIMs are sold through the API only when `issue` has access `api` and
 * availability `available`, `simulated` in the test environment only, or `route_dependent` with each offer
 * checked upstream before the traveller is quoted. A store that cannot sell says so (`storefront_app_disabled`)
 * and the operator's log says why.
 */
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS, type SupplyControlRequest } from '@esim-embed/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  newKey,
  openWidget,
  type Stack,
  startStack,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    config: (sandboxUrl) => {
      const base = testConfig(sandboxUrl);
      return {
        ...base,
        widgets: [
          ...base.widgets,
          {
            id: 'shop-live',
            displayName: 'Live Shop',
            environment: 'live',
            upstream: {
              baseUrl: sandboxUrl,
              apiKeyEnv: 'TEST_LIVE_KEY',
              timeoutMs: 2_000,
              maxRetries: 2,
              rateLimitPerMinute: 100_000,
            },
            allowedOrigins: ['https://shop.example'],
            checkoutMode: 'partner_confirm',
            partnerSecretEnv: 'TEST_PARTNER_SECRET',
          },
        ],
      };
    },
    env: { TEST_LIVE_KEY: SANDBOX_KEYS.globetrotterLive },
    bffOptions: { observability: { metrics: true } },
  });
});
afterAll(async () => {
  await stack?.close();
});

/** Set Globetrotter's supply in one environment and let its widgets read the capabilities again. */
async function setSupply(request: SupplyControlRequest) {
  await stack.sandbox.control.setSupply(SANDBOX_ACCOUNTS.globetrotter, request);
  for (const widget of stack.bff.widgets.values()) await widget.catalog.refresh();
}

/** Two offers of the first destination, read while the store sells. */
async function twoOffers(page: WidgetPage): Promise<[string, string]> {
  const destinations = await page.get('/v1/destinations?locale=en');
  expect(destinations.status, destinations.text).toBe(200);
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans?locale=en`);
  const [first, second] = plans.body.data;
  return [first.offerId, second.offerId];
}

const quote = (page: WidgetPage, offerId: string) =>
  page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });

describe('the issue supply', () => {
  beforeEach(async () => {
    await setSupply({ environment: 'test', reset: true });
    await setSupply({ environment: 'live', reset: true });
  });

  it('with access assisted sells nothing through the API: the store says it cannot sell, the log says why', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const [offerId] = await twoOffers(page);
    await setSupply({
      environment: 'test',
      operations: [{ id: 'issue', availability: 'available', access: 'assisted' }],
    });
    const refusal = {
      code: 'storefront_app_disabled',
      params: {
        reason: 'supply_not_sellable',
        operation: 'issue',
        availability: 'available',
        access: 'assisted',
      },
    };
    const destinations = await page.get('/v1/destinations?locale=en');
    expect(destinations.status).toBe(403);
    expect(destinations.body.error).toEqual(refusal);
    const refused = await quote(page, offerId);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual(refusal);
    expect(
      stack.logs.some((line) => line.includes('issue supply is available with access assisted in test')),
    ).toBe(true);
    const metrics = (await call(stack.operations?.url ?? 'http://operations.invalid', '/metrics')).text;
    expect(metrics).toContain('bff_widget_sales_stopped{widget="shop",reason="supply_not_sellable"} 1');
    await setSupply({ environment: 'test', reset: true });
    expect((await quote(page, offerId)).status).toBe(201);
  });

  it('simulated sells in the test environment only', async () => {
    const test = await openWidget(stack.server.url, 'shop');
    const live = await openWidget(stack.server.url, 'shop-live');
    const [testOffer] = await twoOffers(test);
    const [liveOffer] = await twoOffers(live);
    const simulated = [{ id: 'issue' as const, availability: 'simulated' as const, access: 'api' as const }];
    await setSupply({ environment: 'test', operations: simulated });
    await setSupply({ environment: 'live', operations: simulated });
    expect((await quote(test, testOffer)).status).toBe(201);
    const refused = await quote(live, liveOffer);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'storefront_app_disabled',
      params: { reason: 'supply_not_sellable', availability: 'simulated' },
    });
  });

  it('route_dependent checks the exact offer upstream before the traveller is quoted', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const [unserved, served] = await twoOffers(page);
    await setSupply({
      environment: 'test',
      operations: [{ id: 'issue', availability: 'route_dependent', access: 'api' }],
      routeUnservedOfferIds: [unserved],
    });
    const refused = await quote(page, unserved);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'product_unavailable',
      params: { offerId: unserved, reason: 'route_not_served' },
    });
    const first = await quote(page, served);
    expect(first.status).toBe(201);
    // Asked again in the session, the live quote comes back without asking the upstream about the offer again.
    const offerReads = async () => {
      const metrics = (await call(stack.operations?.url ?? 'http://operations.invalid', '/metrics')).text;
      const line =
        /^bff_upstream_request_duration_seconds_count\{operation="getOffer",outcome="ok"\} (\d+)$/m;
      return Number(line.exec(metrics)?.[1] ?? 0);
    };
    const before = await offerReads();
    expect(before).toBeGreaterThan(0);
    const again = await quote(page, served);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await offerReads()).toBe(before);
  });
});
