/**
 * White label over HTTP against the sandbox's retail-brand account (Harbour Mobile): the widget's terms and
 * privacy links come from the retail brand's legal pages unless the widget's config sets them, and the brand's
 * switches are honoured — `checkout: false` sells nothing, `browse: false` shows no catalog,
 * `existingOrderRecovery: false` opens no "my eSIM" — each refused with `storefront_app_disabled`. The brand's
 * status and live-checkout readiness are obeyed, and a white label that cannot be read allows nothing.
 */
import { randomBytes } from 'node:crypto';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '@esim-embed/sandbox';
import { SessionResponseSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buyEsim, myEsim } from '../../testing/after-sale-flow';
import {
  call,
  eventually,
  newKey,
  openWidget,
  type RunningBff,
  type Stack,
  startBff,
  startStack,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';

const HARBOUR_ORIGIN = 'https://harbour.example';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    config: (sandboxUrl) => {
      const base = testConfig(sandboxUrl);
      const upstream = {
        baseUrl: sandboxUrl,
        apiKeyEnv: 'TEST_HARBOUR_KEY',
        timeoutMs: 2_000,
        maxRetries: 2,
        // The tests refresh the catalogs many times a minute: background work's share of a small key would run out.
        rateLimitPerMinute: 100_000,
      };
      return {
        ...base,
        widgets: [
          ...base.widgets,
          {
            id: 'harbour',
            displayName: 'Harbour',
            environment: 'test',
            upstream,
            allowedOrigins: [HARBOUR_ORIGIN],
            checkoutMode: 'direct',
          },
          {
            id: 'harbour-own-terms',
            displayName: 'Harbour',
            environment: 'test',
            upstream,
            allowedOrigins: [HARBOUR_ORIGIN],
            checkoutMode: 'direct',
            brand: { termsUrl: 'https://partner.example/terms' },
          },
          {
            id: 'harbour-live',
            displayName: 'Harbour',
            environment: 'live',
            upstream: { ...upstream, apiKeyEnv: 'TEST_HARBOUR_LIVE_KEY' },
            allowedOrigins: [HARBOUR_ORIGIN],
            checkoutMode: 'partner_confirm',
            partnerSecretEnv: 'TEST_PARTNER_SECRET',
          },
        ],
      };
    },
    env: { TEST_HARBOUR_KEY: SANDBOX_KEYS.harbour, TEST_HARBOUR_LIVE_KEY: SANDBOX_KEYS.harbourLive },
    bffOptions: { observability: { metrics: true } },
  });
});
afterAll(async () => {
  await stack?.close();
});

/** Flip the brand's switches in the sandbox and let the widgets read the account again. */
async function setControls(controls: {
  browse?: boolean;
  checkout?: boolean;
  existingOrderRecovery?: boolean;
}) {
  await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.harbour, { retailBrandControls: controls });
  for (const widget of stack.bff.widgets.values()) await widget.catalog.refresh();
}

/** Set the brand's status and live-checkout readiness in both environments and let the widgets read them. */
async function setLaunch(launch: {
  retailBrandStatus?: 'active' | 'paused' | 'terminated' | 'onboarding';
  retailBrandLiveCheckoutReady?: boolean;
}) {
  for (const environment of ['test', 'live'] as const) {
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.harbour, { environment, ...launch });
  }
  for (const widget of stack.bff.widgets.values()) await widget.catalog.refresh();
}

/** The first plan's offer of the first destination. */
async function firstOffer(page: WidgetPage): Promise<string> {
  const destinations = await page.get('/v1/destinations');
  expect(destinations.status, destinations.text).toBe(200);
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  return plans.body.data[0].offerId;
}

const quote = (page: WidgetPage, offerId: string) =>
  page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });

async function session(widgetId: string) {
  const answer = await call(stack.server.url, '/v1/sessions', {
    method: 'POST',
    headers: { Origin: HARBOUR_ORIGIN },
    body: { widgetId },
  });
  expect(answer.status, answer.text).toBe(201);
  return SessionResponseSchema.parse(answer.body).data;
}

describe('the retail brand', () => {
  beforeEach(async () => {
    await setControls({ browse: true, checkout: true, existingOrderRecovery: true });
  });

  it('gives the widget its terms and privacy links unless the config sets them', async () => {
    const harbour = await session('harbour');
    expect(harbour.widget.brand).toMatchObject({
      termsUrl: 'https://harbour-mobile.example/legal/terms',
      privacyUrl: 'https://harbour-mobile.example/legal/privacy',
    });
    const own = await session('harbour-own-terms');
    expect(own.widget.brand).toMatchObject({
      termsUrl: 'https://partner.example/terms',
      privacyUrl: 'https://harbour-mobile.example/legal/privacy',
    });
    // A widget of an account without a retail brand keeps its config's links (none here).
    const shop = await openWidget(stack.server.url, 'shop');
    expect(shop.session.widget.brand.termsUrl).toBeNull();
  });

  it('checkout: false sells nothing (no quote), while the catalog is still shown', async () => {
    const page = await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN);
    const destinations = await page.get('/v1/destinations');
    const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    await setControls({ checkout: false });
    expect((await page.get('/v1/destinations')).status).toBe(200);
    const quote = await page.post(
      '/v1/quotes',
      { offerId: plans.body.data[0].offerId },
      { 'Idempotency-Key': newKey() },
    );
    expect(quote.status).toBe(403);
    expect(quote.body.error).toMatchObject({
      code: 'storefront_app_disabled',
      params: { control: 'checkout', brandKey: 'harbour-mobile' },
    });
  });

  it('browse: false shows no catalog', async () => {
    const page = await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN);
    await setControls({ browse: false });
    const destinations = await page.get('/v1/destinations');
    expect(destinations.status).toBe(403);
    expect(destinations.body.error.params.control).toBe('browse');
  });

  it('existingOrderRecovery: false opens no my eSIM and mints no manage link', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN));
    const page = await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN);
    expect((await myEsim(page, bought.manageToken)).status).toBe(200);
    await setControls({ existingOrderRecovery: false });
    const refused = await myEsim(page, bought.manageToken);
    expect(refused.status).toBe(403);
    expect(refused.body.error.params.control).toBe('existingOrderRecovery');
    const link = await page.post(
      `/v1/checkouts/${bought.checkoutId}/manage-link`,
      {},
      { 'X-Checkout-Secret': bought.clientSecret },
    );
    expect(link.status).toBe(403);
  });
});

describe("the retail brand's status and readiness", () => {
  beforeEach(async () => {
    await setControls({ browse: true, checkout: true, existingOrderRecovery: true });
    await setLaunch({ retailBrandStatus: 'active', retailBrandLiveCheckoutReady: true });
  });

  it('a paused brand shows and sells nothing, says so, and tells the operator; bought eSIMs stay reachable', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN));
    const page = await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN);
    const offerId = await firstOffer(page);
    const catalogBefore = (await call(stack.server.url, '/v1/catalog/harbour')).body.data;
    await setLaunch({ retailBrandStatus: 'paused' });
    // The public catalog moves to a new address, and that one refuses: no cached address of the old one is
    // handed out.
    const catalogAfter = (await call(stack.server.url, '/v1/catalog/harbour')).body.data;
    expect(catalogAfter.version).not.toBe(catalogBefore.version);
    const publicRead = await call(stack.server.url, `${catalogAfter.path}/en/destinations`);
    expect(publicRead.status).toBe(403);
    expect(publicRead.body.error.params).toMatchObject({ reason: 'retail_brand_status', status: 'paused' });
    const destinations = await page.get('/v1/destinations');
    expect(destinations.status).toBe(403);
    expect(destinations.body.error).toEqual({
      code: 'storefront_app_disabled',
      params: {
        reason: 'retail_brand_status',
        status: 'paused',
        brandKey: 'harbour-mobile',
        control: 'browse',
      },
    });
    const refused = await quote(page, offerId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.params).toMatchObject({ reason: 'retail_brand_status', control: 'checkout' });
    expect(stack.logs.some((line) => line.includes('the retail brand is paused'))).toBe(true);
    const metrics = (await call(stack.operations?.url ?? 'http://operations.invalid', '/metrics')).text;
    expect(metrics).toContain('bff_widget_sales_stopped{widget="harbour",reason="retail_brand_status"} 1');
    expect(metrics).not.toContain('bff_widget_sales_stopped{widget="shop"');
    expect((await myEsim(page, bought.manageToken)).status).toBe(200);
    await setLaunch({ retailBrandStatus: 'active' });
    expect((await quote(page, offerId)).status).toBe(201);
  });

  it('a brand not launched yet sells in test only', async () => {
    await setLaunch({ retailBrandStatus: 'onboarding' });
    const test = await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN);
    expect((await quote(test, await firstOffer(test))).status).toBe(201);
    const live = await openWidget(stack.server.url, 'harbour-live', HARBOUR_ORIGIN);
    const destinations = await live.get('/v1/destinations');
    expect(destinations.status).toBe(403);
    expect(destinations.body.error.params).toMatchObject({
      reason: 'retail_brand_status',
      status: 'onboarding',
    });
  });

  it('in live a checkout needs the liveCheckout track ready; browsing does not', async () => {
    const page = await openWidget(stack.server.url, 'harbour-live', HARBOUR_ORIGIN);
    const offerId = await firstOffer(page);
    await setLaunch({ retailBrandLiveCheckoutReady: false });
    expect((await page.get('/v1/destinations')).status).toBe(200);
    const refused = await quote(page, offerId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.params).toEqual({
      reason: 'retail_brand_not_ready',
      track: 'liveCheckout',
      blockers: ['payment_provider_not_ready'],
      brandKey: 'harbour-mobile',
      control: 'checkout',
    });
    // The test environment does not need it.
    const test = await openWidget(stack.server.url, 'harbour', HARBOUR_ORIGIN);
    expect((await quote(test, await firstOffer(test))).status).toBe(201);
    await setLaunch({ retailBrandLiveCheckoutReady: true });
    expect((await quote(page, offerId)).status).toBe(201);
  });
});

describe('a white label that cannot be read', () => {
  let relay: TestRelay;
  let bff: RunningBff;
  /** What the relay does to `GET /account`: pass it, drop the retail brands, or answer 503. */
  let account: 'pass' | 'no_brands' | 'unreadable' = 'pass';
  beforeAll(async () => {
    relay = await startTestRelay(stack.sandbox.url);
    relay.hooks.respond = (request) =>
      account === 'unreadable' && request.path.endsWith('/account')
        ? {
            status: 503,
            body: { error: { code: 'internal', params: {} }, meta: { requestId: 'r', apiVersion: '2.0.0' } },
          }
        : undefined;
    relay.hooks.rewrite = (request, body) => {
      if (account !== 'no_brands' || !request.path.endsWith('/account')) return body;
      const answer = body as { data: { retailBrands: unknown[] } };
      answer.data.retailBrands = [];
      return answer;
    };
    account = 'unreadable';
    // Started while the account cannot be read: no good account was ever seen.
    bff = await startBff(relay.url, {
      sessionSecret: randomBytes(32),
      config: (relayUrl) => {
        const base = testConfig(relayUrl);
        const upstream = { baseUrl: relayUrl, timeoutMs: 2_000, maxRetries: 0 };
        return {
          ...base,
          widgets: [
            ...base.widgets,
            {
              id: 'harbour',
              displayName: 'Harbour',
              environment: 'test',
              upstream: { ...upstream, apiKeyEnv: 'TEST_HARBOUR_KEY' },
              allowedOrigins: [HARBOUR_ORIGIN],
              checkoutMode: 'direct',
            },
            {
              id: 'aurora',
              displayName: 'Aurora',
              environment: 'test',
              upstream: { ...upstream, apiKeyEnv: 'TEST_AURORA_KEY', brandKey: 'aurora-travel' },
              allowedOrigins: [HARBOUR_ORIGIN],
              checkoutMode: 'direct',
            },
          ],
        };
      },
      env: { TEST_HARBOUR_KEY: SANDBOX_KEYS.harbour, TEST_AURORA_KEY: SANDBOX_KEYS.aurora },
    });
  });
  afterAll(async () => {
    await bff?.server.close();
    await relay?.close();
  });

  /**
   * A catalog read of `widgetId` that starts now: a load already in flight (the sooner read of an account that did
   * not answer) began before the test changed the account, so it is waited out first.
   */
  async function freshRead(widgetId: string) {
    const catalog = bff.bff.widgets.get(widgetId)?.catalog;
    await catalog?.refresh().catch(() => undefined);
    await catalog?.refresh();
  }

  it('shows and sells nothing while the account was never read, then sells once it is', async () => {
    const page = await openWidget(bff.server.url, 'harbour', HARBOUR_ORIGIN);
    const destinations = await page.get('/v1/destinations');
    // A passing outage, said as one: the traveller is not told this store is unavailable on this website.
    expect(destinations.status).toBe(503);
    expect(destinations.headers.get('retry-after')).toBe('5');
    expect(destinations.body.error).toMatchObject({
      code: 'upstream_unavailable',
      params: { reason: 'retail_brand_unknown', cause: 'account_unreadable' },
    });
    expect(bff.logs.some((line) => line.includes('the white label cannot be read'))).toBe(true);
    account = 'pass';
    // Read again by itself within seconds, not at the next refresh of the catalog (minutes away).
    await eventually(
      async () => ((await page.get('/v1/destinations')).status === 200 ? true : undefined),
      20_000,
    );
  });

  it('shows and sells nothing when the attested brand is not on the account', async () => {
    account = 'no_brands';
    await freshRead('aurora');
    const page = await openWidget(bff.server.url, 'aurora', HARBOUR_ORIGIN);
    const destinations = await page.get('/v1/destinations');
    expect(destinations.status).toBe(403);
    expect(destinations.body.error.params).toMatchObject({
      reason: 'retail_brand_unknown',
      cause: 'attested_brand_missing',
      brandKey: 'aurora-travel',
    });
    account = 'pass';
    await freshRead('aurora');
    expect((await page.get('/v1/destinations')).status).toBe(200);
  });
});
