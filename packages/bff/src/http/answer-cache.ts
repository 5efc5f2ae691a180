/**
 * @module
 * Answers that cannot change while the catalog they came from is held — the public, versioned catalog
 * reads — kept as bytes so that a repeat read is written straight to the socket, before the framework:
 * what a caching proxy in front of the BFF would do, in the process.
 *
 * A kept answer is the app's own 200 (its status, every header, its body), registered by the route that
 * made it. Serving it does what the app would do for that request and nothing else is left to decide: the
 * route is public (no session, origin or secret to check) and idempotent, the answer is the same for every
 * reader, and it is valid exactly while the catalog state it was built from is held (checked per read,
 * synchronously). Each read still gets a request id of its own (`X-Request-Id`, `meta.requestId`) and its
 * access-log line. Anything else — another method, a query string, a conditional request, a catalog that
 * moved on — goes to the app, which answers (and keeps again) as usual.
 *
 * Why: the framework's routing and middleware cost a public catalog read about twice the bytes' own cost
 * (bench/findings.md, `bff.public-plans.rps-ratio`), and these reads are most of a traveller's calls.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteSpec } from '@esim-embed/shared';
import type { Logger } from '../logger';
import type { RequestObserver } from '../observability/http-metrics';
import type { HeaderRecord } from './answer';
import { newRequestId } from './request-context';

/** What a route registers: its whole answer but the request id, and what keeps it valid. */
export interface KeptAnswer {
  /** Every header of the answer (`Content-Length` and `X-Request-Id` are written per read). */
  headers: HeaderRecord;
  /** The body up to the request id: `…"meta":{"requestId":"`. */
  head: Buffer;
  /** The body after the request id: `",…}}`. */
  tail: Buffer;
  /** The catalog state the answer was built from: valid while `current()` is this very object. */
  builtFrom: object;
  current: () => object | undefined;
  /** The route of the table that made it (for the request metrics), when the app knew it. */
  route?: RouteSpec | undefined;
}

interface Entry {
  /** The kept headers as Node writes them: name, value, name, value… (no object to copy per read). */
  headers: string[];
  head: Buffer;
  tail: Buffer;
  builtFrom: WeakRef<object>;
  current: () => object | undefined;
  route: RouteSpec | undefined;
}

/** The answers kept by path. */
export interface AnswerCache {
  /** Keep the app's answer to `GET path` (without a query string). */
  keep(path: string, answer: KeptAnswer): void;
  /** Answer `request` from what is kept and return true, or return false and touch nothing. */
  serve(request: IncomingMessage, response: ServerResponse): boolean;
  /** Answers kept now (tests, metrics). */
  readonly size: number;
}

export interface AnswerCacheOptions {
  /** Writes each served read's access-log line, as the app's request context does. */
  logger: Logger;
  /** Most answers kept (a catalog holds a few hundred destinations per locale); the oldest go first. */
  maxEntries?: number;
  /** Records each served read in the request metrics, as the app's middleware does (absent: metrics off). */
  observe?: RequestObserver | undefined;
}

/** An empty answer cache. */
export function createAnswerCache(options: AnswerCacheOptions): AnswerCache {
  const { logger } = options;
  const maxEntries = options.maxEntries ?? 4_096;
  const entries = new Map<string, Entry>();

  return {
    keep(path, answer) {
      entries.delete(path);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(path, {
        headers: Object.entries(answer.headers).flat(),
        head: answer.head,
        tail: answer.tail,
        builtFrom: new WeakRef(answer.builtFrom),
        current: answer.current,
        route: answer.route,
      });
    },

    serve(request, response) {
      // The conditions under which the app's answer is the kept one, byte for byte.
      if (request.method !== 'GET' || request.headers['if-none-match'] !== undefined) return false;
      const path = request.url;
      if (path === undefined) return false;
      const entry = entries.get(path);
      if (entry === undefined) return false;
      const builtFrom = entry.builtFrom.deref();
      if (builtFrom === undefined || builtFrom !== entry.current()) {
        entries.delete(path);
        return false;
      }
      const started = performance.now();
      const requestId = newRequestId();
      const id = Buffer.from(requestId, 'latin1');
      const length = entry.head.length + id.length + entry.tail.length;
      response.writeHead(200, [
        ...entry.headers,
        'X-Request-Id',
        requestId,
        'Content-Length',
        String(length),
      ]);
      // One write of the three parts (no copy of the list's bytes).
      response.cork();
      response.write(entry.head);
      response.write(id);
      response.end(entry.tail);
      response.uncork();
      const elapsedMs = performance.now() - started;
      options.observe?.(entry.route, 'GET', 200, elapsedMs / 1000);
      // The same line the app's request context writes (path only: a kept path has no query string).
      logger.info('request', {
        requestId,
        method: 'GET',
        path,
        status: 200,
        durationMs: Math.round(elapsedMs * 10) / 10,
      });
      return true;
    },

    get size() {
      return entries.size;
    },
  };
}
