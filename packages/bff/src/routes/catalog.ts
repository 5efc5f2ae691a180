/**
 * @module
 * `GET /v1/destinations` and `GET /v1/destinations/{code}/plans`: the catalog at retail prices, localized,
 * from the widget's cached snapshot, with a strong `ETag` and `304 Not Modified`.
 */
import {
  DestinationCodeSchema,
  DestinationsQuerySchema,
  type DestinationsResponse,
  type Locale,
  type PlansResponse,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import { ApiError } from '../errors';
import { answerBody, answerJson, answerMeta, encodedOnce } from '../http/answer';
import type { AppEnv, HeaderRecord } from '../http/app-env';
import { notModified } from '../http/conditional-request';
import { parseOrThrow } from '../http/json-body';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { RouteHandlers } from './mount-routes';

/** Revalidate every time (the ETag makes that cheap); never stored by shared caches. */
const CACHE_CONTROL = 'private, no-cache';

/** The catalog routes (behind the session auth). */
export function catalogHandlers(): RouteHandlers<'listDestinations' | 'listPlans'> {
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

  return {
    async listDestinations(c) {
      return await destinationsAnswer(c, c.get('widget'), localeOf(c), { 'Cache-Control': CACHE_CONTROL });
    },
    async listPlans(c) {
      return await plansAnswer(c, c.get('widget'), localeOf(c), { 'Cache-Control': CACHE_CONTROL });
    },
  };
}

/**
 * The destinations answer of `widget` in `locale` (304 when the client holds it), with `headers` (caching). The
 * catalog service hands out each locale's list as the same array until the snapshot changes, so the list is
 * encoded once per snapshot: encoding it again on every read would be the read's dearest part.
 */
export async function destinationsAnswer(
  c: Context<AppEnv>,
  widget: WidgetRuntime,
  locale: Locale,
  headers: HeaderRecord,
) {
  const view = await widget.catalog.destinations(locale);
  const answerHeaders = { ...headers, ETag: view.etag };
  if (notModified(c, view.etag)) return answerBody(c, null, 304, answerHeaders);
  const meta: DestinationsResponse['meta'] = {
    ...answerMeta(c),
    catalogVersion: view.catalogVersion,
    locale,
  };
  return answerJson(c, { data: encodedOnce(c, view.destinations), meta }, 200, answerHeaders);
}

/** The plans answer of the path's destination code (304 when the client holds it), with `headers`; as above. */
export async function plansAnswer(
  c: Context<AppEnv>,
  widget: WidgetRuntime,
  locale: Locale,
  headers: HeaderRecord,
) {
  const code = DestinationCodeSchema.safeParse((c.req.param('code') ?? '').toUpperCase());
  if (!code.success) throw new ApiError('destination_not_found', { params: { field: 'code' } });
  const view = await widget.catalog.plans(code.data, locale);
  const answerHeaders = { ...headers, ETag: view.etag };
  if (notModified(c, view.etag)) return answerBody(c, null, 304, answerHeaders);
  const meta: PlansResponse['meta'] = {
    ...answerMeta(c),
    catalogVersion: view.catalogVersion,
    locale,
    destination: view.destination,
  };
  return answerJson(c, { data: encodedOnce(c, view.plans), meta }, 200, answerHeaders);
}
