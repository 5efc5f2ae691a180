/**
 * @module
 * The sandbox's Node entry (`pnpm --filter @esim-embed/sandbox start`): reads its settings from the
 * environment and listens on port 8788 by default.
 */
import { serve } from '@hono/node-server';
import { createSandbox } from './app';
import { SANDBOX_KEYS } from './seed/accounts';
import { readServerSettings } from './server-settings';

const settings = readServerSettings(process.env);
const { app } = createSandbox(settings.options);
const server = serve({ fetch: app.fetch, port: settings.port, hostname: settings.hostname }, (info) => {
  console.log(
    JSON.stringify({
      level: 'info',
      msg: 'sandbox listening',
      url: `http://${settings.hostname === '0.0.0.0' ? 'localhost' : settings.hostname}:${info.port}`,
      offerCount: settings.options.offerCount,
      faultInjection: settings.options.faultInjection ?? false,
      demoKey: SANDBOX_KEYS.globetrotter,
    }),
  );
});

function shutdown() {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
