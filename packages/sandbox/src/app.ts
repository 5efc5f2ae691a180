/**
 * @module
 * The sandbox Hono app: request ids, body limit and fault injection first, then the control API, public
 * assets and hosted delivery pages, then every contract route behind `X-Api-Key`.
 */
import { randomUUID } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { controlRoutes } from './control/control-routes';
import { accessLog } from './http/access-log';
import { apiKeyAuth } from './http/api-key-auth';
import { handleSandboxError, routeNotFound } from './http/error-handler';
import { faultInjection } from './http/fault-injection';
import type { SandboxEnv } from './http/sandbox-env';
import { SandboxError } from './http/sandbox-error';
import { resolveSandboxOptions, type SandboxOptionsInput } from './options';
import { accountRoutes } from './routes/account-routes';
import { brandAssetRoutes } from './routes/brand-assets';
import { catalogRoutes } from './routes/catalog-routes';
import { deliveryLinkRoutes, deliveryPageRoutes } from './routes/delivery-link-routes';
import { esimRoutes } from './routes/esim-routes';
import { orderRoutes } from './routes/order-routes';
import { recipientRoutes } from './routes/recipient-routes';
import { SandboxState } from './state/sandbox-state';

/** Path patterns of the contract's routes: all of them need an API key. */
const API_PATHS = [
  '/catalog/*',
  '/quotes',
  '/quotes/*',
  '/orders',
  '/orders/*',
  '/esims',
  '/esims/*',
  '/delivery-links/*',
  '/action-requests',
  '/action-requests/*',
  '/recipients',
  '/recipients/*',
  '/capabilities',
  '/account',
  '/account/*',
];

/** Gives every request an id (`meta.requestId`, `X-Request-Id`). */
const requestContext: MiddlewareHandler<SandboxEnv> = async function requestContext(c, next) {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  c.set('requestId', requestId);
  c.header('X-Request-Id', requestId);
  await next();
};

/** A sandbox instance: its Hono app and its state (for in-process tests; others use the control API). */
export interface Sandbox {
  app: Hono<SandboxEnv>;
  state: SandboxState;
}

/** Builds a sandbox with its own state. */
export function createSandbox(input: SandboxOptionsInput = {}): Sandbox {
  const options = resolveSandboxOptions(input);
  const state = new SandboxState(options);
  const app = new Hono<SandboxEnv>();

  app.use('*', requestContext);
  if (options.accessLog) app.use('*', accessLog());
  app.use(
    '*',
    bodyLimit({
      maxSize: options.maxBodyBytes,
      onError() {
        throw new SandboxError('validation_failed', {
          status: 413,
          params: { reason: 'payload_too_large', maxBytes: options.maxBodyBytes },
        });
      },
    }),
  );
  app.use('*', faultInjection(state));

  app.route('/__sandbox', controlRoutes(state));
  app.route('/', brandAssetRoutes());
  app.route('/', deliveryPageRoutes(state));
  app.get('/healthz', function healthz(c) {
    return c.json({ status: 'ok' });
  });

  for (const path of API_PATHS) app.use(path, apiKeyAuth(state));
  app.route('/', catalogRoutes(state));
  app.route('/', orderRoutes(state));
  app.route('/', esimRoutes(state));
  app.route('/', deliveryLinkRoutes(state));
  app.route('/', recipientRoutes(state));
  app.route('/', accountRoutes(state));

  app.notFound(routeNotFound);
  app.onError(handleSandboxError);
  return { app, state };
}

/**
 * The sandbox's Hono app (a Partner eSIM Commerce API for `test`, with a separate `live`).
 *
 * @example
 * const app = createSandboxApp({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
 * const res = await app.request('/capabilities', { headers: { 'X-Api-Key': SANDBOX_KEYS.globetrotter } });
 */
export function createSandboxApp(options: SandboxOptionsInput = {}): Hono<SandboxEnv> {
  return createSandbox(options).app;
}
