/**
 * @module
 * `GET /v1/destinations` and `GET /v1/destinations/{code}/plans`: the catalog as a traveller sees it,
 * localized and at retail prices only (the wholesale price never leaves the BFF).
 */
import { z } from 'zod';
import {
  ActivationStartSchema,
  PackageKindSchema,
  SupportLevelSchema,
  TopUpSupportSchema,
} from '../upstream/upstream-catalog';
import { LocaleSchema, NonNegativeMoneySchema } from '../upstream/upstream-common';
import { apiEnvelope } from './common';

/** A destination code: the product's 2-character `country.iso` (countries, and regions with a reserved code). */
export const DestinationCodeSchema = z.string().regex(/^[A-Z0-9]{2}$/, 'two upper-case letters or digits');

export const DestinationSchema = z.strictObject({
  code: DestinationCodeSchema,
  kind: z.enum(['country', 'region']),
  /** Localized in the requested locale. */
  name: z.string().min(1),
  flag: z.string(),
  /** The region a country belongs to, or the region's own slug. */
  region: z.string().nullable(),
  /** Lower ranks are shown first among popular destinations; null when not popular. */
  popularity: z.int().min(1).nullable(),
  fromPrice: NonNegativeMoneySchema,
  /**
   * `fromPrice` as the traveller reads it in the requested locale (`$4.50`, `1 290 ₽`), formatted by the BFF:
   * the widget's first screen then needs no `Intl.NumberFormat`, whose first use in a page is a long task on
   * a slow phone.
   */
  fromPriceLabel: z.string().min(1).max(64),
  planCount: z.int().min(1),
  /** Other names to match a search on (English name, ISO code, native names). */
  searchTerms: z.array(z.string()),
});
export type Destination = z.infer<typeof DestinationSchema>;

export const DestinationsQuerySchema = z.strictObject({ locale: LocaleSchema.optional() });

export const DestinationsResponseSchema = z.strictObject({
  data: z.array(DestinationSchema),
  meta: z.strictObject({
    requestId: z.string().min(1),
    apiVersion: z.literal('2.0.0'),
    catalogVersion: z.int().min(0),
    locale: LocaleSchema,
  }),
});
export type DestinationsResponse = z.infer<typeof DestinationsResponseSchema>;

/** One plan as the traveller compares them. */
export const PlanSchema = z.strictObject({
  offerId: z.string().min(1).max(64),
  productId: z.string().min(1),
  title: z.string().min(1),
  destination: z.strictObject({ code: DestinationCodeSchema, name: z.string(), flag: z.string() }),
  kind: PackageKindSchema,
  /** Total data; null for unlimited and per-day plans. */
  dataMb: z.int().min(0).nullable(),
  /** Data per day for day passes. */
  dailyDataMb: z.int().min(0).nullable(),
  unlimited: z.boolean(),
  durationDays: z.int().min(1),
  /** Retail price in the partner's currency. */
  price: NonNegativeMoneySchema,
  fiveG: SupportLevelSchema,
  tethering: SupportLevelSchema,
  topUp: TopUpSupportSchema,
  networks: z.array(z.string()),
  networkTypes: z.array(z.string()),
  activation: z.strictObject({ startsAt: ActivationStartSchema, windowDays: z.int().min(0).nullable() }),
});
export type Plan = z.infer<typeof PlanSchema>;

export const PlansResponseSchema = z.strictObject({
  data: z.array(PlanSchema),
  meta: z.strictObject({
    requestId: z.string().min(1),
    apiVersion: z.literal('2.0.0'),
    catalogVersion: z.int().min(0),
    locale: LocaleSchema,
    destination: DestinationSchema,
  }),
});
export type PlansResponse = z.infer<typeof PlansResponseSchema>;

export const PlanResponseSchema = apiEnvelope(PlanSchema);

/** `GET /v1/catalog/{widgetId}`: the current version of a widget's public catalog and its address. */
export const PublicCatalogSchema = z.strictObject({
  version: z.string().min(1),
  /** `{path}/{locale}/destinations` and `{path}/{locale}/plans/{code}`. */
  path: z.string().startsWith('/'),
  locales: z.array(LocaleSchema).min(1),
});
export type PublicCatalog = z.infer<typeof PublicCatalogSchema>;
export const PublicCatalogResponseSchema = apiEnvelope(PublicCatalogSchema);
