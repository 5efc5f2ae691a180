/**
 * @module
 * One upstream request, done safely: the path resolved under the base URL (a link is followed only when
 * it stays there), `X-Api-Key` and `Idempotency-Key` sent, a timeout per attempt, retries with backoff and
 * jitter only where a repeat is safe, `Retry-After` honoured, the answer parsed tolerantly, every attempt
 * logged without secrets, and failures turned into {@link UpstreamError}.
 *
 * Over 300 lines: the one attempt loop (timeout, retries, `Retry-After`, parsing, logs) every upstream call
 * goes through.
 */
import { ErrorCodeSchema } from '@esim-embed/shared';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../logger';
import type { OutgoingCalls } from './outgoing-call-observer';
import { backoffDelayMs, parseRetryAfterMs, type RetryPolicy, sleep } from './retry-policy';
import { firstTimeSeen, parseNotingUnknownValues } from './unknown-values';
import type { UpstreamBudgetGate } from './upstream-budget';
import { errorFromUpstreamAnswer, readErrorEnvelope, UpstreamError } from './upstream-error';

/** Query parameters; undefined ones are left out. */
export type Query = Record<string, string | number | undefined>;

/** One logical request to the upstream. */
export interface CallSpec<T> {
  /** A short name for logs (`listProducts`). */
  operation: string;
  method: 'GET' | 'POST';
  /** A path from `upstreamPaths`, or an absolute link given by the upstream. */
  target: string;
  query?: Query;
  body?: unknown;
  idempotencyKey?: string | undefined;
  schema: z.ZodType<T>;
}

/** One attempt's answer, read in full. */
interface Answer {
  status: number;
  body: unknown;
  bodyReadable: boolean;
  upstreamRequestId: string | undefined;
  retryAfterMs: number | undefined;
  /** The calls per minute the answer says the key may make (`RateLimit-Limit`, or a 429's `limitPerMinute`). */
  statedLimit: number | undefined;
}

/** What the transport needs to know. */
export interface UpstreamTransportOptions {
  /** The base URL, already checked to be http(s). */
  base: URL;
  apiKey: string;
  timeoutMs: number;
  policy: RetryPolicy;
  random: () => number;
  /** How a pause between attempts is waited out (default: a timer). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Already bound to the upstream's base URL. */
  logger: Logger;
  dispatcher: Dispatcher;
  /** Told of every attempt (metrics, a trace span and its `traceparent`); absent when both are off. */
  observer?: OutgoingCalls | undefined;
  /** The key's budget: asked before every attempt, told what each answer says of the key's rate. */
  budget?: UpstreamBudgetGate | undefined;
}

/** Sends one logical request (with its retries). */
export type UpstreamCall = <T>(spec: CallSpec<T>) => Promise<T>;

/** The request function of one upstream client. */
export function createUpstreamTransport(options: UpstreamTransportOptions): UpstreamCall {
  const { base, timeoutMs, policy, random, logger, dispatcher } = options;
  const pause = options.sleep ?? sleep;
  const basePath = base.pathname.replace(/\/+$/, '');

  /** The path (with query) to request: a known path under the base, or a link that must stay under it. */
  function resolve(target: string, query: Query | undefined): string {
    let url: URL;
    if (/^https?:\/\//i.test(target)) {
      url = new URL(target);
      // Never send the API key anywhere but the configured upstream.
      if (
        url.origin !== base.origin ||
        !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))
      ) {
        logger.error('upstream link outside the upstream base URL refused', { linkOrigin: url.origin });
        throw new UpstreamError('internal', { status: 502 });
      }
    } else {
      url = new URL(`${base.origin}${basePath}${target}`);
    }
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return `${url.pathname}${url.search}`;
  }

  async function attempt(
    spec: CallSpec<unknown>,
    path: string,
    traceHeaders: Record<string, string> | undefined,
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      ...traceHeaders,
      accept: 'application/json',
      'user-agent': 'esim-embed-bff',
      'x-api-key': options.apiKey,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    const response = await dispatcher.request({
      origin: base.origin,
      path,
      method: spec.method,
      headers,
      body: spec.body === undefined ? null : JSON.stringify(spec.body),
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await response.body.text();
    let body: unknown;
    let bodyReadable = true;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      bodyReadable = false;
    }
    const header = response.headers['x-request-id'];
    const bodyRequestId = readRequestId(body);
    return {
      status: response.statusCode,
      body,
      bodyReadable,
      upstreamRequestId: bodyRequestId ?? (Array.isArray(header) ? header[0] : header),
      retryAfterMs: parseRetryAfterMs(response.headers['retry-after']),
      // Only an error's body is read for a limit: a catalog page is never parsed twice.
      statedLimit: statedLimitOf(
        response.headers['ratelimit-limit'],
        response.statusCode >= 400 ? body : undefined,
      ),
    };
  }

  async function call<T>(spec: CallSpec<T>): Promise<T> {
    const path = resolve(spec.target, spec.query);
    const logPath = path.split('?')[0];
    const retryable = spec.method === 'GET' || spec.idempotencyKey !== undefined;
    for (let retry = 0; ; retry += 1) {
      // Over the budget nothing is sent: the caller hears `rate_limited` with the wait.
      await options.budget?.beforeCall();
      const started = performance.now();
      const observed = options.observer?.upstreamCall(spec.operation, spec.method, retry);
      let answer: Answer;
      try {
        answer = await attempt(spec as CallSpec<unknown>, path, observed?.headers);
      } catch (cause) {
        const durationMs = Math.round(performance.now() - started);
        const timedOut = isTimeout(cause);
        observed?.end(timedOut ? 'timeout' : 'network');
        logger.debug('upstream call failed', {
          operation: spec.operation,
          method: spec.method,
          path: logPath,
          error: timedOut ? 'timeout' : errorName(cause),
          durationMs,
          attempt: retry + 1,
        });
        if (retryable && retry < policy.maxRetries) {
          await pause(backoffDelayMs(retry, policy, random));
          continue;
        }
        logger.warn('upstream unavailable', {
          operation: spec.operation,
          path: logPath,
          timedOut,
          attempts: retry + 1,
        });
        throw new UpstreamError('upstream_unavailable', {
          retryAfterSeconds: 2,
          cause: sanitizeCause(cause),
        });
      }
      const durationMs = Math.round(performance.now() - started);
      observed?.end(attemptOutcome(answer));
      await options.budget?.afterAnswer(answer);
      logger.debug('upstream call', {
        operation: spec.operation,
        method: spec.method,
        path: logPath,
        status: answer.status,
        durationMs,
        upstreamRequestId: answer.upstreamRequestId,
        attempt: retry + 1,
      });

      if (answer.status >= 200 && answer.status < 300) return readSuccess(spec, answer, logPath);

      const wait = retryWait(spec, answer, retry);
      if (retryable && retry < policy.maxRetries && wait !== undefined) {
        await pause(wait);
        continue;
      }
      const error = errorFromUpstreamAnswer(answer.status, answer.body, {
        upstreamRequestId: answer.upstreamRequestId,
        retryAfterSeconds:
          answer.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(answer.retryAfterMs / 1000)),
      });
      const level = error.configurationProblem ? 'error' : error.status >= 500 ? 'warn' : 'info';
      logger[level](
        error.configurationProblem ? 'upstream refused the widget credential' : 'upstream refused',
        {
          operation: spec.operation,
          path: logPath,
          status: answer.status,
          upstreamCode: error.upstreamCode,
          code: error.code,
          configurationProblem: error.configurationProblem ?? undefined,
          upstreamRequestId: error.upstreamRequestId,
          attempts: retry + 1,
        },
      );
      if (error.code === 'upstream_refused' && error.upstreamCode) {
        const unknown = { name: 'error code', value: error.upstreamCode, readsAs: 'upstream_refused' };
        if (firstTimeSeen(unknown)) {
          logger.warn('upstream sent an error code this release does not know; read as a refusal', {
            operation: spec.operation,
            value: error.upstreamCode,
            upstreamRequestId: error.upstreamRequestId,
          });
        }
      }
      throw error;
    }
  }

  /** How long to wait before trying again after an error answer, or undefined when it is final. */
  function retryWait(spec: CallSpec<unknown>, answer: Answer, retry: number): number | undefined {
    // A 429 paused the key's budget for its `Retry-After`: a retry now would be refused before it is sent.
    if (answer.status === 429 && options.budget !== undefined) return undefined;
    if (answer.status === 429 || answer.status >= 500) {
      if (answer.retryAfterMs === undefined) return backoffDelayMs(retry, policy, random);
      // A long Retry-After is not waited for here: the caller gets the hint instead.
      return answer.retryAfterMs <= policy.maxRetryAfterMs ? answer.retryAfterMs : undefined;
    }
    if (answer.status === 409 && spec.idempotencyKey !== undefined) {
      const envelope = readErrorEnvelope(answer.body);
      // 409 idempotency_conflict: the first request with this key is still being processed upstream.
      // (A different body under the same key is a 422 and final.)
      if (envelope?.error.code === 'idempotency_conflict') {
        return answer.retryAfterMs !== undefined && answer.retryAfterMs <= policy.maxRetryAfterMs
          ? answer.retryAfterMs
          : policy.inFlightDelayMs * (retry + 1);
      }
    }
    return undefined;
  }

  function readSuccess<T>(spec: CallSpec<T>, answer: Answer, logPath: string | undefined): T {
    const read = answer.bodyReadable ? parseNotingUnknownValues(spec.schema, answer.body) : undefined;
    for (const value of read?.unknown ?? []) {
      // Once per value and process: the safe meaning is in force; an operator may want a newer release.
      if (firstTimeSeen(value)) {
        logger.warn('upstream sent a value this release does not know; read with its safe meaning', {
          operation: spec.operation,
          field: value.name,
          value: value.value,
          readsAs: value.readsAs,
          upstreamRequestId: answer.upstreamRequestId,
        });
      }
    }
    const parsed = read?.result;
    if (parsed?.success) return parsed.data;
    // Paths and codes only: the values may be installation data.
    logger.error('upstream answer unreadable', {
      operation: spec.operation,
      path: logPath,
      status: answer.status,
      upstreamRequestId: answer.upstreamRequestId,
      issues: parsed?.error.issues
        .slice(0, 10)
        .map((issue) => ({ path: issue.path.join('.'), code: issue.code })),
      json: answer.bodyReadable,
    });
    throw new UpstreamError('internal', {
      status: 502,
      upstreamRequestId: answer.upstreamRequestId,
      upstreamStatus: answer.status,
    });
  }

  return call;
}

/** An answered attempt's outcome for metrics and traces: `ok`, the contract's error code, or the HTTP status. */
function attemptOutcome(answer: Answer): string {
  if (answer.status >= 200 && answer.status < 300) return 'ok';
  const code = readErrorEnvelope(answer.body)?.error.code;
  // Only the contract's codes: a code the upstream makes up must not make series of its own.
  if (code !== undefined && ErrorCodeSchema.safeParse(code).success) return code;
  return `http_${answer.status}`;
}

/** The key's calls per minute as an answer states them: `RateLimit-Limit: 600`, or a 429's `params.limitPerMinute`. */
function statedLimitOf(header: string | string[] | undefined, body: unknown): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const fromHeader = value === undefined ? Number.NaN : Number.parseInt(value, 10);
  if (Number.isSafeInteger(fromHeader) && fromHeader > 0) return fromHeader;
  const fromParams = readErrorEnvelope(body)?.error.params.limitPerMinute;
  return typeof fromParams === 'number' && Number.isSafeInteger(fromParams) && fromParams > 0
    ? fromParams
    : undefined;
}

function readRequestId(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const meta = (body as { meta?: unknown }).meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const requestId = (meta as { requestId?: unknown }).requestId;
  return typeof requestId === 'string' ? requestId : undefined;
}

function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    ['TimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError'].includes(error.name) ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  );
}

function errorName(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name}:${code}` : error.name;
}

/** The cause kept on the error: name and code only (a message may quote a URL or a header). */
function sanitizeCause(error: unknown): Error {
  return new Error(errorName(error));
}
