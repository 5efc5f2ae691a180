/**
 * @module
 * Fetches one consistent catalog snapshot from the upstream: every product and every offer, page by page,
 * all from the same `catalogVersion`. When the snapshot changes mid-walk (`cursor_expired`, or a page
 * from another version) the walk starts again.
 */
import type { Offer, Product } from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { UpstreamClient } from '../upstream/upstream-client';
import { UpstreamError } from '../upstream/upstream-error';

/** One consistent catalog: products and offers of a single `catalogVersion`, with lookups. */
export interface CatalogSnapshot {
  catalogVersion: number;
  /** The upstream's `generatedAt` of the snapshot. */
  generatedAt: string;
  products: readonly Product[];
  /** Offers whose product is in the snapshot. */
  offers: readonly Offer[];
  productById: ReadonlyMap<string, Product>;
  offerById: ReadonlyMap<string, Offer>;
  /** When the BFF finished fetching it (ms since the epoch). */
  fetchedAt: number;
}

/** Options of {@link syncCatalog}. */
export interface CatalogSyncOptions {
  logger: Logger;
  /** Items per page asked of the upstream. Default 200. */
  pageSize?: number;
  /** Walks started again after the snapshot changed, before giving up. Default 3. */
  maxRestarts?: number;
  /** The largest number of pages of one list (a guard against an upstream that never ends). Default 10 000. */
  maxPages?: number;
}

/** The snapshot moved under the walk: start again. */
class SnapshotChanged extends Error {}

interface Page<T> {
  data: T[];
  meta: { catalogVersion: number; generatedAt: string; nextCursor: string | null; hasMore: boolean };
}

/**
 * Every product and offer of the upstream's current catalog snapshot. Throws `upstream_unavailable`
 * (or the upstream's error) when it cannot be read, and `upstream_unavailable` when the snapshot keeps
 * changing faster than it can be read.
 */
export async function syncCatalog(
  upstream: UpstreamClient,
  options: CatalogSyncOptions,
): Promise<CatalogSnapshot> {
  const pageSize = options.pageSize ?? 200;
  const maxRestarts = options.maxRestarts ?? 3;
  const maxPages = options.maxPages ?? 10_000;
  for (let walk = 0; ; walk += 1) {
    try {
      const started = performance.now();
      const products = await walkPages<Product>(
        (cursor) => upstream.listProducts({ cursor, limit: pageSize }),
        undefined,
        maxPages,
      );
      const offers = await walkPages<Offer>(
        (cursor) => upstream.listOffers({ cursor, limit: pageSize }),
        products.catalogVersion,
        maxPages,
      );
      const snapshot = buildSnapshot(products, offers.items, options.logger);
      options.logger.info('catalog synced', {
        catalogVersion: snapshot.catalogVersion,
        products: snapshot.products.length,
        offers: snapshot.offers.length,
        walks: walk + 1,
        durationMs: Math.round(performance.now() - started),
      });
      return snapshot;
    } catch (error) {
      const changed =
        error instanceof SnapshotChanged ||
        (error instanceof UpstreamError && error.code === 'cursor_expired');
      if (!changed) throw error;
      options.logger.info('catalog changed during sync, starting again', { walk: walk + 1 });
      if (walk >= maxRestarts) {
        throw new ApiError('upstream_unavailable', { retryAfterSeconds: 5, cause: error });
      }
    }
  }
}

async function walkPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  expectedVersion: number | undefined,
  maxPages: number,
): Promise<{ items: T[]; catalogVersion: number; generatedAt: string }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let version = expectedVersion;
  let generatedAt = '';
  for (let page = 0; page < maxPages; page += 1) {
    const answer = await fetchPage(cursor);
    if (version === undefined) version = answer.meta.catalogVersion;
    if (answer.meta.catalogVersion !== version) throw new SnapshotChanged();
    generatedAt ||= answer.meta.generatedAt;
    items.push(...answer.data);
    if (!answer.meta.hasMore || !answer.meta.nextCursor) {
      return { items, catalogVersion: version, generatedAt };
    }
    cursor = answer.meta.nextCursor;
  }
  throw new ApiError('upstream_unavailable', {
    retryAfterSeconds: 60,
    cause: new Error(`the upstream catalog has more than ${maxPages} pages`),
  });
}

function buildSnapshot(
  products: { items: Product[]; catalogVersion: number; generatedAt: string },
  offers: Offer[],
  logger: Logger,
): CatalogSnapshot {
  const productById = new Map(products.items.map((product) => [product.id, product]));
  const kept = offers.filter((offer) => productById.has(offer.productId));
  if (kept.length < offers.length) {
    logger.warn('catalog offers without a product dropped', { dropped: offers.length - kept.length });
  }
  return {
    catalogVersion: products.catalogVersion,
    generatedAt: products.generatedAt,
    products: products.items,
    offers: kept,
    productById,
    offerById: new Map(kept.map((offer) => [offer.id, offer])),
    fetchedAt: Date.now(),
  };
}
