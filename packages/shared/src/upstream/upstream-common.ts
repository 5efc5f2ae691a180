/**
 * @module
 * Shared types of the Partner eSIM Commerce API: money, environment, locale, timestamps and the
 * single-resource, page and catalog-page envelopes every response is wrapped in.
 */
import { z } from 'zod';

/** ISO 8601 date-time with an offset (`2026-11-22T10:00:00Z`). */
export const DateTimeSchema = z.iso.datetime({ offset: true });

/** Settlement and price currency. */
export const CurrencySchema = z.enum(['RUB', 'USD']);
export type Currency = z.infer<typeof CurrencySchema>;

/** Money in minor units; the plain variant may be negative (balances). */
export const MoneySchema = z.strictObject({
  amountMinor: z.int(),
  currency: CurrencySchema,
});
export type Money = z.infer<typeof MoneySchema>;

/** Money in minor units, never below zero (prices, reservations). */
export const NonNegativeMoneySchema = z.strictObject({
  amountMinor: z.int().min(0),
  currency: CurrencySchema,
});
export type NonNegativeMoney = z.infer<typeof NonNegativeMoneySchema>;

/** `test` and `live` have separate keys and separate state. */
export const EnvironmentSchema = z.enum(['test', 'live']);
export type Environment = z.infer<typeof EnvironmentSchema>;

/** The languages of recipients, delivery email and the widget. */
export const LocaleSchema = z.enum(['ru', 'en', 'es', 'de', 'fr']);
export type Locale = z.infer<typeof LocaleSchema>;

/** The contract version every response carries in `meta.apiVersion`. */
export const API_VERSION = '2.0.0';

/** `meta` of a single-resource response. */
export const ResponseMetaSchema = z.strictObject({
  requestId: z.string().min(1),
  apiVersion: z.literal(API_VERSION),
});
export type ResponseMeta = z.infer<typeof ResponseMetaSchema>;

/** `meta` of a list response: an opaque cursor bound to the normalized query and snapshot. */
export const PageMetaSchema = ResponseMetaSchema.extend({
  nextCursor: z.string().min(1).nullable(),
  hasMore: z.boolean(),
});
export type PageMeta = z.infer<typeof PageMetaSchema>;

/** `meta` of a catalog page: the page meta plus the snapshot it was cut from. */
export const CatalogPageMetaSchema = PageMetaSchema.extend({
  catalogVersion: z.int().min(0),
  generatedAt: DateTimeSchema,
  syncMode: z.literal('full_snapshot'),
  updatedSince: DateTimeSchema.nullable(),
});
export type CatalogPageMeta = z.infer<typeof CatalogPageMetaSchema>;

/** `{ data, meta }` around one resource. */
export function responseEnvelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ data, meta: ResponseMetaSchema });
}

/** `{ data: [...], meta }` around one page of a list. */
export function pageEnvelope<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), meta: PageMetaSchema });
}

/** `{ data: [...], meta }` around one page of the catalog. */
export function catalogPageEnvelope<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), meta: CatalogPageMetaSchema });
}

/** A partner's own reference (`externalRef`) on orders, recipients, accounts, action requests and keys. */
export const ExternalRefSchema = z.string().min(1).max(128);

/** An absolute URI (links the client follows: `resourceUrl`, `actionsUrl`, `href`, install links). */
export const UriSchema = z.url();

/** A public HTTPS URL (brand logo and support pages). */
export const HttpsUrlSchema = z.url({ protocol: /^https$/ });

/** A SHA-256 digest as 64 lowercase hex characters. */
export const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex characters');

/** A discount or participation percentage, 0..100 inclusive. */
export const PercentSchema = z.number().min(0).max(100);

/** A link to an order: `{ id, externalRef, resourceUrl }` on eSIMs and action requests. */
export const OrderRefSchema = z.strictObject({
  id: z.string(),
  externalRef: ExternalRefSchema,
  resourceUrl: UriSchema,
});
export type OrderRef = z.infer<typeof OrderRefSchema>;

/**
 * An array whose items must be unique (`scopes`, `allowedCidrs`); each repeated item gets its own issue at
 * its index.
 */
export function uniqueArray<T extends z.ZodType>(item: T) {
  return z.array(item).superRefine((items, ctx) => {
    const seen = new Set<unknown>();
    items.forEach((value, index) => {
      if (seen.has(value)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `duplicate item ${JSON.stringify(value)}` });
      }
      seen.add(value);
    });
  });
}

/** The message of a patch request that has no property at all. */
export const AT_LEAST_ONE_PROPERTY = 'at least one property is required';

/** A patch request body: the given strict object, refused when it sets no property. */
export function patchRequest<T extends z.ZodObject>(shape: T) {
  return shape.refine((body) => Object.keys(body as object).length > 0, { message: AT_LEAST_ONE_PROPERTY });
}
