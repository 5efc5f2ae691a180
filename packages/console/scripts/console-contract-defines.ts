/**
 * @module
 * The console contract reduced at build time to the values the page sends and lists: each route's method and
 * path (`{ readSale: ['GET', '/console/api/sales/{checkoutId}'], … }`), the CSRF header's name, the funnel's
 * steps, the help requests' reasons and the manage link's fragment parameter — defined as `__CONSOLE_CONTRACT__`
 * by the Vite and vitest configs. Those values live beside zod schemas in `shared`, and a schema built from
 * another (`.extend`) is not something a bundler can drop; so the page's production build carries no schema (and
 * no zod), while development and tests still parse every answer with the route table's schemas.
 */

import { fileURLToPath } from 'node:url';
import type * as Shared from '@esim-embed/shared';
import type * as ConsoleContract from '@esim-embed/shared/console';
import { runnerImport } from 'vite';

/** `define` entries for a Vite config (the shared package is TypeScript: Vite's module runner reads it). */
export async function consoleContractDefines(): Promise<Record<string, string>> {
  const load = async <T>(id: string) =>
    (
      await runnerImport<T>(id, {
        // Resolved from this package, wherever the command runs (the root's vitest runs every project).
        root: fileURLToPath(new URL('..', import.meta.url)),
        configFile: false,
        logLevel: 'error',
      })
    ).module;
  const contract = await load<typeof ConsoleContract>('@esim-embed/shared/console');
  const shared = await load<typeof Shared>('@esim-embed/shared');
  return {
    __CONSOLE_CONTRACT__: JSON.stringify({
      routes: Object.fromEntries(
        contract.CONSOLE_ROUTES.map((route) => [
          route.id,
          [route.method, `${contract.CONSOLE_API_PREFIX}${route.path}`],
        ]),
      ),
      csrfHeader: contract.CONSOLE_CSRF_HEADER,
      funnelSteps: contract.FUNNEL_STEPS,
      actionReasons: Object.keys(shared.ACTION_TYPE_BY_REASON),
      manageTokenParam: shared.MANAGE_TOKEN_FRAGMENT_PARAM,
    }),
  };
}
