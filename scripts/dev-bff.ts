/**
 * @module
 * The BFF as `pnpm start` runs it: the server entry's behaviour (config from `ESIM_BFF_CONFIG` or the built-in
 * demo config) plus, for the demo, the pretend partner server mounted beside it at `/demo-partner/*` and the
 * built demo at `/`; it listens on loopback unless `HOST` says otherwise. Production runs
 * `packages/bff/dist/server.js` instead, without any of the demo.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type AppEnv,
  addDemoConsoleUsers,
  createBff,
  createLogger,
  DEMO_SECRET_DEFAULTS,
  describeStore,
  loadConfig,
  openStoreFromEnvironment,
  serveBff,
} from '@esim-embed/bff';
import { partnerServer } from '@esim-embed/demo/partner-server';

const env = process.env;
const logger = createLogger({ level: env.LOG_LEVEL === 'debug' ? 'debug' : 'info' });
const folder = (relative: string) => {
  const path = fileURLToPath(new URL(relative, import.meta.url));
  return existsSync(path) ? path : null;
};

const port = Number(env.PORT ?? 8787);
const loaded = loadConfig(env, logger);
/** Redis with ESIM_BFF_REDIS_URL, else the embedded store in ESIM_BFF_DATA_DIR (default: data/ where it runs). */
function openStore() {
  try {
    return openStoreFromEnvironment(env, logger);
  } catch (error) {
    console.error(`esim-embed BFF: cannot start.\n${(error as Error).message}`);
    process.exit(1);
  }
}
const chosen = openStore();
const bff = createBff({
  loaded,
  logger,
  store: chosen.store,
  widgetDist: folder('../packages/widget/dist'),
  siteRoot: folder('../demo/dist'),
  consoleDist: folder('../packages/console/dist'),
  publicOrigin: `http://localhost:${port}`,
  extraRoutes: partnerServer<AppEnv>({
    bffUrl: `http://127.0.0.1:${port}`,
    partnerSecret: env.ESIM_DEMO_PARTNER_SECRET || DEMO_SECRET_DEFAULTS.ESIM_DEMO_PARTNER_SECRET,
    // Set when your config gives the demo widgets a `webhookUrl` here (docs/payments.md); none by default.
    webhookSecret: env.ESIM_DEMO_WEBHOOK_SECRET || undefined,
    // The demo's pages, served here, are the only ones that may pay through it.
    pageOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
  }),
});
// The demo's console users, with the built-in demo config only (`pnpm start` prints them).
if (loaded.source === 'built-in demo config' && loaded.config.console.enabled) {
  await addDemoConsoleUsers(bff, [loaded.sessionSecret], loaded.config.widgets[0]?.id ?? '');
}
// Loopback unless told otherwise (`HOST=0.0.0.0`): the demo partner server mounted here has no users of its own.
const server = await serveBff(bff, {
  port,
  hostname: env.HOST ?? '127.0.0.1',
  limits: { ...loaded.config.server, trustedProxyHops: loaded.config.trustedProxyHops },
});
logger.info('BFF listening', {
  url: server.boundUrl,
  config: loaded.source,
  ...describeStore(chosen),
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(0), 5_000).unref();
  server.close().then(() => process.exit(0));
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
