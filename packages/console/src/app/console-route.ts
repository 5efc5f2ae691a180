/**
 * @module
 * Where the console is: its pages are addressed by the URL's fragment (`#/sales?q=jane%40example.com`,
 * `#/sales/chk_…`), so every page is one file the BFF serves at `/console/`, a reload or a shared link opens the
 * same page, and the browser's back button moves between pages.
 */

/** The console's pages. */
export type ConsolePage = 'sales' | 'sale' | 'webhooks' | 'money' | 'users' | 'audit';

/** A page and its parameters: `id` for a sale, the query's fields for the others. */
export interface ConsoleRoute {
  readonly page: ConsolePage;
  readonly id?: string;
  readonly query: URLSearchParams;
}

/** What a page is given: where it is (its id and query). */
export interface PageProps {
  readonly route: ConsoleRoute;
}

/** Reads a fragment (`#/sales/chk_1`) into a route; anything unknown is the sales search. */
export function readRoute(hash: string): ConsoleRoute {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  const [section, id] = path.split('/');
  const query = new URLSearchParams(search);
  if (section === 'sales' && id) return { page: 'sale', id: decodeURIComponent(id), query };
  if (section === 'webhooks' || section === 'money' || section === 'users' || section === 'audit') {
    return { page: section, query };
  }
  return { page: 'sales', query };
}

/** The fragment of a page: `routeHref('sale', 'chk_1')` → `#/sales/chk_1`. */
export function routeHref(page: ConsolePage, id?: string, query?: URLSearchParams): string {
  const path = page === 'sale' ? `sales/${encodeURIComponent(id ?? '')}` : page;
  const search = query?.toString();
  return `#/${path}${search ? `?${search}` : ''}`;
}
