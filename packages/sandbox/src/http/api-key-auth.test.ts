import {
  AccountResponseSchema,
  CapabilitiesResponseSchema,
  OrderPageSchema,
  OrderResponseSchema,
  ProductPageSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectError } from '../../testing/sandbox-harness';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '../seed/accounts';

describe('X-Api-Key, scopes, rate limits and environments', () => {
  const h = createHarness();
  const { api } = h;
  beforeEach(async () => {
    await h.control.reset();
  });

  it('answers unauthorized for a missing or unknown key', async () => {
    const missing = await api.fail('GET', '/catalog/products', { apiKey: null });
    expectError(missing, 'unauthorized', 401);
    expect(missing.error.params).toEqual({ header: 'X-Api-Key', reason: 'missing' });
    const unknown = await api.fail('GET', '/orders', { apiKey: 'sk_test_nope' });
    expectError(unknown, 'unauthorized', 401);
    expect(unknown.error.params.reason).toBe('unknown_key');
  });

  it('reports granted scopes in capabilities and enforces them', async () => {
    const full = await api.get('/capabilities', CapabilitiesResponseSchema);
    expect(full.data.grantedScopes).toContain('esims:read');
    expect(full.data.settlement).toEqual({
      currency: 'USD',
      amountFormat: 'minor_units',
      wholeRubOnly: false,
      fundingMode: 'prepaid',
    });
    expect(full.data.tenantAttestation).toBeNull();
    const limited = api.as(SANDBOX_KEYS.globetrotterLimited);
    const caps = await limited.get('/capabilities', CapabilitiesResponseSchema);
    expect(caps.data.grantedScopes).not.toContain('esims:read');
    expect(caps.data.grantedScopes).not.toContain('recipients:read');
    expectError(await limited.fail('GET', '/recipients'), 'scope_missing', 403);
    expectError(await limited.fail('GET', '/esims'), 'scope_missing', 403);

    const aurora = await api.as(SANDBOX_KEYS.aurora).get('/capabilities', CapabilitiesResponseSchema);
    expect(aurora.data.settlement).toMatchObject({ currency: 'RUB', wholeRubOnly: true });
    expect(aurora.data.tenantAttestation?.brandKey).toBe('aurora-travel');
  });

  it('limits the rate per key with Retry-After, and the control API can change the limit', async () => {
    const limited = api.as(SANDBOX_KEYS.globetrotterRateLimited);
    for (let i = 0; i < 5; i++) {
      await limited.get('/catalog/products?limit=1', ProductPageSchema);
    }
    const refused = await limited.fail('GET', '/catalog/products?limit=1');
    expectError(refused, 'rate_limited', 429);
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.error.params).toMatchObject({ limitPerMinute: 5, retryAfterSeconds: retryAfter });
    // Other keys are not affected.
    await api.get('/catalog/products?limit=1', ProductPageSchema);
    h.clock.advance(retryAfter * 1000);
    await limited.get('/catalog/products?limit=1', ProductPageSchema);

    await h.control.setRateLimit(SANDBOX_KEYS.globetrotter, 1);
    await api.get('/catalog/products?limit=1', ProductPageSchema);
    expectError(await api.fail('GET', '/catalog/products?limit=1'), 'rate_limited', 429);
    await h.control.setRateLimit(SANDBOX_KEYS.globetrotter, null);
    await api.get('/catalog/products?limit=1', ProductPageSchema);
  });

  it('counts each request once against the limit, on every path (a collection path matches two patterns)', async () => {
    await h.control.setRateLimit(SANDBOX_KEYS.globetrotter, 4);
    for (let i = 0; i < 4; i++) {
      const answer = await api.call('GET', '/account');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('RateLimit-Remaining')).toBe(String(3 - i));
    }
    expectError(await api.fail('GET', '/account'), 'rate_limited', 429);
    await h.control.setRateLimit(SANDBOX_KEYS.globetrotter, null);
  });

  it('keeps live state separate from test state', async () => {
    const live = api.as(SANDBOX_KEYS.globetrotterLive);
    const quote = await live.create('/quotes', { offerId: 'off_fr_5gb-30d_1' }, UpstreamQuoteResponseSchema);
    expect(quote.data.environment).toBe('live');
    const order = await live.create(
      '/orders',
      { quoteId: quote.data.id, externalRef: 'live_1' },
      OrderResponseSchema,
    );
    expect(order.data.environment).toBe('live');
    expectError(await api.fail('GET', `/orders/${order.data.id}`), 'order_not_found', 404);
    expectError(
      await api.fail('POST', '/orders', {
        body: { quoteId: quote.data.id, externalRef: 'x' },
        idempotencyKey: 'k',
      }),
      'quote_not_found',
      404,
    );
    expect((await api.get('/orders', OrderPageSchema)).data).toEqual([]);
    const liveAccount = await live.get('/account', AccountResponseSchema);
    const testAccount = await api.get('/account', AccountResponseSchema);
    expect(liveAccount.data.id).toBe(SANDBOX_ACCOUNTS.globetrotter);
    expect(liveAccount.data.balance.balance.amountMinor).toBe(
      testAccount.data.balance.balance.amountMinor - quote.data.price.amountMinor,
    );
    expect((await live.get('/capabilities', CapabilitiesResponseSchema)).data.environment).toBe('live');
  });
});
