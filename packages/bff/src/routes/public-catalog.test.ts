/**
 * The public, versioned catalog over HTTP against the sandbox: the session names its address; the answers are
 * the session routes' answers, readable by any page without a session and kept by any cache for a year; a new
 * catalog snapshot or price gives a new address and the old one is not found (never kept); unknown widgets,
 * locales and codes are refused cleanly.
 */
import {
  DestinationsResponseSchema,
  PlansResponseSchema,
  PublicCatalogResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openWidget, type Stack, startStack } from '../../testing/stack';

let stack: Stack;

/** The public catalog address a new session names. */
async function catalogPath(): Promise<string> {
  const path = (await openWidget(stack.server.url, 'shop')).session.catalog?.path;
  if (path === undefined) throw new Error('the session named no public catalog');
  return path;
}
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('the public catalog', () => {
  it('is the session routes’ catalog under an immutable address any page and any cache may read', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const path = page.session.catalog?.path ?? '';
    expect(path).toMatch(/^\/v1\/catalog\/shop\/\d+-[0-9a-f]{16}$/);

    const own = await page.get('/v1/destinations?locale=de');
    // No session, another origin: the same list.
    const open = await call(stack.server.url, `${path}/de/destinations`, {
      headers: { Origin: 'https://elsewhere.example' },
    });
    expect(open.status).toBe(200);
    expect(DestinationsResponseSchema.parse(open.body).data).toEqual(own.body.data);
    expect(open.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    expect(open.headers.get('etag')).toBe(own.headers.get('etag'));

    const code = own.body.data[0].code as string;
    const plans = await call(stack.server.url, `${path}/de/plans/${code.toLowerCase()}`);
    expect(plans.status).toBe(200);
    expect(PlansResponseSchema.parse(plans.body).data).toEqual(
      (await page.get(`/v1/destinations/${code}/plans?locale=de`)).body.data,
    );
    const revalidated = await call(stack.server.url, `${path}/de/destinations`, {
      headers: { 'If-None-Match': open.headers.get('etag') as string },
    });
    expect(revalidated.status).toBe(304);

    const current = await call(stack.server.url, '/v1/catalog/shop');
    expect(PublicCatalogResponseSchema.parse(current.body).data.path).toBe(path);
    expect(current.headers.get('cache-control')).toBe('public, max-age=10');
  });

  it('moves to a new address when the catalog changes, and the old one is gone (not kept)', async () => {
    const before = await catalogPath();
    await stack.sandbox.control.bumpCatalog();
    await stack.bff.widgets.get('shop')?.catalog.refresh({ force: true });
    const after = await catalogPath();
    if (after === before)
      return expect.fail('the catalog version did not change: the sandbox control failed');
    const gone = await call(stack.server.url, `${before}/en/destinations`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.params).toMatchObject({
      reason: 'catalog_version_gone',
      current: after.split('/').pop(),
      path: after,
    });
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(gone.headers.get('access-control-allow-origin')).toBe('*');
    expect((await call(stack.server.url, `${after}/en/destinations`)).status).toBe(200);
  });

  it('refuses unknown widgets, locales and destinations in the envelope', async () => {
    const path = await catalogPath();
    const version = path.split('/').pop();
    expect(
      (await call(stack.server.url, `/v1/catalog/nobody/${version}/en/destinations`)).body.error.code,
    ).toBe('not_found');
    expect((await call(stack.server.url, `${path}/xx/destinations`)).body.error.code).toBe('not_found');
    expect((await call(stack.server.url, `${path}/en/plans/ZZ`)).body.error.code).toBe(
      'destination_not_found',
    );
    expect((await call(stack.server.url, `${path}/en/plans/not-a-code`)).status).toBe(404);
  });
});
