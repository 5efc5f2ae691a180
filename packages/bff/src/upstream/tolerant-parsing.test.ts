import { CreateOrderRequestSchema, OfferPageSchema, OfferSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tolerant } from './tolerant-parsing';

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

  it('still refuses a wrong type, a missing key and a bad enum value', () => {
    const schema = tolerant(OfferSchema);
    expect(schema.safeParse({ ...offer, price: { amountMinor: '500', currency: 'USD' } }).success).toBe(
      false,
    );
    expect(schema.safeParse({ ...offer, catalogVersion: undefined }).success).toBe(false);
    expect(
      schema.safeParse({ ...offer, capabilities: { ...offer.capabilities, fiveG: 'maybe' } }).success,
    ).toBe(false);
    expect(schema.safeParse({ ...offer, price: { amountMinor: -1, currency: 'USD' } }).success).toBe(false);
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
