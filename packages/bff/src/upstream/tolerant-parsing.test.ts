import {
  CreateOrderRequestSchema,
  GrantedScopeSchema,
  OfferPageSchema,
  OfferSchema,
  OrderStatusSchema,
} from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tolerant, tolerantPage } from './tolerant-parsing';
import { parseNotingUnknownValues } from './unknown-values';

const offer = {
  id: 'off_1',
  productId: 'prd_1',
  price: { amountMinor: 500, currency: 'USD' },
  recommendedRetail: { amountMinor: 900, currency: 'USD' },
  capabilities: {
    topUp: 'guaranteed',
    fiveG: 'supported',
    tethering: 'unknown',
    networks: ['A1'],
    networkTypes: ['5G'],
  },
  activation: { startsAt: 'first_connection', windowDays: 30 },
  catalogVersion: 3,
  pricingVersion: 'p1',
};
const page = {
  data: [offer],
  meta: {
    requestId: 'req_1',
    apiVersion: '2.0.0',
    nextCursor: null,
    hasMore: false,
    catalogVersion: 3,
    generatedAt: '2026-11-22T10:00:00Z',
    syncMode: 'full_snapshot',
    updatedSince: null,
  },
};

describe('tolerant', () => {
  it('strips unknown keys at every depth, where the strict schema refuses them', () => {
    const extra = {
      ...page,
      extraTop: 1,
      meta: { ...page.meta, extraMeta: 'x' },
      data: [
        {
          ...offer,
          loyaltyPoints: 5,
          price: { ...offer.price, tax: 1 },
          capabilities: { ...offer.capabilities, esim2: true },
        },
      ],
    };
    expect(OfferPageSchema.safeParse(extra).success).toBe(false);
    const parsed = tolerant(OfferPageSchema).parse(extra);
    expect(parsed).toEqual(page);
  });

  it('still refuses a wrong type, a missing key and an enum value with no safe meaning', () => {
    const schema = tolerant(OfferSchema);
    expect(schema.safeParse({ ...offer, price: { amountMinor: '500', currency: 'USD' } }).success).toBe(
      false,
    );
    expect(schema.safeParse({ ...offer, catalogVersion: undefined }).success).toBe(false);
    expect(schema.safeParse({ ...offer, price: { amountMinor: 500, currency: 'EUR' } }).success).toBe(false);
    expect(schema.safeParse({ ...offer, price: { amountMinor: -1, currency: 'USD' } }).success).toBe(false);
  });

  it('reads an unknown enum value with its safe meaning, notes it, and leaves out list entries it cannot read', () => {
    const odd = {
      ...page,
      meta: { ...page.meta, apiVersion: '2.7.0' },
      data: [{ ...offer, capabilities: { ...offer.capabilities, fiveG: 'partial', topUp: 'sometimes' } }],
    };
    expect(OfferPageSchema.safeParse(odd).success).toBe(false);
    const { result, unknown } = parseNotingUnknownValues(tolerant(OfferPageSchema), odd);
    expect(result.data?.meta.apiVersion).toBe('2.0.0');
    expect(result.data?.data[0]?.capabilities).toMatchObject({ fiveG: 'unknown', topUp: 'not_guaranteed' });
    expect(unknown).toHaveLength(3);
    expect(unknown).toEqual(
      expect.arrayContaining([
        { name: 'apiVersion', value: '2.7.0', readsAs: '2.0.0' },
        { name: 'top-up support', value: 'sometimes', readsAs: 'not_guaranteed' },
        { name: 'capability level', value: 'partial', readsAs: 'unknown' },
      ]),
    );
    const scopes = tolerant(z.object({ grantedScopes: z.array(GrantedScopeSchema) }));
    expect(scopes.parse({ grantedScopes: ['catalog:read', 'telepathy:write'] })).toEqual({
      grantedScopes: ['catalog:read'],
    });
    const status = tolerant(OrderStatusSchema);
    expect(status.parse('on_hold')).toBe('provisioning');
    expect(status.safeParse(5).success).toBe(false);
  });

  it('leaves out a page entry it cannot read, and reads the rest', () => {
    const odd = {
      ...page,
      data: [offer, { ...offer, id: 'off_2', price: { amountMinor: 1, currency: 'XTS' } }],
    };
    const { result, unknown } = parseNotingUnknownValues(tolerantPage(OfferPageSchema), odd);
    expect(result.data?.data.map((entry) => entry.id)).toEqual(['off_1']);
    expect(unknown).toEqual([
      { name: 'list entry', value: 'data[].price.currency: invalid_value', readsAs: 'left out' },
    ]);
    expect(tolerantPage(OfferPageSchema).safeParse({ ...page, meta: {} }).success).toBe(false);
  });

  it('keeps refinements, defaults and unions', () => {
    const order = tolerant(CreateOrderRequestSchema);
    expect(
      order.safeParse({ quoteId: 'q', externalRef: 'r', deliveryMode: 'platform', extra: 1 }).success,
    ).toBe(false);
    expect(order.parse({ quoteId: 'q', externalRef: 'r', extra: 1 })).toEqual({
      quoteId: 'q',
      externalRef: 'r',
    });
    const union = tolerant(
      z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('a'), n: z.int().default(2) }),
        z.strictObject({ kind: z.literal('b') }),
      ]),
    );
    expect(union.parse({ kind: 'a', more: true })).toEqual({ kind: 'a', n: 2 });
    expect(union.safeParse({ kind: 'c' }).success).toBe(false);
  });

  it('returns the same stripped schema for the same input', () => {
    expect(tolerant(OfferSchema)).toBe(tolerant(OfferSchema));
  });
});
