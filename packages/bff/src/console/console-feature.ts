/**
 * @module
 * The partner console as one feature of the BFF: `mountConsole(app, deps)` builds its users, sessions, sign-in
 * and audit log on the BFF's store, and mounts its API (`/console/api/…`, from `CONSOLE_ROUTES`) and its page
 * (`/console/`) — when `console.enabled` says so; otherwise nothing is mounted and every console path is a 404.
 * It reaches the rest of the BFF only through the services the partner API's routes call, scoped to the user's
 * partner.
 */
import { Hono } from 'hono';
import type { BffConfig } from '../config/config-schema';
import type { AppEnv } from '../http/app-env';
import { deriveKey } from '../security/key-ring';
import { keyedDigest } from '../security/keyed-digest';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { createConsoleAudit } from './console-audit';
import type { ConsoleEnv } from './console-auth';
import { type ConsoleOperationsRoutesOptions, consoleOperationsHandlers } from './console-operations-routes';
import { serveConsolePage } from './console-page';
import { mountConsoleRoutes } from './console-route-table';
import { type ConsoleSaleRoutesOptions, consoleSaleHandlers } from './console-sale-routes';
import { consoleSessionHandlers } from './console-session-routes';
import { createConsoleSessions } from './console-sessions';
import { createConsoleSignIn } from './console-sign-in';
import { consoleUserHandlers } from './console-user-routes';
import { type ConsoleUsers, createConsoleUsers } from './console-users';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the console is built from: the BFF's config, and its store and the services the partner API uses — those
 * its routes take (named once, by the routes that use them).
 */
export interface ConsoleDeps
  extends Omit<ConsoleSaleRoutesOptions, 'audit' | 'cursorKey'>,
    Omit<ConsoleOperationsRoutesOptions, 'audit'> {
  config: BffConfig;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  /** The root secrets, newest first: the console's keys (names, seals, cursors) are derived from them. */
  rootSecrets: readonly Uint8Array[];
  /** The single sign-on proxy's shared secret, when configured. */
  ssoSecret: string | undefined;
  /** The console page's built files; null: the API alone. */
  consoleDist: string | null;
}

/** The console's users on a store (also what the `console-user` release command adds users with). */
export function consoleUsersOn(
  store: Store,
  rootSecrets: readonly Uint8Array[],
  now: () => number,
): ConsoleUsers {
  const [root] = rootSecrets;
  if (root === undefined) throw new Error('no root secret to derive the console keys from');
  return createConsoleUsers({
    store,
    usernameDigest: keyedDigest(rootSecrets, 'console-username'),
    sealKeys: rootSecrets.map((secret) => deriveKey(secret, 'console-second-factor').key),
    issuer: 'eSIM Embed console',
    now,
  });
}

/**
 * The console's routes, for the app to mount ahead of its static site (which answers every GET left); null while
 * the config leaves the console off.
 */
export function createConsoleRoutes(deps: ConsoleDeps): Hono<AppEnv> | null {
  const routes = new Hono<AppEnv>();
  return mountConsole(routes, deps) ? routes : null;
}

/** Mount the console on `app` when the config enables it; answers whether it did. */
export function mountConsole(app: Hono<AppEnv>, deps: ConsoleDeps): boolean {
  const { config, store, widgets, now } = deps;
  if (!config.console.enabled) return false;
  const consoleApp = app as unknown as Hono<ConsoleEnv>;
  const users = consoleUsersOn(store, deps.rootSecrets, now);
  const sessions = createConsoleSessions({
    store,
    idleMs: config.console.idleMinutes * 60_000,
    lifetimeMs: config.console.sessionHours * 60 * 60_000,
    now,
  });
  const audit = createConsoleAudit({ store, keptMs: config.console.auditDays * DAY_MS, now });
  const signIn = createConsoleSignIn({
    config: config.console,
    store,
    users,
    sessions,
    audit,
    widgets,
    usernameDigest: keyedDigest(deps.rootSecrets, 'console-username'),
    ssoSecret: deps.ssoSecret,
    now,
  });
  // The console's lists sign their cursors with a key of their own (a user holds no partner secret).
  const cursorKey = deriveKey(deps.rootSecrets[0] as Uint8Array, 'console-cursor').key.toString('base64url');
  mountConsoleRoutes(
    consoleApp,
    {
      ...consoleSessionHandlers({ signIn, sessions, audit, now }),
      ...consoleSaleHandlers({ ...deps, audit, cursorKey }),
      ...consoleOperationsHandlers({ ...deps, audit }),
      ...consoleUserHandlers({ users, audit, cursorKey }),
    },
    { users, sessions, signIn, widgets, now },
  );
  serveConsolePage(consoleApp, deps.consoleDist, config.compression);
  return true;
}
