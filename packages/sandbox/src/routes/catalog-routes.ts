/**
 * @module
 * `GET /catalog/products`, `GET /catalog/products/{id}`, `GET /catalog/offers?productId=…`,
 * `GET /catalog/offers/{id}`: catalog pages cut from the environment's snapshot with opaque cursors, and
 * offers priced for the key's account.
 */
import { DateTimeSchema, type Offer, type Product } from '@esim-embed/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { CatalogOffer } from '../catalog/catalog-generator';
import { isoTime } from '../clock';
import { requireScope } from '../http/api-key-auth';
import { normalizedQuery, paginate } from '../http/cursors';
import { sendPage, sendResource } from '../http/envelope';
import { validate } from '../http/request-body';
import type { SandboxEnv } from '../http/sandbox-env';
import { SandboxError } from '../http/sandbox-error';
import { pricedOffer, requireRouteServed } from '../state/order-desk';
import type { SandboxState } from '../state/sandbox-state';

/** Default and largest page size of list operations. */
export const PAGE_LIMIT = { default: 100, max: 500 } as const;

/** Query of the catalog lists (the contract leaves list queries to the service). */
export const CatalogQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default),
  cursor: z.string().min(1).optional(),
  updatedSince: DateTimeSchema.optional(),
  /** Only products (or offers of products) of this destination code. */
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'expected a two-letter code')
    .transform((code) => code.toUpperCase())
    .optional(),
  /** Only offers of this product (offers list only). */
  productId: z.string().min(1).optional(),
});

/** The catalog routes. */
export function catalogRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();
  const { catalog } = state;

  function listContext(c: Context<SandboxEnv>, resource: string) {
    const auth = requireScope(c, 'catalog:read');
    const query = validate(CatalogQuerySchema, c.req.query(), 'query');
    const updatedSince = query.updatedSince ? isoTime(Date.parse(query.updatedSince)) : null;
    const binding = {
      query: normalizedQuery(resource, `${auth.env.environment}:${auth.account.seed.id}`, {
        country: query.country,
        productId: query.productId,
        updatedSince,
      }),
      snapshot: auth.env.catalogVersion,
    };
    const meta = {
      catalogVersion: auth.env.catalogVersion,
      generatedAt: isoTime(auth.env.catalogGeneratedAtMs),
      syncMode: 'full_snapshot' as const,
      updatedSince,
    };
    return { auth, query, binding, meta };
  }

  routes.get('/catalog/products', function listProducts(c) {
    const { query, binding, meta } = listContext(c, 'catalog/products');
    const products: readonly Product[] = query.country
      ? catalog.products.filter((product) => product.country.iso === query.country)
      : catalog.products;
    const page = paginate(products, {
      secret: state.cursorSecret,
      binding,
      cursor: query.cursor,
      limit: query.limit,
    });
    return sendPage(c, page.items, { ...meta, nextCursor: page.nextCursor, hasMore: page.hasMore });
  });

  routes.get('/catalog/products/:id', function readProduct(c) {
    requireScope(c, 'catalog:read');
    const product = catalog.productById.get(c.req.param('id'));
    if (!product) throw new SandboxError('product_not_found', { params: { productId: c.req.param('id') } });
    return sendResource(c, product);
  });

  routes.get('/catalog/offers', function listOffers(c) {
    const { auth, query, binding, meta } = listContext(c, 'catalog/offers');
    let offers: readonly CatalogOffer[] = catalog.offers;
    if (query.productId !== undefined) {
      if (!catalog.productById.has(query.productId)) {
        throw new SandboxError('product_not_found', { params: { productId: query.productId } });
      }
      offers = catalog.offersByProduct.get(query.productId) ?? [];
    }
    if (query.country) offers = offers.filter((offer) => offer.iso === query.country);
    const page = paginate(offers, {
      secret: state.cursorSecret,
      binding,
      cursor: query.cursor,
      limit: query.limit,
    });
    const priced: Offer[] = page.items.map((offer) => pricedOffer(state, auth.env, auth.account, offer.id));
    return sendPage(c, priced, { ...meta, nextCursor: page.nextCursor, hasMore: page.hasMore });
  });

  routes.get('/catalog/offers/:id', function readOffer(c) {
    const auth = requireScope(c, 'catalog:read');
    const offer = pricedOffer(state, auth.env, auth.account, c.req.param('id'));
    requireRouteServed(auth.account, offer.id);
    return sendResource(c, offer);
  });

  return routes;
}
