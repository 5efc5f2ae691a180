/**
 * @module
 * Answers for files served as they are on disk (the widget's scripts, the static site): each file read and
 * compressed once — brotli and gzip at their highest levels, on Node's thread pool — and kept in memory with a
 * strong ETag per coding, then sent in the coding the request's `Accept-Encoding` prefers, or `304 Not
 * Modified` when the client holds it. A kept file is checked against the disk's size and modification time on
 * every read, so a rebuilt file is read again.
 *
 * Why in memory rather than `.br` / `.gz` files beside them: the BFF serves folders it did not build (kept
 * widget versions, a partner's own site at `/`), the widget's files are immutable per version, and a whole
 * version compresses in well under a second once per process.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { answerBody } from './answer';
import { brotliTextOptions, isCompressibleType, MIN_COMPRESSED_BYTES } from './answer-compression';
import type { HeaderRecord } from './app-env';
import { notModified } from './conditional-request';
import { COMPRESSED_ENCODINGS, type ContentEncoding, chooseEncoding } from './content-encoding';
import { withHeaders } from './vary';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Files above this are read per request and never compressed (a static site may hold large media). */
const MAX_KEPT_FILE_BYTES = 4 * 1_024 * 1_024;
/** All kept files together, every coding counted; the least recently served go first. */
const DEFAULT_MAX_KEPT_BYTES = 64 * 1_024 * 1_024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** What the disk said of a file when it was found. */
export interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface StaticFilesOptions {
  /** Offer brotli and gzip (false: a proxy in front compresses, every file goes as it is). */
  compress: boolean;
  /** Most bytes kept in memory, all codings counted. */
  maxKeptBytes?: number;
}

/** The files served as they are, kept once read. */
export interface StaticFiles {
  /** The answer to a GET (or HEAD) of `file`, with the route's `headers` (caching, cross-origin use). */
  answer(c: Context, file: FoundFile, headers: HeaderRecord): Promise<Response>;
}

/** One coding of a file: its bytes and their ETag. */
interface Representation {
  body: Buffer;
  etag: string;
}

/** A file as read, in every coding it is offered in. */
interface KeptFile {
  size: number;
  mtimeMs: number;
  type: string;
  /** `identity` always; `br` and `gzip` when the type is compressible and the coding is smaller. */
  codings: Map<ContentEncoding, Representation>;
  /** The codings a client is offered when it accepts them, best first (identity alone for a tiny file). */
  offered: readonly ContentEncoding[];
  keptBytes: number;
}

/** Read and compress `file` (what a kept file holds). */
async function readFileCodings(file: FoundFile, compress: boolean): Promise<KeptFile> {
  const body = await readFile(file.path);
  const type = CONTENT_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const codings = new Map<ContentEncoding, Representation>([['identity', { body, etag: `"${tag}"` }]]);
  if (compress && isCompressibleType(type) && body.length <= MAX_KEPT_FILE_BYTES) {
    const [br, gz] = await Promise.all([
      brotli(body, brotliTextOptions(constants.BROTLI_MAX_QUALITY, body.length)),
      gzipped(body, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length < body.length) codings.set('br', { body: br, etag: `"${tag}-br"` });
    if (gz.length < body.length) codings.set('gzip', { body: gz, etag: `"${tag}-gzip"` });
  }
  const offered: ContentEncoding[] =
    body.length < MIN_COMPRESSED_BYTES
      ? ['identity']
      : [...COMPRESSED_ENCODINGS.filter((coding) => codings.has(coding)), 'identity'];
  let keptBytes = 0;
  for (const { body: bytes } of codings.values()) keptBytes += bytes.length;
  return { size: file.size, mtimeMs: file.mtimeMs, type, codings, offered, keptBytes };
}

/** The files served as they are, each read and compressed on its first read. */
export function createStaticFiles(options: StaticFilesOptions): StaticFiles {
  const maxKeptBytes = options.maxKeptBytes ?? DEFAULT_MAX_KEPT_BYTES;
  const kept = new Map<string, KeptFile>();
  // Readers of a file being read wait for the same read (the first traveller after a deploy is not alone).
  const reading = new Map<string, Promise<KeptFile>>();
  let keptBytes = 0;

  function keep(path: string, file: KeptFile): void {
    forget(path);
    if (file.keptBytes > maxKeptBytes) return;
    while (keptBytes + file.keptBytes > maxKeptBytes) forget(kept.keys().next().value as string);
    kept.set(path, file);
    keptBytes += file.keptBytes;
  }

  function forget(path: string): void {
    const file = kept.get(path);
    if (file === undefined) return;
    kept.delete(path);
    keptBytes -= file.keptBytes;
  }

  async function read(file: FoundFile): Promise<KeptFile> {
    const found = kept.get(file.path);
    if (found !== undefined && found.size === file.size && found.mtimeMs === file.mtimeMs) {
      // Most recently served last: the map's order is the eviction order.
      kept.delete(file.path);
      kept.set(file.path, found);
      return found;
    }
    if (file.size > MAX_KEPT_FILE_BYTES) return await readFileCodings(file, false);
    let pending = reading.get(file.path);
    if (pending === undefined) {
      pending = readFileCodings(file, options.compress).finally(() => reading.delete(file.path));
      reading.set(file.path, pending);
      keep(file.path, await pending);
    }
    return await pending;
  }

  return {
    async answer(c, file, headers) {
      const { codings, offered, type } = await read(file);
      const acceptEncoding = c.req.header('Accept-Encoding');
      // A client that refuses `identity` gets a coding even for a tiny file, when one is kept; a client
      // that accepts nothing kept gets the bytes as they are (no answer would serve it better).
      const coding =
        chooseEncoding(acceptEncoding, offered) ??
        chooseEncoding(acceptEncoding, [...codings.keys()]) ??
        'identity';
      const { body, etag } = codings.get(coding) ?? (codings.get('identity') as Representation);
      const validators: HeaderRecord = {
        ETag: etag,
        ...(codings.size > 1 ? { Vary: 'Accept-Encoding' } : {}),
      };
      if (notModified(c, etag)) return answerBody(c, null, 304, withHeaders(validators, headers));
      return answerBody(
        c,
        body,
        200,
        withHeaders(
          {
            'Content-Type': type,
            ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }),
            'Content-Length': String(body.length),
            ...validators,
          },
          headers,
        ),
      );
    },
  };
}
