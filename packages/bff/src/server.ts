/**
 * @module
 * The BFF's Node entry (`node server.mjs` in a release, `node dist/server.js` in the monorepo): config from
 * `ESIM_BFF_CONFIG` (or the built-in demo config outside production), the Redis store when
 * `ESIM_BFF_REDIS_URL` is set, else the embedded store in `ESIM_BFF_DATA_DIR` (default `data/`), the widget's versions from `ESIM_BFF_WIDGET_ROOT` (default: the release's
 * `widget/`), `PORT` (default 8787) and `HOST` (default 127.0.0.1: a reverse proxy on the same machine is in front; `0.0.0.0` in a container); the operations listener (`/metrics`) on
 * `ESIM_BFF_OPERATIONS_PORT` when set (on `ESIM_BFF_OPERATIONS_HOST`, default 127.0.0.1); OpenTelemetry traces
 * when the standard `OTEL_*` variables ask for them. Stops cleanly on SIGINT and SIGTERM.
 * `server.mjs export-state` / `import-state` move the state between stores (`store/state-transfer-command.ts`);
 * `server.mjs backup` / `restore` copy the embedded store while the BFF serves, and back (`store/backup-command.ts`);
 * `server.mjs console-user add` adds a user of the partner console (`console/console-user-command.ts`).
 */
// First: on a Node.js too old for the BFF, the start stops here, before any other module runs.
import './node-version-check';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stopTimeline } from './background-stop';
import { createBff } from './bff';
import { ConfigError, loadConfig } from './config/load-config';
import { isConsoleUserCommand, runConsoleUserCommand } from './console/console-user-command';
import { createLogger, type LogLevel, logLevelFrom } from './logger';
import { serveBff, serveOperations } from './node-server';
import { startTracing } from './observability/tracing-start';
import { isBackupCommand, runBackupCommand } from './store/backup-command';
import { checkRedisDurability } from './store/redis-durability';
import { RedisSettingError } from './store/redis-target';
import { DataDirError } from './store/sqlite-data-dir';
import { SqliteEngineMissingError } from './store/sqlite-engine';
import { isStateCommand, runStateCommand } from './store/state-transfer-command';
import { describeStore, openStoreFromEnvironment } from './store/store-from-environment';

const env = process.env;
const logger = createLogger({ level: levelOrExit(env.LOG_LEVEL) });

/** The log level, or the reason the start stops (before anything else runs, so nothing logs at a wrong level). */
function levelOrExit(value: string | undefined): LogLevel {
  try {
    return logLevelFrom(value);
  } catch (error) {
    console.error(`esim-embed BFF: cannot start.\n${(error as Error).message}`);
    process.exit(1);
  }
}

/** A port variable: undefined when unset; anything but a port stops the start. */
function portFrom(name: string, fallback?: number): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new ConfigError(`${name}=${value} is not a port`);
  return port;
}

/** A folder relative to this file, if it exists. */
function besideTheServer(relative: string): string | null {
  const path = fileURLToPath(new URL(relative, import.meta.url));
  return existsSync(path) ? path : null;
}

/**
 * Where the widget and the demo are unless the environment says: in a release, its own `widget/` folder (one
 * folder per version) and nothing outside the release; in the monorepo (`src/` under tsx, or `dist/`), the
 * widget's build and the demo's beside the package.
 */
function defaultFiles(): {
  widgetRoot: string | null;
  widgetDist: string | null;
  demo: string | null;
  console: string | null;
} {
  const releaseWidgets = besideTheServer('./widget');
  if (releaseWidgets !== null) {
    return {
      widgetRoot: releaseWidgets,
      widgetDist: null,
      demo: null,
      console: besideTheServer('./console'),
    };
  }
  return {
    widgetRoot: null,
    widgetDist: besideTheServer('../../widget/dist'),
    demo: besideTheServer('../../../demo/dist'),
    console: besideTheServer('../../console/dist'),
  };
}

async function main(): Promise<void> {
  const loaded = loadConfig(env, logger);
  const port = portFrom('PORT', 8787) as number;
  const operationsPort = portFrom('ESIM_BFF_OPERATIONS_PORT');
  const tracing = await startTracing(env).catch((error: unknown) => {
    throw new ConfigError((error as Error).message);
  });
  const chosen = openStoreFromEnvironment(env, logger);
  const store = chosen.store;
  const production = env.NODE_ENV === 'production';
  if (chosen.kind === 'redis') await checkRedisDurability(chosen.target, { production, logger });
  const files = defaultFiles();
  const bff = createBff({
    loaded,
    logger,
    store,
    widgetRoot: env.ESIM_BFF_WIDGET_ROOT || files.widgetRoot,
    widgetDist: env.ESIM_BFF_WIDGET_DIST || files.widgetDist,
    consoleDist: env.ESIM_BFF_CONSOLE_DIST || files.console,
    // The demo is served at `/` in development only, unless a site root is configured explicitly.
    siteRoot: env.ESIM_BFF_SITE_ROOT || (production ? null : files.demo),
    publicOrigin: env.ESIM_BFF_PUBLIC_ORIGIN || (production ? undefined : `http://localhost:${port}`),
    observability: { metrics: operationsPort !== undefined, tracing },
  });
  const server = await serveBff(bff, {
    port,
    // Loopback unless told: TLS, HSTS and the client's address come from the reverse proxy in front, and a BFF
    // that trusts its X-Forwarded-* headers (trustedProxyHops) must not be reachable around it.
    hostname: env.HOST || '127.0.0.1',
    limits: { ...loaded.config.server, trustedProxyHops: loaded.config.trustedProxyHops },
  });
  const operations =
    bff.operationsApp === null
      ? null
      : await serveOperations(bff.operationsApp, {
          port: operationsPort,
          hostname: env.ESIM_BFF_OPERATIONS_HOST || '127.0.0.1',
        });
  logger.info('BFF listening', {
    url: server.boundUrl,
    config: loaded.source,
    ...describeStore(chosen),
    widgets: loaded.config.widgets.map((widget) => widget.id),
    operations: operations?.url,
    tracing: tracing !== null,
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('BFF stopping', { signal });
    const force = setTimeout(() => process.exit(1), stopTimeline(loaded.config.server.stopSeconds).exitMs);
    force.unref();
    Promise.all([operations?.close(), server.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** Errors whose message tells the operator what to fix: printed alone, without a stack. */
const isStartupError = (error: unknown) =>
  error instanceof ConfigError ||
  error instanceof DataDirError ||
  error instanceof SqliteEngineMissingError ||
  error instanceof RedisSettingError;

const command = process.argv[2];
const args = process.argv.slice(3);
const run = isStateCommand(command)
  ? runStateCommand(command, env, process, args).then((code) => process.exit(code))
  : isBackupCommand(command)
    ? runBackupCommand(command, env, process, args).then((code) => process.exit(code))
    : isConsoleUserCommand(command)
      ? runConsoleUserCommand(env, process, args, logger).then((code) => process.exit(code))
      : main();
run.catch((error: unknown) => {
  if (isStateCommand(command) || isBackupCommand(command) || isConsoleUserCommand(command)) {
    console.error(`esim-embed BFF ${command} failed: ${(error as Error).message}`);
  } else if (isStartupError(error)) {
    console.error(`esim-embed BFF: cannot start.\n${(error as Error).message}`);
  } else {
    logger.error('BFF failed to start', { error });
  }
  process.exit(1);
});
