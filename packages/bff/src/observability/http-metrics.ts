/**
 * @module
 * The request histogram: one observation per request, labelled with the route pattern of the API description (set
 * on the context by `tagRoutes`, never the raw path, so ids do not multiply the series), the method and the
 * status class. The labelled children are bound once per route and class and reused: a request pays a map read
 * and an observe, nothing asynchronous.
 */

import type { RouteSpec } from '@esim-embed/shared';
import type { MiddlewareHandler } from 'hono';
import type { Histogram } from 'prom-client';
import type { AppEnv } from '../http/app-env';
import type { RequestObserver } from '../http/request-observer';

type Observer = ReturnType<Histogram<'route' | 'method' | 'status_class'>['labels']>;

/** The `route` label of a request that matched no described route (static files, unknown paths, preflights). */
export const NO_ROUTE = 'none';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/**
 * The observer of the request histogram, its labelled children bound once per route and status class: the app's
 * middleware and the answer cache (which answers before the app) record through the same one.
 */
export function requestObserver(histogram: Histogram<'route' | 'method' | 'status_class'>): RequestObserver {
  const byRoute = new Map<RouteSpec, Observer[]>();
  const byMethod = new Map<string, Observer[]>();

  function observers(route: string, method: string): Observer[] {
    return STATUS_CLASSES.map((statusClass) => histogram.labels(route, method, statusClass));
  }
  function bound(route: RouteSpec | undefined, method: string): Observer[] {
    let children: Observer[] | undefined;
    if (route !== undefined) {
      children = byRoute.get(route);
      if (children === undefined) {
        children = observers(route.path, route.method);
        byRoute.set(route, children);
      }
      return children;
    }
    // Without a route any method may come: only the ones HTTP names get a series of their own.
    const known = KNOWN_METHODS.has(method) ? method : 'OTHER';
    children = byMethod.get(known);
    if (children === undefined) {
      children = observers(NO_ROUTE, known);
      byMethod.set(known, children);
    }
    return children;
  }
  return function observeRequest(route, method, status, seconds) {
    bound(route, method)[Math.floor(status / 100) - 1]?.observe(seconds);
  };
}

/** Requests by route, method and status class, timed from this middleware on. */
export function httpMetrics(observe: RequestObserver): MiddlewareHandler<AppEnv> {
  return async function requestMetrics(c, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      observe(c.get('route'), c.req.method, c.res.status, (performance.now() - started) / 1000);
    }
  };
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
