import {
  AccountResponseSchema,
  CapabilitiesResponseSchema,
  OfferResponseSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { createHarness, expectError } from '../../testing/sandbox-harness';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '../seed/accounts';

describe('control API', () => {
  it('moves the clock, resets to the seed and reports its state', async () => {
    const h = createHarness();
    const start = await h.control.state();
    expect(start).toMatchObject({ clockOffsetMs: 0, faultInjection: false, faults: [] });
    expect(start.environments.test).toEqual({ catalogVersion: 1, pricingEpoch: 1, orders: 0 });
    const moved = await h.control.advanceClock(60_000);
    expect(Date.parse(moved.now) - Date.parse(start.now)).toBe(60_000);

    await h.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, { balanceMinor: 123 });
    await h.control.bumpPricing();
    const quote = await h.api.create('/quotes', { offerId: 'off_fr_5gb-30d_1' }, UpstreamQuoteResponseSchema);
    expect(quote.data.pricingVersion).toBe('pv2');
    expect((await h.api.get('/account', AccountResponseSchema)).data.balance.balance.amountMinor).toBe(123);

    const reset = await h.control.reset();
    expect(reset).toMatchObject({
      clockOffsetMs: 0,
      environments: { test: { catalogVersion: 1, pricingEpoch: 1 } },
    });
    expect((await h.api.get('/account', AccountResponseSchema)).data.balance.balance.amountMinor).toBe(
      2_500_000,
    );
    expectError(await h.api.fail('GET', `/quotes/${quote.data.id}`), 'quote_not_found', 404);
  });

  it('reads a quote back, and answers the contract envelope for unknown things', async () => {
    const h = createHarness();
    const quote = await h.api.create('/quotes', { offerId: 'off_fr_5gb-30d_1' }, UpstreamQuoteResponseSchema);
    expect((await h.api.get(`/quotes/${quote.data.id}`, UpstreamQuoteResponseSchema)).data).toEqual(
      quote.data,
    );
    await expect(h.control.setAccount('acc_nope', { balanceMinor: 1 })).rejects.toThrow(
      /404 account_not_found/,
    );
    await expect(h.control.expireQuote('qte_nope')).rejects.toThrow(/404 quote_not_found/);
    await expect(h.control.setEsim('esim_nope', { activate: true })).rejects.toThrow(/404 esim_not_found/);
    await expect(h.control.bumpPricing({ offerId: 'off_nope' })).rejects.toThrow(/404 offer_not_found/);
    await expect(h.control.advanceClock(-1)).rejects.toThrow(/422 validation_failed/);
  });
});

describe('supply and retail-brand controls', () => {
  it('sets the supply operations of capabilities and refuses an unserved route of a route-dependent issue', async () => {
    const h = createHarness();
    const issueOf = async () =>
      (await h.api.get('/capabilities', CapabilitiesResponseSchema)).data.supplyOperations.find(
        (operation) => operation.id === 'issue',
      );
    expect(await issueOf()).toEqual({ id: 'issue', availability: 'available', access: 'api' });
    await h.control.setSupply(SANDBOX_ACCOUNTS.globetrotter, {
      operations: [{ id: 'issue', availability: 'route_dependent', access: 'api' }],
      routeUnservedOfferIds: ['off_fr_5gb-30d_1'],
    });
    expect(await issueOf()).toEqual({ id: 'issue', availability: 'route_dependent', access: 'api' });
    expectError(await h.api.fail('GET', '/catalog/offers/off_fr_5gb-30d_1'), 'product_unavailable', 409);
    const quote = await h.api.create('/quotes', { offerId: 'off_fr_5gb-30d_1' }, UpstreamQuoteResponseSchema);
    expectError(
      await h.api.fail('POST', '/orders', {
        body: { quoteId: quote.data.id, externalRef: 'route-1' },
        idempotencyKey: 'route-1',
      }),
      'product_unavailable',
      409,
    );
    // Another account's supply is its own.
    const harbour = h.api.as(SANDBOX_KEYS.harbour);
    expect((await harbour.get('/catalog/offers/off_fr_5gb-30d_1', OfferResponseSchema)).data.id).toBe(
      'off_fr_5gb-30d_1',
    );
    await h.control.setSupply(SANDBOX_ACCOUNTS.globetrotter, { reset: true });
    expect(await issueOf()).toEqual({ id: 'issue', availability: 'available', access: 'api' });
    await expect(
      h.control.setSupply(SANDBOX_ACCOUNTS.globetrotter, {
        operations: [{ id: 'issue', availability: 'sometimes', access: 'api' } as never],
      }),
    ).rejects.toThrow(/422 validation_failed/);
  });

  it("sets the retail brands' status and live-checkout readiness", async () => {
    const h = createHarness();
    const harbour = h.api.as(SANDBOX_KEYS.harbour);
    await h.control.setAccount(SANDBOX_ACCOUNTS.harbour, {
      retailBrandStatus: 'paused',
      retailBrandLiveCheckoutReady: false,
    });
    const brand = (await harbour.get('/account', AccountResponseSchema)).data.retailBrands[0];
    expect(brand?.status).toBe('paused');
    expect(brand?.readiness.ready).toBe(false);
    expect(brand?.readiness.tracks.liveCheckout).toMatchObject({
      state: 'blocked',
      ready: false,
      blockers: [{ code: 'payment_provider_not_ready', category: 'payment' }],
    });
    await h.control.reset();
    const reset = (await harbour.get('/account', AccountResponseSchema)).data.retailBrands[0];
    expect(reset).toMatchObject({ status: 'active', readiness: { ready: true } });
  });
});
