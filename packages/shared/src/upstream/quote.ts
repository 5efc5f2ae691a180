/**
 * @module
 * Quotes: a price held for one offer until `expiresAt`, for a new eSIM (`issue`) or a top-up.
 */
import { z } from 'zod';
import { OfferSchema, ProductSchema } from './upstream-catalog';
import {
  DateTimeSchema,
  EnvironmentSchema,
  NonNegativeMoneySchema,
  responseEnvelope,
} from './upstream-common';

/** What a quote or an order buys: a new eSIM or a top-up of an issued one. */
export const PurchaseKindSchema = z.enum(['issue', 'top_up']);
export type PurchaseKind = z.infer<typeof PurchaseKindSchema>;

/** `POST /quotes`: `esimId` only for a profile-specific top-up offer. */
export const QuoteRequestSchema = z.strictObject({
  offerId: z.string().min(1).max(64),
  esimId: z.string().min(1).optional(),
});
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;

/** A quote: the offer's price and versions recorded at creation. */
export const QuoteSchema = z.strictObject({
  id: z.string(),
  environment: EnvironmentSchema,
  kind: PurchaseKindSchema,
  targetEsimId: z.string().nullable(),
  offerId: z.string(),
  productId: z.string(),
  price: NonNegativeMoneySchema,
  recommendedRetail: NonNegativeMoneySchema,
  catalogVersion: z.int().min(0),
  pricingVersion: z.string(),
  product: ProductSchema,
  offer: OfferSchema,
  createdAt: DateTimeSchema,
  expiresAt: DateTimeSchema,
});
export type Quote = z.infer<typeof QuoteSchema>;

export const QuoteResponseSchema = responseEnvelope(QuoteSchema);
export type QuoteResponse = z.infer<typeof QuoteResponseSchema>;
