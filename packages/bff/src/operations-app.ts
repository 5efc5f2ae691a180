/**
 * @module
 * The operations app: the app of a second HTTP listener, apart from the public one, serving Prometheus'
 * `/metrics` and the same `/healthz` and `/readyz` as the public port (served by `serveOperations` in
 * `node-server.ts`). It listens on loopback unless told otherwise
 * (`ESIM_BFF_OPERATIONS_HOST`), and the public app has no `/metrics` at all, so the metrics are reached only
 * where the operator opens the way (docs/deployment.md, "Operating it").
 */
import { type Handler, Hono } from 'hono';
import type { Registry } from 'prom-client';
import { answerBody, answerHeaders } from './http/answer';
import type { AppEnv } from './http/app-env';
import { createErrorHandler, createNotFoundHandler } from './http/error-handler';
import type { Logger } from './logger';
import type { OperationsRoutesOptions } from './routes/operations';
import { operationsHandlers } from './routes/operations';

export interface OperationsAppOptions extends OperationsRoutesOptions {
  registry: Registry;
  logger: Logger;
}

/** The operations app: `/metrics`, `/healthz`, `/readyz`. */
export function createOperationsApp(options: OperationsAppOptions): Hono<AppEnv> {
  const { registry } = options;
  const app = new Hono<AppEnv>();
  // Plain handlers (no idempotency options), mounted here without the API description's auth: both are public.
  const health = operationsHandlers(options) as Record<'health' | 'ready', Handler<AppEnv>>;
  app.onError(createErrorHandler(options.logger));
  app.notFound(createNotFoundHandler(() => []));
  app.use('*', answerHeaders({ 'Cache-Control': 'no-store' }));
  app.get('/metrics', async function metrics(c) {
    return answerBody(c, await registry.metrics(), 200, { 'Content-Type': registry.contentType });
  });
  app.get('/healthz', health.health);
  app.get('/readyz', health.ready);
  return app;
}
