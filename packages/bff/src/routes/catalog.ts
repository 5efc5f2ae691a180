/**
 * @module
 * `GET /v1/destinations` and `GET /v1/destinations/{code}/plans`: the catalog at retail prices, localized,
 * from the widget's cached snapshot, with a strong `ETag` and `304 Not Modified`.
 */
import {
  API_VERSION,
  DestinationCodeSchema,
  DestinationsQuerySchema,
  type DestinationsResponse,
  type Locale,
  type PlansResponse,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import { ApiError } from '../errors';
import { answerBody, answerHeaderRecord, type HeaderRecord } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { notModified } from '../http/conditional-request';
import { parseOrThrow } from '../http/json-body';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { RouteHandlers } from './mount-routes';

/** Revalidate every time (the ETag makes that cheap); never stored by shared caches. */
const CACHE_CONTROL = 'private, no-cache';

/** Query strings already validated, and the locale each asked for (the widget sends one of a handful). */
const validQueries = new Map<string, Locale | undefined>();

function localeOf(c: Context<AppEnv>): Locale {
  const url = c.req.url;
  const start = url.indexOf('?');
  const search = start === -1 ? '' : url.slice(start);
  let locale = validQueries.get(search);
  if (locale === undefined && !validQueries.has(search)) {
    locale = parseOrThrow(DestinationsQuerySchema, c.req.query(), 400, 'query').locale;
    if (validQueries.size < 64) validQueries.set(search, locale);
  }
  return locale ?? c.get('widget').config.defaultLocale;
}

/**
 * The answer bytes of a view's list, serialized and encoded once: the catalog service keeps each locale's destinations and
 * each destination's plans as the same array until the snapshot changes, so the array is the cache key and
 * a new snapshot's arrays simply miss: serializing the whole list again on every read would be its dearest part.
 */
const serialized = new WeakMap<object, Buffer>();
function answerPrefix(list: readonly unknown[]): Buffer {
  let bytes = serialized.get(list);
  if (bytes === undefined) {
    bytes = Buffer.from(`{"data":${JSON.stringify(list)},"meta":`);
    serialized.set(list, bytes);
  }
  return bytes;
}

/** A 200 answer's bytes around its request id and every header it carries (see http/answer-cache.ts). */
export interface AnswerParts {
  headers: HeaderRecord;
  head: Buffer;
  tail: Buffer;
}

/** Takes the parts of a 200 answer that may be served again to the next reader. */
export type KeepAnswer = (parts: AnswerParts) => void;

/** The answer's parts without its request id: `head` ends where the id begins, `tail` goes on after it. */
function partsAround(list: readonly unknown[], meta: { requestId: string }): Omit<AnswerParts, 'headers'> {
  const { requestId: _, ...rest } = meta;
  const restJson = JSON.stringify(rest);
  return {
    head: Buffer.concat([answerPrefix(list), Buffer.from('{"requestId":"')]),
    tail: Buffer.from(restJson === '{}' ? '"}}' : `",${restJson.slice(1)}}`),
  };
}

/**
 * A `{ data, meta }` answer: the list's bytes encoded once, the request's own `meta` (its request id first)
 * appended. `keep` gets the answer's parts when the route may serve it again.
 */
export function jsonAnswer(
  c: Context<AppEnv>,
  list: readonly unknown[],
  meta: { requestId: string },
  headers: HeaderRecord,
  keep?: KeepAnswer,
) {
  const routeHeaders = { ...headers, 'Content-Type': 'application/json' };
  const body = Buffer.concat([answerPrefix(list), Buffer.from(`${JSON.stringify(meta)}}`)]);
  if (keep !== undefined) {
    const { 'X-Request-Id': _, ...kept } = answerHeaderRecord(c, routeHeaders);
    keep({ headers: kept, ...partsAround(list, meta) });
  }
  return answerBody(c, body, 200, routeHeaders);
}

/** The catalog routes (behind the session auth). */
export function catalogHandlers(): RouteHandlers<'listDestinations' | 'listPlans'> {
  return { listDestinations, listPlans };
}

async function listDestinations(c: Context<AppEnv>) {
  return await destinationsAnswer(c, c.get('widget'), localeOf(c), { 'Cache-Control': CACHE_CONTROL });
}

async function listPlans(c: Context<AppEnv>) {
  return await plansAnswer(c, c.get('widget'), localeOf(c), { 'Cache-Control': CACHE_CONTROL });
}

/**
 * The destinations answer of `widget` in `locale` (304 when the client holds it), with `headers` (caching);
 * `keep` gets a 200's parts.
 */
export async function destinationsAnswer(
  c: Context<AppEnv>,
  widget: WidgetRuntime,
  locale: Locale,
  headers: HeaderRecord,
  keep?: KeepAnswer,
) {
  const view = await widget.catalog.destinations(locale);
  const answerHeaders = { ...headers, ETag: view.etag };
  if (notModified(c, view.etag)) return answerBody(c, null, 304, answerHeaders);
  const meta: DestinationsResponse['meta'] = {
    requestId: c.get('requestId'),
    apiVersion: API_VERSION,
    catalogVersion: view.catalogVersion,
    locale,
  };
  return jsonAnswer(c, view.destinations, meta, answerHeaders, keep);
}

/** The plans answer of the path's destination code (304 when the client holds it), with `headers`; `keep` as above. */
export async function plansAnswer(
  c: Context<AppEnv>,
  widget: WidgetRuntime,
  locale: Locale,
  headers: HeaderRecord,
  keep?: KeepAnswer,
) {
  const code = DestinationCodeSchema.safeParse((c.req.param('code') ?? '').toUpperCase());
  if (!code.success) throw new ApiError('destination_not_found', { params: { field: 'code' } });
  const view = await widget.catalog.plans(code.data, locale);
  const answerHeaders = { ...headers, ETag: view.etag };
  if (notModified(c, view.etag)) return answerBody(c, null, 304, answerHeaders);
  const meta: PlansResponse['meta'] = {
    requestId: c.get('requestId'),
    apiVersion: API_VERSION,
    catalogVersion: view.catalogVersion,
    locale,
    destination: view.destination,
  };
  return jsonAnswer(c, view.plans, meta, answerHeaders, keep);
}
