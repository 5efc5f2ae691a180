/** The API's description holds together: one route per id and per method and path, each reachable by its id. */
import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../route-spec';
import * as apiRoutes from './index';
import { API_ROUTES } from './index';
import { PARTNER_API_ROUTES } from './partner-api-routes';

const ROUTES: readonly RouteSpec[] = API_ROUTES;

describe('the API description', () => {
  it('has one route per id and per method and path', () => {
    expect(new Set(ROUTES.map((route) => route.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((route) => `${route.method} ${route.path}`)).size).toBe(ROUTES.length);
  });

  it('exports each route under its own id', () => {
    for (const route of ROUTES) expect((apiRoutes as Record<string, unknown>)[route.id]).toBe(route);
  });

  it('lists every route behind the partner secret among the partner routes, and only those', () => {
    const partner = ROUTES.filter((route) => route.auth === 'partner');
    expect(PARTNER_API_ROUTES.map((route) => route.id)).toEqual(partner.map((route) => route.id));
    for (const route of partner) expect(route.path).toMatch(/^\/v1\/partner\//);
  });

  it('gives a JSON answer a schema, a create an Idempotency-Key only behind a credential that scopes it', () => {
    for (const route of ROUTES) {
      expect(route.response !== undefined || route.contentType !== undefined || route.auth === 'public').toBe(
        true,
      );
      if (route.idempotent) expect(route.auth === 'partner' || route.auth.startsWith('session')).toBe(true);
      if (route.body !== undefined) expect(route.method).toBe('POST');
    }
  });
});
