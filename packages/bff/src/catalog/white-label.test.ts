/**
 * White label over HTTP against the sandbox's retail-brand account (Harbour Mobile): the widget's terms and
 * privacy links come from the retail brand's legal pages unless the widget's config sets them, and the brand's
 * switches are honoured — `checkout: false` sells nothing, `browse: false` shows no catalog,
 * `existingOrderRecovery: false` opens no "my eSIM" — each refused with `storefront_app_disabled`.
 */
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '@esim-embed/sandbox';
import { SessionResponseSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buyEsim, myEsim } from '../../testing/after-sale-flow';
import { call, newKey, openWidget, type Stack, startStack, testConfig } from '../../testing/stack';

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
        ],
      };
    },
    env: { TEST_HARBOUR_KEY: SANDBOX_KEYS.harbour },
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
