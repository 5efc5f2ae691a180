/**
 * @module
 * Over 300 lines: one recording and its replay, which must stay byte for byte the same answer; split, that promise
 * would be read in two files.
 * Answers that cannot change while the catalog they came from is held — the public, versioned catalog
 * reads — kept as the app answered them, so that a repeat read is written straight to the socket, before the
 * framework: what a caching proxy in front of the BFF would do, in the process.
 *
 * A kept answer is a recording of the app's own 200: the request ran through the whole app (every middleware,
 * the route, the one way out of `answer.ts`), and {@link AnswerCache.recorder}, the app's outermost middleware,
 * kept its status, every header and its body bytes, when the route asked for it ({@link keepAnswer}). There is
 * no second way to build an answer: a header or a change of body in the app is in the next recording.
 *
 * Serving it does what the app would do for that request and nothing else is left to decide: the route is
 * idempotent, public or checking its reader in `admit` as its auth would (a session read: its token, widget and
 * origin), the answer is the same for every reader it admits, and
 * it is valid exactly while the catalog state it was built from is held (checked per read, synchronously).
 * Each read still gets a request id of its own (in `X-Request-Id` and wherever the recording held the
 * recorded one), its request metric through the function the app's middleware uses, and its access-log line
 * with the fields of the app's (`knownReadLog`: those all reads of a path share written once). An answer that
 * names a request header (the widget's start names the page's origin) is kept per value of the headers the
 * route said it varies on (and per `variant`: a session read, per the session's widget), and a route that
 * checks or counts its readers (starts per address, a session's requests) admits each kept read
 * first: one it refuses goes to the app, which answers the refusal. Anything else —
 * another method, a query string, a conditional request, a catalog that moved on — goes to the app, which
 * answers (and records again) as usual.
 *
 * A compressed recording is kept in every coding (`spliced-compression.ts`): each reader gets the one its
 * `Accept-Encoding` prefers, with its own request id inside, and the first reader already gets those bytes.
 *
 * Why: the framework's routing and middleware cost a public catalog read about twice the bytes' own cost
 * (bench/findings.md, `bff.public-plans.rps-ratio`), and these reads are most of a traveller's calls.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { RouteSpec } from '@esim-embed/shared';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from '../logger';
import { compressedEtag } from './answer-compression';
import type { AppEnv, KeepWhile } from './app-env';
import { COMPRESSED_ENCODINGS, type ContentEncoding, chooseEncoding } from './content-encoding';
import { knownReadLog, newRequestId } from './request-context';
import type { RequestObserver } from './request-observer';
import { closeCompressed, MAX_TAIL_BYTES, type OpenCompressed, openCompressed } from './spliced-compression';

/** Ask the answer cache to keep this request's 200, valid while `keepWhile` holds (no cache: nothing kept). */
export function keepAnswer(c: Context<AppEnv>, keepWhile: KeepWhile): void {
  c.set('keepAnswer', keepWhile);
}

interface Entry {
  /** The recorded headers as Node writes them: name, value, name, value… (no object to copy per read). */
  headers: string[];
  /** The recorded body cut where it held the recorded request id: each read's id goes between the parts. */
  parts: Buffer[];
  /**
   * The body's first part compressed once per coding, left open for each read's tail (its id and the parts
   * after it), with the headers of that coding; none when the app did not compress this answer.
   */
  compressed: Map<ContentEncoding, { open: OpenCompressed; headers: string[] }>;
  /** The codings a reader is offered, best first. */
  offered: readonly ContentEncoding[];
  builtFrom: WeakRef<object>;
  current: () => object | undefined;
  /** Whether this reader may be answered (absent: every reader). */
  admit: ((request: IncomingMessage) => boolean) | undefined;
  /** The route of the table that made it (for the request metrics), when the app knew it. */
  route: RouteSpec | undefined;
  /** Writes a read's access-log line (path only: a kept path has no query string). */
  log: (requestId: string, elapsedMs: number) => void;
}

/** The answers kept by path. */
export interface AnswerCache {
  /**
   * The app's outermost middleware: keeps the answer of a request whose route called {@link keepAnswer}, when
   * it is a 200 to a plain `GET` (no query string, not conditional) and the catalog state did not move.
   */
  readonly recorder: MiddlewareHandler<AppEnv>;
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
  /** Keep brotli and gzip forms of answers the app compressed (the config's `compression`). */
  compress?: boolean;
}

/** Headers the server writes per answer, or per coding, never recorded. */
const PER_ANSWER = new Set([
  'content-length',
  'x-request-id',
  'date',
  'connection',
  'keep-alive',
  'content-encoding',
  'etag',
]);

/** A kept answer up to this size is copied into one buffer per read rather than written part by part. */
const COPIED_UP_TO_BYTES = 16 * 1024;

/** The key an answer is kept under: its path, and the values of the headers it varies on. */
function keyOf(
  path: string,
  variesOn: readonly string[] | undefined,
  header: (name: string) => string | string[] | undefined,
): string {
  if (variesOn === undefined) return path;
  let key = path;
  for (const name of variesOn) key += `\n${String(header(name) ?? '')}`;
  return key;
}

/** The body as the app meant it, whatever coding this request got it in. */
function decodedBody(body: Buffer, coding: string | null): Buffer {
  if (coding === 'br') return brotliDecompressSync(body);
  if (coding === 'gzip') return gunzipSync(body);
  return body;
}

/** `body` cut at every occurrence of `id`. */
function cutAt(body: Buffer, id: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(id); at !== -1; at = body.indexOf(id, from)) {
    parts.push(body.subarray(from, at));
    from = at + id.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

/**
 * A kept answer for one reader: in the coding its `Accept-Encoding` prefers among those kept, with its own
 * request id; the headers as Node writes them (`X-Request-Id` and `Content-Length` last) and the body's parts.
 */
function keptAnswer(
  entry: Entry,
  acceptEncoding: string | undefined,
  requestId: string,
): { headers: string[]; body: Buffer[]; length: number } {
  const id = Buffer.from(requestId, 'latin1');
  const { parts } = entry;
  const coding = chooseEncoding(acceptEncoding, entry.offered) ?? 'identity';
  const kept = coding === 'identity' ? undefined : entry.compressed.get(coding);
  let body: Buffer[];
  if (kept === undefined) {
    body = [parts[0] as Buffer];
    for (let index = 1; index < parts.length; index += 1) body.push(id, parts[index] as Buffer);
  } else {
    // The reader's tail (its id and what follows it) closes the head compressed once.
    const tail: Buffer[] = [];
    for (let index = 1; index < parts.length; index += 1) tail.push(id, parts[index] as Buffer);
    body = [kept.open.head, ...closeCompressed(kept.open, Buffer.concat(tail))];
  }
  let length = 0;
  for (const part of body) length += part.length;
  const headers = [
    ...(kept?.headers ?? entry.headers),
    'X-Request-Id',
    requestId,
    'Content-Length',
    String(length),
  ];
  return { headers, body, length };
}

/** An empty answer cache. */
export function createAnswerCache(options: AnswerCacheOptions): AnswerCache {
  const { logger } = options;
  const maxEntries = options.maxEntries ?? 4_096;
  const entries = new Map<string, Entry>();
  /** What the answers of a path vary on, for the paths whose answers do (read before the entry). */
  const variedPaths = new Map<string, Pick<KeepWhile, 'variesOn' | 'variant'>>();

  /**
   * The compressions under way of a head, per path: the readers that reach the app together after the catalog
   * moved on share one (the highest levels cost a thread-pool turn each; a crowd must not multiply them).
   */
  const opening = new Map<string, { head: Buffer; opened: Promise<OpenCompressed[]> }>();

  function openOnce(path: string, head: Buffer): Promise<OpenCompressed[]> {
    const underWay = opening.get(path);
    if (underWay?.head.equals(head)) return underWay.opened;
    const opened = Promise.all(COMPRESSED_ENCODINGS.map((coding) => openCompressed(coding, head))).finally(
      () => {
        if (opening.get(path)?.opened === opened) opening.delete(path);
      },
    );
    opening.set(path, { head, opened });
    return opened;
  }

  function keep(path: string, entry: Entry): void {
    entries.delete(path);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(path, entry);
  }

  return {
    recorder: async function keepAnswers(c, next) {
      await next();
      const keepWhile = c.get('keepAnswer');
      if (keepWhile === undefined) return;
      const url = c.req.url;
      const answer = c.res;
      if (
        c.req.method !== 'GET' ||
        answer.status !== 200 ||
        url.includes('?') ||
        c.req.header('If-None-Match') !== undefined
      ) {
        return;
      }
      const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
      const variant = keepWhile.variant === undefined ? '' : `\n${keepWhile.variant.value}`;
      const key = keyOf(path, keepWhile.variesOn, (name) => c.req.header(name)) + variant;
      const coding = answer.headers.get('Content-Encoding');
      const body = decodedBody(Buffer.from(await answer.clone().arrayBuffer()), coding);
      const { builtFrom, current } = keepWhile;
      const headers: string[] = [];
      for (const [name, value] of answer.headers) {
        if (!PER_ANSWER.has(name)) headers.push(name, value);
      }
      // The identity answer's validator: a compressed answer carries its weak form.
      const sentEtag = answer.headers.get('ETag') ?? undefined;
      const etag = coding === null ? sentEtag : sentEtag?.replace(/^W\//, '');
      const requestId = c.get('requestId');
      const parts = cutAt(body, Buffer.from(requestId, 'latin1'));
      const compressed: Entry['compressed'] = new Map();
      const tailLength = body.length - (parts[0]?.length ?? 0);
      // The app compresses what is worth it (its Vary says so, whichever coding this request got); a body
      // without the request id, or with a long tail after it, is kept as it is.
      if (
        options.compress === true &&
        answer.headers.get('Vary')?.includes('Accept-Encoding') &&
        parts.length > 1 &&
        tailLength <= MAX_TAIL_BYTES
      ) {
        const opened = await openOnce(key, parts[0] as Buffer);
        for (const open of opened) {
          const codingHeaders = [
            'Content-Encoding',
            open.coding,
            ...(etag === undefined ? [] : ['ETag', compressedEtag(etag)]),
          ];
          compressed.set(open.coding, { open, headers: [...headers, ...codingHeaders] });
        }
      }
      // The state moved while the answer was being built, read or compressed: it is already stale.
      if (current() !== builtFrom) return;
      const entry: Entry = {
        headers: etag === undefined ? headers : [...headers, 'ETag', etag],
        parts,
        compressed,
        offered: [...compressed.keys(), 'identity'],
        builtFrom: new WeakRef(builtFrom),
        current,
        admit: keepWhile.admit,
        route: c.get('route'),
        log: knownReadLog(logger, { method: 'GET', path, status: 200 }),
      };
      if (keepWhile.variesOn === undefined && keepWhile.variant === undefined) variedPaths.delete(path);
      else variedPaths.set(path, { variesOn: keepWhile.variesOn, variant: keepWhile.variant });
      keep(key, entry);
      // This reader gets what the next ones will: the kept coding, byte for byte but the request id.
      if (compressed.size > 0) {
        const kept = keptAnswer(entry, c.req.header('Accept-Encoding'), requestId);
        const keptHeaders = new Headers();
        for (let index = 0; index < kept.headers.length; index += 2) {
          keptHeaders.append(kept.headers[index] as string, kept.headers[index + 1] as string);
        }
        c.res = new Response(Buffer.concat(kept.body), { status: 200, headers: keptHeaders });
      }
    },

    serve(request, response) {
      // The conditions under which the app's answer is the kept one, byte for byte.
      if (request.method !== 'GET' || request.headers['if-none-match'] !== undefined) return false;
      const path = request.url;
      if (path === undefined) return false;
      const varied = variedPaths.get(path);
      let key = keyOf(path, varied?.variesOn, (name) => request.headers[name]);
      if (varied?.variant !== undefined) {
        const variant = varied.variant.of(request);
        if (variant === undefined) return false;
        key += `\n${variant}`;
      }
      const entry = entries.get(key);
      if (entry === undefined) return false;
      const builtFrom = entry.builtFrom.deref();
      if (builtFrom === undefined || builtFrom !== entry.current()) {
        entries.delete(key);
        return false;
      }
      if (entry.admit !== undefined && !entry.admit(request)) return false;
      const started = performance.now();
      const requestId = newRequestId();
      const { headers, body, length } = keptAnswer(entry, request.headers['accept-encoding'], requestId);
      response.writeHead(200, headers);
      if (length <= COPIED_UP_TO_BYTES) {
        // A short answer (a start) copied into one buffer costs less than a write per part.
        response.end(body.length === 1 ? body[0] : Buffer.concat(body, length));
      } else {
        // One write of the parts and ids (no copy of the list's bytes).
        response.cork();
        const last = body.length - 1;
        for (let index = 0; index < last; index += 1) response.write(body[index]);
        response.end(body[last]);
        response.uncork();
      }
      const elapsedMs = performance.now() - started;
      options.observe?.(entry.route, 'GET', 200, elapsedMs / 1000);
      entry.log(requestId, elapsedMs);
      return true;
    },

    get size() {
      return entries.size;
    },
  };
}
