/**
 * @module
 * `GET /v1/destinations` and `GET /v1/destinations/{code}/plans`: the catalog at retail prices, localized,
 * from the widget's cached snapshot, with a strong `ETag` and `304 Not Modified`. The answer is the same for every
 * session of one widget and page origin, so the answer cache keeps it as it keeps the public catalog's, and serves
 * it to a reader whose session passes the session auth's checks there (`keptSessionReads`).
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
import { keepAnswer } from '../http/answer-cache';
import type { AppEnv, HeaderRecord } from '../http/app-env';
import { notModified } from '../http/conditional-request';
import { parseOrThrow } from '../http/json-body';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { RouteHandlers } from './mount-routes';
import type { KeptSessionReads } from './session-auth';

/** Revalidate every time (the ETag makes that cheap); never stored by shared caches. */
const CACHE_CONTROL = 'private, no-cache';

/** What a kept session read varies on beyond its widget: the page's origin, named in its CORS headers. */
const SESSION_READ_VARIES_ON = ['origin'] as const;

/**
 * The catalog routes (behind the session auth). With `kept` (an app with an answer cache), a read at the route's
 * own address, in the widget's default locale and from a page that names its origin, is kept per widget and
 * origin while the widget's catalog state is held.
 */
export function catalogHandlers(
  kept?: KeptSessionReads | undefined,
): RouteHandlers<'listDestinations' | 'listPlans'> {
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

  /** Asks the answer cache to keep this read's 200 (see above): `canonical` is the route's own address. */
  function keepWhileHeld(c: Context<AppEnv>, canonical: string): void {
    const widget = c.get('widget');
    const builtFrom = widget.catalog.held();
    if (kept === undefined || builtFrom === undefined || c.req.header('Origin') === undefined) return;
    // Spellings of the address (`/plans/tr`) answer the same but are not kept: one client cannot fill the cache.
    if (c.req.url.includes('?') || new URL(c.req.url).pathname !== canonical) return;
    keepAnswer(c, {
      builtFrom,
      current: () => widget.catalog.held(),
      variesOn: SESSION_READ_VARIES_ON,
      variant: { value: widget.config.id, of: kept.widgetOf },
      admit: (request) => kept.admit(request, widget),
    });
  }

  return {
    async listDestinations(c) {
      keepWhileHeld(c, '/v1/destinations');
      return await destinationsAnswer(c, c.get('widget'), localeOf(c), { 'Cache-Control': CACHE_CONTROL });
    },
    async listPlans(c) {
      keepWhileHeld(
        c,
        `/v1/destinations/${encodeURIComponent((c.req.param('code') ?? '').toUpperCase())}/plans`,
      );
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
