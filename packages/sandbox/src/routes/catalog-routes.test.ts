import {
  OfferPageSchema,
  OfferResponseSchema,
  ProductPageSchema,
  ProductSchema,
  responseEnvelope,
} from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { createHarness, expectError } from '../../testing/sandbox-harness';
import { SANDBOX_KEYS } from '../seed/accounts';

const ProductResponseSchema = responseEnvelope(ProductSchema);

describe('catalog pages and cursors', () => {
  const h = createHarness({ offerCount: 3000 });
  const { api } = h;

  it('walks the whole catalog with no duplicates and no gaps, ending with hasMore false', async () => {
    for (const resource of ['products', 'offers'] as const) {
      const schema = resource === 'products' ? ProductPageSchema : OfferPageSchema;
      const expected =
        resource === 'products' ? h.state.catalog.products.length : h.state.catalog.offers.length;
      const ids: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const page = await api.get(`/catalog/${resource}?limit=500${query}`, schema);
        pages += 1;
        ids.push(...page.data.map((item) => item.id));
        expect(page.meta).toMatchObject({ catalogVersion: 1, syncMode: 'full_snapshot', updatedSince: null });
        expect(page.meta.hasMore).toBe(page.meta.nextCursor !== null);
        cursor = page.meta.nextCursor;
      } while (cursor);
      expect(ids).toHaveLength(expected);
      expect(new Set(ids).size).toBe(expected);
      expect(pages).toBe(Math.ceil(expected / 500));
    }
  });

  it('uses 100 as the default page size and echoes updatedSince', async () => {
    const page = await api.get('/catalog/products?updatedSince=2026-01-01T00:00:00Z', ProductPageSchema);
    expect(page.data).toHaveLength(100);
    expect(page.meta.updatedSince).toBe('2026-01-01T00:00:00.000Z');
    expect(page.meta.hasMore).toBe(true);
  });

  it('answers cursor_invalid for another query or a tampered cursor, and cursor_expired after a new snapshot', async () => {
    const first = await api.get('/catalog/products?limit=10&country=FR', ProductPageSchema);
    const cursor = encodeURIComponent(first.meta.nextCursor ?? '');
    // The limit is not part of the query: another page size may continue.
    await api.get(`/catalog/products?limit=5&country=fr&cursor=${cursor}`, ProductPageSchema);
    const other = await api.fail('GET', `/catalog/products?limit=10&country=DE&cursor=${cursor}`);
    expectError(other, 'cursor_invalid', 400);
    expect(other.error.params).toMatchObject({ field: 'cursor', reason: 'query_mismatch' });
    expectError(
      await api.fail('GET', `/catalog/offers?limit=10&country=FR&cursor=${cursor}`),
      'cursor_invalid',
      400,
    );
    expectError(
      await api.as(SANDBOX_KEYS.lagoon).fail('GET', `/catalog/products?limit=10&country=FR&cursor=${cursor}`),
      'cursor_invalid',
      400,
    );
    const tampered = `${first.meta.nextCursor?.slice(0, -2)}xx`;
    expectError(
      await api.fail('GET', `/catalog/products?country=FR&cursor=${tampered}`),
      'cursor_invalid',
      400,
    );
    expectError(await api.fail('GET', '/catalog/products?cursor=garbage'), 'cursor_invalid', 400);

    await h.control.bumpCatalog();
    const expired = await api.fail('GET', `/catalog/products?limit=10&country=FR&cursor=${cursor}`);
    expectError(expired, 'cursor_expired', 410);
    const fresh = await api.get('/catalog/products?limit=10&country=FR', ProductPageSchema);
    expect(fresh.meta.catalogVersion).toBe(2);
  });

  it('filters by destination and by product, and reads one product and one offer', async () => {
    const fr = await api.get('/catalog/products?country=FR&limit=500', ProductPageSchema);
    expect(fr.data.length).toBeGreaterThan(3);
    expect(fr.data.every((product) => product.country.iso === 'FR')).toBe(true);
    expect(fr.data[0]?.country).toEqual({ iso: 'FR', name: 'France', flag: '🇫🇷', region: 'Europe' });
    const product = fr.data[0];
    if (!product) throw new Error('France has no products');
    const offers = await api.get(`/catalog/offers?productId=${product.id}`, OfferPageSchema);
    expect(offers.data.length).toBeGreaterThan(0);
    expect(offers.data.every((offer) => offer.productId === product.id)).toBe(true);
    const one = await api.get(`/catalog/offers/${offers.data[0]?.id}`, OfferResponseSchema);
    expect(one.data).toEqual(offers.data[0]);
    expect((await api.get(`/catalog/products/${product.id}`, ProductResponseSchema)).data).toEqual(product);
    expectError(await api.fail('GET', '/catalog/products/prd_nope'), 'product_not_found', 404);
    expectError(await api.fail('GET', '/catalog/offers?productId=prd_nope'), 'product_not_found', 404);
    expectError(await api.fail('GET', '/catalog/offers/off_nope'), 'offer_not_found', 404);
  });

  it('prices offers per account: USD below retail, RUB in whole roubles for wholeRubOnly', async () => {
    const usd = await api.get('/catalog/offers?country=FR', OfferPageSchema);
    const rub = await api.as(SANDBOX_KEYS.aurora).get('/catalog/offers?country=FR', OfferPageSchema);
    expect(rub.data.map((offer) => offer.id)).toEqual(usd.data.map((offer) => offer.id));
    for (const offer of usd.data) {
      expect(offer.price.currency).toBe('USD');
      expect(offer.recommendedRetail.amountMinor).toBeGreaterThan(offer.price.amountMinor);
      expect(offer.recommendedRetail.amountMinor % 100).toBe(99);
    }
    for (const offer of rub.data) {
      expect(offer.price.currency).toBe('RUB');
      expect(offer.price.amountMinor % 100).toBe(0);
      expect(offer.recommendedRetail.amountMinor % 100).toBe(0);
      expect(offer.recommendedRetail.amountMinor).toBeGreaterThan(offer.price.amountMinor);
    }
  });

  it('moves pricingVersion and prices when pricing is bumped', async () => {
    const before = await api.get('/catalog/offers/off_fr_5gb-30d_1', OfferResponseSchema);
    const state = await h.control.bumpPricing();
    const after = await api.get('/catalog/offers/off_fr_5gb-30d_1', OfferResponseSchema);
    expect(after.data.pricingVersion).not.toBe(before.data.pricingVersion);
    expect(after.data.catalogVersion).toBe(state.environments.test?.catalogVersion);
    expect(after.data.recommendedRetail.amountMinor).toBeGreaterThan(
      before.data.recommendedRetail.amountMinor,
    );
    // Live pricing did not move.
    const live = await api
      .as(SANDBOX_KEYS.globetrotterLive)
      .get('/catalog/offers/off_fr_5gb-30d_1', OfferResponseSchema);
    expect(live.data.pricingVersion).toBe('pv1');
  });
});
