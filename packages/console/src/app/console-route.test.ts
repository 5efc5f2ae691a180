/** The console's pages are addressed by the fragment, and back again. */
import { describe, expect, it } from 'vitest';
import { readRoute, routeHref } from './console-route';

describe('console routes', () => {
  it('reads a sale, a section and the search with its query; anything else is the search', () => {
    expect(readRoute('#/sales/chk_1')).toMatchObject({ page: 'sale', id: 'chk_1' });
    expect(readRoute('#/webhooks').page).toBe('webhooks');
    expect(readRoute('#/sales?q=jane%40example.com').query.get('q')).toBe('jane@example.com');
    expect(readRoute('').page).toBe('sales');
    expect(readRoute('#content').page).toBe('sales');
  });

  it('writes the fragment it reads', () => {
    expect(readRoute(routeHref('sale', 'chk_a b'))).toMatchObject({ page: 'sale', id: 'chk_a b' });
    expect(routeHref('sales', undefined, new URLSearchParams({ q: 'x' }))).toBe('#/sales?q=x');
  });
});
