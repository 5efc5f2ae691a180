/**
 * @module
 * Per-request context: a request id on every answer (`X-Request-Id`, `meta.requestId`), one structured
 * access-log line per request, and an async-local scope so that lines logged deeper down (the upstream
 * client's) carry the request id and widget id too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { LogFields, Logger } from '../logger';
import type { AppEnv } from './app-env';

/** Fields every log line of the current request carries. */
const requestScope = new AsyncLocalStorage<LogFields>();

/** A new request id: `req_` and 20 random base64url characters. */
export function newRequestId(): string {
  return `req_${randomBytes(15).toString('base64url')}`;
}

/**
 * A logger that adds the current request's fields (request id, widget id) to every line — give it to
 * components created once, outside any request (the upstream clients, the catalog services).
 */
export function requestScopedLogger(base: Logger): Logger {
  const scoped = (method: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: LogFields) =>
    base[method](message, { ...requestScope.getStore(), ...fields });
  return {
    debug: scoped('debug'),
    info: scoped('info'),
    warn: scoped('warn'),
    error: scoped('error'),
    child: (fields) => requestScopedLogger(base.child(fields)),
  };
}

/** Add fields (e.g. the widget id once the session is known) to the current request's log scope. */
export function annotateRequest(fields: LogFields): void {
  const scope = requestScope.getStore();
  if (scope !== undefined) Object.assign(scope, fields);
}

/** Assigns the request id, runs the request in its log scope and writes the access-log line. */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  return async function requestContextMiddleware(c, next) {
    const requestId = newRequestId();
    const started = performance.now();
    const scope: LogFields = { requestId };
    c.set('requestId', requestId);
    await requestScope.run(scope, async () => {
      await next();
    });
    c.res.headers.set('X-Request-Id', requestId);
    const status = c.res.status;
    // The path only: query strings and headers are never logged (they may carry tokens or secrets).
    logger[status >= 500 ? 'error' : 'info']('request', {
      ...scope,
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
