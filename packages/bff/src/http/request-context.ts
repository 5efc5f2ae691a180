/**
 * @module
 * Per-request context: a request id on every answer (`X-Request-Id`, `meta.requestId`), one structured
 * access-log line per request (request id, widget id, method, path, status, duration and the upstream request
 * ids it caused), and an async-local scope so that lines logged deeper down (the upstream client's) carry
 * the request id and widget id too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import type { LogFields, Logger } from '../logger';
import { randomBase64url } from '../security/random-ids';
import { addAnswerHeaders } from './answer';
import type { AppEnv } from './app-env';

/** The current request's log scope: fields every line carries, and the upstream request ids it caused. */
interface RequestScope {
  fields: LogFields;
  upstreamRequestIds: string[];
}
const requestScope = new AsyncLocalStorage<RequestScope>();

const REQUEST_ID_BYTES = 15;

/** A new request id: `req_` and 20 random base64url characters. */
export function newRequestId(): string {
  return `req_${randomBase64url(REQUEST_ID_BYTES)}`;
}

/**
 * A logger that adds the current request's fields (request id, widget id) to every line — give it to
 * components created once, outside any request (the upstream clients, the catalog services).
 */
export function requestScopedLogger(base: Logger): Logger {
  const scoped = (method: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: LogFields) => {
    const scope = requestScope.getStore();
    // Remembered for the request's access-log line, whatever the level lets through.
    const upstreamRequestId = fields?.upstreamRequestId;
    if (
      scope !== undefined &&
      typeof upstreamRequestId === 'string' &&
      !scope.upstreamRequestIds.includes(upstreamRequestId)
    ) {
      scope.upstreamRequestIds.push(upstreamRequestId);
    }
    base[method](message, { ...scope?.fields, ...fields });
  };
  return {
    debug: scoped('debug'),
    info: scoped('info'),
    warn: scoped('warn'),
    error: scoped('error'),
    child: (fields) => requestScopedLogger(base.child(fields)),
    // Lines of a fixed shape carry no request's scope: they are written by what knows its own fields.
    lineWriter: (level, message, names) => base.lineWriter(level, message, names),
  };
}

/** Add fields (e.g. the widget id once the session is known) to the current request's log scope. */
export function annotateRequest(fields: LogFields): void {
  const scope = requestScope.getStore();
  if (scope !== undefined) Object.assign(scope.fields, fields);
}

/** Assigns the request id, runs the request in its log scope and writes the access-log line. */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  return async function requestContextMiddleware(c, next) {
    const requestId = newRequestId();
    const started = performance.now();
    const scope: RequestScope = { fields: { requestId }, upstreamRequestIds: [] };
    c.set('requestId', requestId);
    addAnswerHeaders(c, { 'X-Request-Id': requestId });
    await requestScope.run(scope, async () => {
      await next();
    });
    logRequest(logger, scope.fields, {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      elapsedMs: performance.now() - started,
      upstreamRequestIds: scope.upstreamRequestIds,
    });
  };
}

/** What one access-log line says of its request. */
export interface AnsweredRequest {
  method: string;
  /** The path only: query strings and headers are never logged (they may carry tokens or secrets). */
  path: string;
  status: number;
  elapsedMs: number;
  /** The upstream calls it caused. */
  upstreamRequestIds?: readonly string[];
}

/**
 * A request's access-log line, after the request's log fields (request id, widget id): written by the app's
 * request context and by the answer cache for the reads it answers itself.
 */
export function logRequest(logger: Logger, fields: LogFields, request: AnsweredRequest): void {
  const upstream = request.upstreamRequestIds;
  logger[request.status >= 500 ? 'error' : 'info']('request', {
    ...fields,
    method: request.method,
    path: request.path,
    status: request.status,
    durationMs: durationMs(request.elapsedMs),
    upstreamRequestIds: upstream !== undefined && upstream.length > 0 ? upstream : undefined,
  });
}

/** An access-log line's duration: milliseconds to a tenth. */
const durationMs = (elapsedMs: number) => Math.round(elapsedMs * 10) / 10;

/** What is known of a read before it comes: its method, path and status (a kept answer's). */
export interface KnownRead {
  method: string;
  path: string;
  status: number;
}

/**
 * The access-log lines of reads known beforehand (the answer cache's): the fields of {@link logRequest}'s line,
 * those the reads share serialized once, so that each line costs only its request id and its duration — a
 * kept catalog read is cheap enough that formatting its line was a sixth of its main-thread time.
 */
export function knownReadLog(
  logger: Logger,
  read: KnownRead,
): (requestId: string, elapsedMs: number) => void {
  const writeLine = logger
    .child({ method: read.method, path: read.path, status: read.status })
    .lineWriter(read.status >= 500 ? 'error' : 'info', 'request', ['requestId', 'durationMs']);
  return (requestId, elapsedMs) => writeLine(requestId, durationMs(elapsedMs));
}
