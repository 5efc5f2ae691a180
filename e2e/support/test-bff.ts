/**
 * @module
 * Starts a real BFF for the browser tests, as `pnpm start` does but on a free loopback port and with the
 * test config: the widget's script-tag build at `/widget.js`, the built demo at `/`, and the demo's partner
 * server mounted beside it (receiving the BFF's webhooks, its ledger readable). The port is taken first,
 * because the config must allow the BFF's own origin (the demo pages live there).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AppEnv,
  type CreateBffOptions,
  createBff,
  createLogger,
  parseConfig,
  resolveSecrets,
} from '@esim-embed/bff';
import { addConsoleUser } from '@esim-embed/bff/testing';
import { CONSOLE_DIST } from '@esim-embed/console/testing';
import { partnerServer } from '@esim-embed/demo/partner-server';
import { WIDGET_DIST } from '@esim-embed/widget-testing';
import { getRequestListener } from '@hono/node-server';
import {
  CONSOLE_REFUSED_DOMAIN,
  CONSOLE_WEBHOOKS_PATH,
  TEST_CONSOLE_PASSWORD,
  TEST_CONSOLE_USERS,
  type testBffConfig,
} from './test-config';

const DEMO_DIST = fileURLToPath(new URL('../../demo/dist', import.meta.url));

/**
 * A private copy of the built widget, demo and console for this run: a rebuild in the working tree while the
 * suite runs (new chunk names) must not pull files from under a page that loaded the previous ones.
 */
function snapshotBuilds(): { widgetDist: string; siteRoot: string; consoleDist: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'esim-e2e-'));
  const widgetDist = join(root, 'widget');
  const siteRoot = join(root, 'demo');
  const consoleDist = join(root, 'console');
  cpSync(WIDGET_DIST, widgetDist, { recursive: true });
  cpSync(DEMO_DIST, siteRoot, { recursive: true });
  cpSync(CONSOLE_DIST, consoleDist, { recursive: true });
  return { widgetDist, siteRoot, consoleDist, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A running test BFF. */
export interface RunningBff {
  origin: string;
  partnerSecret: string;
  close(): Promise<void>;
}

/**
 * Where a test moves a BFF's clock forward (`POST` with `{ "ms": n }`), on a BFF started with `movableClock`: its
 * sessions and manage tokens then expire without the test waiting for them in real time.
 */
export const CLOCK_PATH = '/__e2e/clock';

/** Starts a BFF whose config is built for its own origin (`logoTestHost`: a local HTTPS image host it may reach). */
export async function startTestBff(
  configFor: (origin: string) => ReturnType<typeof testBffConfig>,
  options: { movableClock?: boolean } & Pick<CreateBffOptions, 'logoTestHost'> = {},
): Promise<RunningBff> {
  let listener: ((request: IncomingMessage, response: ServerResponse) => void) | null = null;
  const server = createServer((request, response) => listener?.(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { config: input, secrets } = configFor(origin);
  const config = parseConfig(input, 'the e2e config');
  const env = { ...process.env, ...secrets.env };
  const logger = createLogger({
    level: process.env.E2E_VERBOSE === '1' ? 'info' : 'error',
    fields: { service: 'bff', origin },
  });
  const builds = snapshotBuilds();
  const extraRoutes = partnerServer<AppEnv>({
    bffUrl: origin,
    partnerSecret: secrets.partnerSecret,
    webhookSecret: secrets.webhookSecret,
    // The suite reads what the partner charged, refunded and received.
    exposeLedger: true,
  });
  // Partner A's console webhook endpoint: it refuses (500) the events of a traveller at `CONSOLE_REFUSED_DOMAIN`
  // until a test lets that checkout's through, and takes every other, so the other tests' sales keep its circuit
  // closed.
  const letThrough = new Set<string>();
  extraRoutes.post(CONSOLE_WEBHOOKS_PATH, async (c) => {
    const event = (await c.req.json()) as { data?: { checkout?: { id?: string; email?: string | null } } };
    const checkout = event.data?.checkout;
    const refused =
      checkout?.email?.endsWith(`@${CONSOLE_REFUSED_DOMAIN}`) === true && !letThrough.has(checkout.id ?? '');
    return refused ? c.json({ refused: true }, 500) : c.json({ received: true });
  });
  extraRoutes.post(`${CONSOLE_WEBHOOKS_PATH}/let-through/:checkoutId`, (c) => {
    letThrough.add(c.req.param('checkoutId'));
    return c.json({ letThrough: true });
  });
  let clockOffsetMs = 0;
  if (options.movableClock === true) {
    extraRoutes.post(CLOCK_PATH, async (c) => {
      const { ms } = (await c.req.json()) as { ms: number };
      clockOffsetMs += ms;
      return c.json({ offsetMs: clockOffsetMs });
    });
  }
  const bff = createBff({
    loaded: {
      config,
      secrets: resolveSecrets(config, env),
      sessionSecret: Buffer.from(env[config.sessionSecretEnv] ?? '', 'utf8'),
      source: 'e2e',
    },
    logger,
    widgetDist: builds.widgetDist,
    siteRoot: builds.siteRoot,
    consoleDist: builds.consoleDist,
    extraRoutes,
    publicOrigin: origin,
    ...(options.movableClock === true && { now: () => Date.now() + clockOffsetMs }),
    ...(options.logoTestHost !== undefined && { logoTestHost: options.logoTestHost }),
  });
  // The console's users, in the store of this BFF (each test BFF starts with its own): those of its widgets (a test
  // may start a BFF of one widget of its own).
  for (const user of Object.values(TEST_CONSOLE_USERS)) {
    if (!bff.widgets.has(user.widgetId)) continue;
    await addConsoleUser(bff, Buffer.from(env[config.sessionSecretEnv] ?? '', 'utf8'), {
      ...user,
      password: TEST_CONSOLE_PASSWORD,
    });
  }
  listener = getRequestListener(bff.app.fetch);

  return {
    origin,
    partnerSecret: secrets.partnerSecret,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await bff.close();
      builds.remove();
    },
  };
}
