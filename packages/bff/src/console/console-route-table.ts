/**
 * @module
 * The console's routes mounted from their one description (`CONSOLE_ROUTES` in shared): each route's handler,
 * registered by id, behind the auth its least role names. A described route without a handler, or a handler of no
 * route, stops the start — as the BFF's own route table does.
 */
import { API_VERSION } from '@esim-embed/shared';
import { CONSOLE_API_PREFIX, CONSOLE_ROUTES, type ConsoleRouteId } from '@esim-embed/shared/console';
import type { Context, Hono } from 'hono';
import { type ConsoleAuthOptions, type ConsoleEnv, consoleAuth } from './console-auth';

/** A console route's handler. */
export type ConsoleHandler = (c: Context<ConsoleEnv>) => Promise<Response>;
/** The handlers of some console routes, by id. */
export type ConsoleHandlers<Id extends ConsoleRouteId> = Record<Id, ConsoleHandler>;

/** `meta` of every console answer. */
export const consoleMeta = (c: Context<ConsoleEnv>) => ({
  requestId: c.get('requestId'),
  apiVersion: API_VERSION,
});

/** Console answers are about people and money: kept by no cache. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/** Mount every console route on `app`. */
export function mountConsoleRoutes(
  app: Hono<ConsoleEnv>,
  handlers: ConsoleHandlers<ConsoleRouteId>,
  auth: ConsoleAuthOptions,
): void {
  const described = new Set<string>(CONSOLE_ROUTES.map((route) => route.id));
  const stray = Object.keys(handlers).filter((id) => !described.has(id));
  if (stray.length > 0) throw new Error(`console handlers of no described route: ${stray.join(', ')}`);
  for (const route of CONSOLE_ROUTES) {
    const handle = handlers[route.id];
    if (handle === undefined) throw new Error(`the console route ${route.id} has no handler`);
    const path = CONSOLE_API_PREFIX + route.path.replace(/\{(\w+)\}/g, ':$1');
    if (route.role === 'signedOut') app.on(route.method, path, handle);
    else app.on(route.method, path, consoleAuth(auth, route.role), handle);
  }
}
