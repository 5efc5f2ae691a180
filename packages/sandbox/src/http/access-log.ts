/**
 * @module
 * A one-line JSON access log per request (method, path, status, duration, request id) for the Node entry.
 * Never logs keys, bodies or installation data; delivery-link tokens in paths are redacted.
 */
import type { MiddlewareHandler } from 'hono';
import type { SandboxEnv } from './sandbox-env';

/** The path as it may be logged: the secret token of a hosted delivery page is cut. */
export function loggablePath(path: string): string {
  return path.startsWith('/d/') ? '/d/[redacted]' : path;
}

/** Logs every request once it is answered. */
export function accessLog(write: (line: string) => void = console.log): MiddlewareHandler<SandboxEnv> {
  return async function accessLogMiddleware(c, next) {
    const started = performance.now();
    await next();
    write(
      JSON.stringify({
        level: 'info',
        msg: 'request',
        method: c.req.method,
        path: loggablePath(c.req.path),
        status: c.res.status,
        ms: Math.round(performance.now() - started),
        requestId: c.get('requestId'),
      }),
    );
  };
}
