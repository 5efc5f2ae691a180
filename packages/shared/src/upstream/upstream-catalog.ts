/**
 * @module
 * The catalog: products (a country or region and a package) and offers (a product at a price).
 */
import { z } from 'zod';
import { catalogPageEnvelope, NonNegativeMoneySchema, responseEnvelope } from './upstream-common';

export const PackageKindSchema = z.enum(['fixed', 'unlimited', 'no_expiry', 'daypass']);
export type PackageKind = z.infer<typeof PackageKindSchema>;

/** When a plan's validity starts to run. */
export const ActivationStartSchema = z.enum([
  'purchase',
  'first_installation',
  'first_connection',
  'unknown',
]);
export type ActivationStart = z.infer<typeof ActivationStartSchema>;

export const ActivationRuleSchema = z.strictObject({
  startsAt: ActivationStartSchema,
  windowDays: z.int().nullable(),
});
export type ActivationRule = z.infer<typeof ActivationRuleSchema>;

export const ProductCountrySchema = z.strictObject({
  iso: z.string().length(2),
  name: z.string(),
  flag: z.string(),
  region: z.string().nullable(),
});

export const ProductPackageSchema = z.strictObject({
  kind: PackageKindSchema,
  dataMb: z.int().nullable(),
  dailyDataMb: z.int().nullable(),
  durationDays: z.int().min(1),
  unlimited: z.boolean(),
});

export const ProductSchema = z.strictObject({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  country: ProductCountrySchema,
  package: ProductPackageSchema,
  activation: ActivationRuleSchema,
  lifecycle: z.literal('available'),
});
export type Product = z.infer<typeof ProductSchema>;

export const SupportLevelSchema = z.enum(['supported', 'unsupported', 'unknown']);
export type SupportLevel = z.infer<typeof SupportLevelSchema>;

export const TopUpSupportSchema = z.enum(['guaranteed', 'not_guaranteed']);
export type TopUpSupport = z.infer<typeof TopUpSupportSchema>;

export const OfferCapabilitiesSchema = z.strictObject({
  topUp: TopUpSupportSchema,
  fiveG: SupportLevelSchema,
  tethering: SupportLevelSchema,
  networks: z.array(z.string()),
  networkTypes: z.array(z.string()),
});

export const OfferSchema = z.strictObject({
  id: z.string(),
  productId: z.string(),
  price: NonNegativeMoneySchema,
  recommendedRetail: NonNegativeMoneySchema,
  capabilities: OfferCapabilitiesSchema,
  activation: ActivationRuleSchema,
  catalogVersion: z.int().min(0),
  pricingVersion: z.string(),
});
export type Offer = z.infer<typeof OfferSchema>;

export const ProductPageSchema = catalogPageEnvelope(ProductSchema);
export type ProductPage = z.infer<typeof ProductPageSchema>;

export const OfferPageSchema = catalogPageEnvelope(OfferSchema);
export type OfferPage = z.infer<typeof OfferPageSchema>;

export const OfferResponseSchema = responseEnvelope(OfferSchema);
export type OfferResponse = z.infer<typeof OfferResponseSchema>;
