/**
 * @module
 * Price books: versioned wholesale discounts of an account.
 */
import { z } from 'zod';
import { DateTimeSchema, PercentSchema, pageEnvelope, responseEnvelope } from './upstream-common';

/** A price book version. */
export const PriceBookSchema = z.strictObject({
  id: z.string(),
  version: z.string(),
  discountPct: PercentSchema,
  policy: z.string(),
  createdAt: DateTimeSchema,
});
export type PriceBook = z.infer<typeof PriceBookSchema>;

/** Create a price book version. */
export const PriceBookCreateRequestSchema = z.strictObject({
  discountPct: PercentSchema,
  reason: z.string().max(250).optional(),
});
export type PriceBookCreateRequest = z.infer<typeof PriceBookCreateRequestSchema>;

export const PriceBookResponseSchema = responseEnvelope(PriceBookSchema);
export type PriceBookResponse = z.infer<typeof PriceBookResponseSchema>;

export const PriceBookPageSchema = pageEnvelope(PriceBookSchema);
export type PriceBookPage = z.infer<typeof PriceBookPageSchema>;
