/**
 * @module
 * The one way out of the BFF: every answer is built here, with the headers every answer carries (security
 * headers, the request id, CORS) gathered as a plain object *before* the route runs and written once with the
 * route's own, and every JSON body serialized by {@link answerJson}. Outside production every JSON answer is
 * checked on its way out: a success against the `response` schema of its route (`c.get('route')`), an error
 * against the contract's envelope and the codes its route may answer (`routeErrorCodes`). A handler answering
 * what its route does not promise fails loudly (`internal`, logged with the complaint).
 *
 * A public catalog read kept by the answer cache (`answer-cache.ts`) is the recording of one such answer,
 * so it carries the same headers and bytes.
 *
 * Why not set headers on `c.res.headers` after the route, as Hono's middleware does: each such write goes
 * through a web `Headers` object (validated one header at a time), and under `@hono/node-server` it turns a
 * plain answer into one whose headers must be copied again. An answer built some other way (Hono's own, a
 * third-party middleware) still gets the same headers from the same record, the slow way, in
 * {@link answerHeaders}.
 */
import { API_VERSION, ApiErrorEnvelopeSchema, type RouteSpec, routeErrorCodes } from '@esim-embed/shared';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { compressAnswer } from './answer-compression';
import type { AnswerState, AppEnv, HeaderRecord } from './app-env';
import { type EncodedJson, encodedJson, stringifyAnswer } from './encoded-json';
import { varyWith, withHeaders } from './vary';

export interface AnswerOptions {
  /**
   * Check every JSON answer against what its route promises: a success its `response` schema, an error the
   * envelope and the route's error codes (the route must be tagged on the context: `tagRoutes`; an answer of no
   * described route is not checked). On outside production (`createBff`); costs a parse and a
   * validation per answer.
   */
  checkShapes?: boolean;
  /** Compress 200 answers worth it (JSON of 1 KB or more) as each request accepts: the config's `compression`. */
  compress?: boolean;
}

/**
 * The outermost middleware of the answer chain: starts the request's answer headers with `fixed` (the security
 * headers) and, for an answer not built by {@link answerBody}, adds whichever of them the answer has not set
 * itself, and the tokens of their `Vary` to its own.
 */
export function answerHeaders(fixed: HeaderRecord, options: AnswerOptions = {}): MiddlewareHandler<AppEnv> {
  const state: AnswerState = {
    checkShapes: options.checkShapes ?? false,
    compress: options.compress ?? false,
    complete: new WeakSet(),
    plain: new WeakMap(),
    encoded: new WeakMap(),
  };
  return async function answerHeadersMiddleware(c, next) {
    c.set('answerHeaders', { ...fixed });
    c.set('answers', state);
    await next();
    if (state.complete.has(c.res)) return;
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(c.get('answerHeaders'))) {
      if (name === 'Vary') headers.set(name, varyWith(headers.get(name) ?? undefined, value));
      else if (!headers.has(name)) headers.set(name, value);
    }
  };
}

/**
 * Add headers to every answer of this request (call before the route runs); a `Vary` adds its tokens to the
 * one already there.
 */
export function addAnswerHeaders<E extends AppEnv>(c: Context<E>, headers: HeaderRecord): void {
  const answerHeaders = c.get('answerHeaders');
  const vary = answerHeaders.Vary;
  Object.assign(answerHeaders, headers);
  if (vary !== undefined && headers.Vary !== undefined) answerHeaders.Vary = varyWith(vary, headers.Vary);
}

/**
 * An answer with the request's headers; the route's own `headers` win over them, but for `Vary`, whose tokens
 * are all kept (the request's `Origin`, the route's own, compression's `Accept-Encoding`).
 */
export function answerBody<E extends AppEnv>(
  c: Context<E>,
  body: string | Uint8Array | null,
  status: number,
  headers: HeaderRecord = {},
): Response {
  const state = c.get('answers') as AnswerState | undefined;
  // A body already encoded (a static file's brotli or gzip, made once from the file) is left as it is, and
  // so is one whose coding was chosen already (its Vary names Accept-Encoding).
  const encoded = headers['Content-Encoding'] !== undefined;
  const negotiated = encoded || headers.Vary?.includes('Accept-Encoding') === true;
  if (state?.checkShapes === true && body !== null && !encoded)
    checkShape(c, body, status, headers['Content-Type']);
  let sent = { body, headers };
  if (state?.compress === true && status === 200 && body !== null && !negotiated) {
    sent = compressAnswer(c.req.header('Accept-Encoding'), body, headers);
  } else if (state?.compress === true && status === 304 && !negotiated) {
    // A 304 names what its 200 would have varied on (RFC 9110 §15.4.5): a cache revalidating the compressed
    // answer must not learn that it no longer depends on the coding.
    sent = { body, headers: withHeaders(headers, { Vary: 'Accept-Encoding' }) };
  }
  const response = new Response(sent.body as ConstructorParameters<typeof Response>[0], {
    status,
    // An app without `answerHeaders` (a test's bare Hono app) has none of the request's to add.
    headers: withHeaders((c.get('answerHeaders') as HeaderRecord | undefined) ?? {}, sent.headers),
  });
  state?.complete.add(response);
  if (sent.body !== body && body !== null) state?.plain.set(response, body);
  return response;
}

/**
 * The body of `response` as the route wrote it, before {@link answerBody} compressed it for this request: what a
 * middleware that keeps an answer to give again (an idempotent create's replay) must keep, since the next asker
 * may accept another coding. The response's own text when it was not compressed.
 */
export async function plainBodyOf<E extends AppEnv>(c: Context<E>, response: Response): Promise<string> {
  const plain = (c.get('answers') as AnswerState | undefined)?.plain.get(response);
  if (plain === undefined) return response.clone().text();
  return typeof plain === 'string' ? plain : new TextDecoder().decode(plain);
}

/**
 * The `meta` every answer of the API carries: the request's id (its `X-Request-Id`) and the API version; an
 * answer with more in it (a catalog's version, a locale) spreads it first.
 *
 * @example
 * return answerJson(c, { data: checkout, meta: answerMeta(c) }, 200);
 */
export function answerMeta<E extends AppEnv>(
  c: Context<E>,
): { requestId: string; apiVersion: typeof API_VERSION } {
  return { requestId: c.get('requestId'), apiVersion: API_VERSION };
}

/**
 * A JSON answer with the request's headers: `value` serialized, with any part of it given as
 * {@link encodedOnce} written as encoded then.
 */
export function answerJson<E extends AppEnv>(
  c: Context<E>,
  value: unknown,
  status: number,
  headers: HeaderRecord = {},
): Response {
  return answerBody(c, stringifyAnswer(value), status, { ...headers, 'Content-Type': 'application/json' });
}

/**
 * `value` to be written in a JSON answer as it is encoded now, encoded once for this app: for a value the app
 * hands out again unchanged until it replaces it (a catalog view's list, a widget's start), never one it
 * mutates. The answer is the same bytes `JSON.stringify` would write.
 */
export function encodedOnce<E extends AppEnv>(c: Context<E>, value: object): EncodedJson {
  const encoded = (c.get('answers') as AnswerState | undefined)?.encoded;
  let json = encoded?.get(value);
  if (json === undefined) {
    json = encodedJson(value);
    encoded?.set(value, json);
  }
  return json;
}

/** Thrown when an answer is not the shape its route promises (outside production only). */
export class AnswerShapeError extends Error {
  override readonly name = 'AnswerShapeError';
}

/**
 * Throws {@link AnswerShapeError} when a JSON answer is not what its route promises: a success that is not the
 * route's success status or does not parse as its `response`; an error that is not the contract's envelope or
 * carries a code the route does not list (`routeErrorCodes`).
 */
function checkShape<E extends AppEnv>(
  c: Context<E>,
  body: string | Uint8Array,
  status: number,
  contentType: string | undefined,
): void {
  if (contentType === undefined || !contentType.startsWith('application/json')) return;
  // An answer of no described route (readiness, metrics, a path that does not exist) promises nothing here.
  const route: RouteSpec | null | undefined = c.get('route');
  if (!route) return;
  const text = () => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
  const named = `${route.method} ${route.path} (${route.id})`;
  const promised = status === route.status || route.alsoAnswers?.includes(status) === true;
  if (!promised && status >= 400) {
    const envelope = ApiErrorEnvelopeSchema.safeParse(JSON.parse(text()));
    if (!envelope.success) {
      throw new AnswerShapeError(
        `${named} answered a ${status} that is not the error envelope: ${complaint(envelope.error)}`,
      );
    }
    const code = envelope.data.error.code;
    if (!routeErrorCodes(route).includes(code)) {
      throw new AnswerShapeError(`${named} answered the error ${code}, which its route does not list`);
    }
    return;
  }
  if (route.response === undefined || status < 200) return;
  if (!promised) {
    if (status > 299) return;
    throw new AnswerShapeError(`${named} answered ${status}, its route promises ${route.status}`);
  }
  const checked = route.response.safeParse(JSON.parse(text()));
  if (!checked.success) {
    throw new AnswerShapeError(
      `${named} answered a ${status} that is not its response schema: ${complaint(checked.error)}`,
    );
  }
}

/** A schema's first complaints, as `field: message`. */
function complaint(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}
