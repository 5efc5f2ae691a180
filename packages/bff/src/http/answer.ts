/**
 * @module
 * How the BFF's answers are built, with the headers every answer carries (security headers, the request id,
 * CORS) gathered as a plain object *before* the route runs and written once, with the route's own.
 *
 * Why not set them on `c.res.headers` after the route, as Hono's middleware does: each such write goes
 * through a web `Headers` object (validated one header at a time), and under `@hono/node-server` it turns a
 * plain answer into one whose headers must be copied again, a cost every cached read would pay.
 *
 * An answer built some other way (Hono's own, a third-party middleware) still gets the same headers, the
 * slow way, from {@link answerHeaders}.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';

/** Headers an answer carries: a name (in the case written here) and its value. */
export type HeaderRecord = Record<string, string>;

/** Answers built by {@link answerBody}: they already carry the request's headers. */
const complete = new WeakSet<Response>();

/**
 * The outermost middleware: starts the request's answer headers with `fixed` (the security headers) and,
 * for an answer not built by {@link answerBody}, adds whichever of them the answer has not set itself.
 */
export function answerHeaders(fixed: HeaderRecord): MiddlewareHandler<AppEnv> {
  return async function answerHeadersMiddleware(c, next) {
    c.set('answerHeaders', { ...fixed });
    await next();
    if (complete.has(c.res)) return;
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(c.get('answerHeaders'))) {
      if (!headers.has(name)) headers.set(name, value);
    }
  };
}

/** Add headers to every answer of this request (call before the route runs). */
export function addAnswerHeaders<E extends AppEnv>(c: Context<E>, headers: HeaderRecord): void {
  Object.assign(c.get('answerHeaders'), headers);
}

/** Every header of this request's answer: the request's, then the route's own `headers` (which win). */
export function answerHeaderRecord<E extends AppEnv>(c: Context<E>, headers: HeaderRecord): HeaderRecord {
  return { ...c.get('answerHeaders'), ...headers };
}

/** An answer with the request's headers; the route's own `headers` win over them. */
export function answerBody<E extends AppEnv>(
  c: Context<E>,
  body: string | Uint8Array | null,
  status: number,
  headers: HeaderRecord = {},
): Response {
  const response = new Response(body as ConstructorParameters<typeof Response>[0], {
    status,
    headers: answerHeaderRecord(c, headers),
  });
  complete.add(response);
  return response;
}

/** A JSON answer with the request's headers. */
export function answerJson<E extends AppEnv>(
  c: Context<E>,
  value: unknown,
  status: number,
  headers: HeaderRecord = {},
): Response {
  return answerBody(c, JSON.stringify(value), status, { ...headers, 'Content-Type': 'application/json' });
}
