/**
 * @module
 * The request histogram's middleware: one observation per request, labelled with the route pattern of the
 * route table (set on the context by `tagRoutes`, never the raw path, so ids do not multiply the series), the
 * method and the status class. The labelled children are bound once per route and class and reused: a request
 * pays a map read and an observe, nothing asynchronous.
 */
import type { MiddlewareHandler } from 'hono';
import type { Histogram } from 'prom-client';
import type { AppEnv } from '../http/app-env';
import type { RouteSpec } from '../routes/route-table';

type Observer = ReturnType<Histogram<'route' | 'method' | 'status_class'>['labels']>;

/** The `route` label of a request that matched no route of the table (static files, unknown paths, preflights). */
export const NO_ROUTE = 'none';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** Requests by route, method and status class, timed from this middleware on. */
export function httpMetrics(
  histogram: Histogram<'route' | 'method' | 'status_class'>,
): MiddlewareHandler<AppEnv> {
  const byRoute = new Map<RouteSpec, Observer[]>();
  const byMethod = new Map<string, Observer[]>();

  function observers(route: string, method: string): Observer[] {
    return STATUS_CLASSES.map((statusClass) => histogram.labels(route, method, statusClass));
  }
  function observerOf(route: RouteSpec | undefined, method: string, status: number): Observer | undefined {
    let bound: Observer[] | undefined;
    if (route !== undefined) {
      bound = byRoute.get(route);
      if (bound === undefined) {
        bound = observers(route.path, route.method);
        byRoute.set(route, bound);
      }
    } else {
      // Without a route any method may come: only the ones HTTP names get a series of their own.
      const known = KNOWN_METHODS.has(method) ? method : 'OTHER';
      bound = byMethod.get(known);
      if (bound === undefined) {
        bound = observers(NO_ROUTE, known);
        byMethod.set(known, bound);
      }
    }
    return bound[Math.floor(status / 100) - 1];
  }

  return async function requestMetrics(c, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      observerOf(c.get('route'), c.req.method, c.res.status)?.observe((performance.now() - started) / 1000);
    }
  };
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
