/**
 * @module
 * The contract's response envelopes: `{ data, meta: { requestId, apiVersion } }` around one resource or one
 * page, and the absolute base URL every link in a resource is built from.
 */
import { API_VERSION, type PageMeta, type ResponseMeta } from '@esim-embed/shared';
import type { Context } from 'hono';
import type { SandboxOptions } from '../options';
import type { SandboxEnv } from './sandbox-env';

/** `meta` of a single-resource response. */
export function responseMeta(c: Context<SandboxEnv>): ResponseMeta {
  return { requestId: c.get('requestId'), apiVersion: API_VERSION };
}

/** Answers `{ data, meta }` (200 for reads, 201 for creates). */
export function sendResource<T>(c: Context<SandboxEnv>, data: T, status: 200 | 201 = 200) {
  return c.json({ data, meta: responseMeta(c) }, status);
}

/** Answers a page: `{ data: [...], meta: { requestId, apiVersion, nextCursor, hasMore, ... } }`. */
export function sendPage<T, M extends Omit<PageMeta, 'requestId' | 'apiVersion'>>(
  c: Context<SandboxEnv>,
  data: T[],
  meta: M,
) {
  return c.json({ data, meta: { ...responseMeta(c), ...meta } }, 200);
}

/** The absolute origin links are built from: the configured public base URL, or the request's own origin. */
export function linkBase(c: Context<SandboxEnv>, options: SandboxOptions): string {
  if (options.publicBaseUrl) return options.publicBaseUrl.replace(/\/+$/, '');
  return new URL(c.req.url).origin;
}
