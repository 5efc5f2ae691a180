/**
 * @module
 * Answers compressed on their way out: which answers are worth it, the coding the request prefers, and the
 * bytes — per answer at a low level for the app's JSON answers (a whole catalog costs under a millisecond of CPU),
 * once at the highest level for what is kept (a static file, a recorded public catalog read).
 */
import { type BrotliOptions, brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { HeaderRecord } from './app-env';
import { COMPRESSED_ENCODINGS, chooseEncoding } from './content-encoding';
import { varyWith } from './vary';

/** Below this a body is sent as it is: the coding's own bytes and the work would eat what it saves. */
export const MIN_COMPRESSED_BYTES = 1_024;

/** Types worth compressing; the others (images, fonts, archives) are compressed already. */
const COMPRESSIBLE_TYPE = /^(text\/|application\/(json|manifest\+json)|image\/(svg\+xml|x-icon))/;

/** Whether a body of `contentType` is worth compressing at all (its size aside). */
export function isCompressibleType(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE_TYPE.test(contentType);
}

/** The ETag of a compressed form of an answer: weak, as the same content in other bytes (RFC 9110 §8.8.1). */
export function compressedEtag(etag: string): string {
  return etag.startsWith('W/') ? etag : `W/${etag}`;
}

/** Brotli's options for text of `byteLength` bytes at `quality` (every brotli the BFF makes uses these). */
export function brotliTextOptions(quality: number, byteLength: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: byteLength,
    },
  };
}

/** Per answer: fast levels, most of the gain (the highest levels cost 10–100× more for a few percent). */
const ANSWER_BROTLI_QUALITY = 4;
const ANSWER_GZIP_LEVEL = 6;

/**
 * A 200 answer's body and headers as the request's `Accept-Encoding` prefers them: compressed when its type
 * is worth it and it is at least {@link MIN_COMPRESSED_BYTES}, with `Vary: Accept-Encoding` whichever coding is
 * sent (a cache must not hand one client's coding to another) and a weak ETag for a compressed form.
 */
export function compressAnswer(
  acceptEncoding: string | undefined,
  body: string | Uint8Array,
  headers: HeaderRecord,
): { body: string | Uint8Array; headers: HeaderRecord } {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (bytes.byteLength < MIN_COMPRESSED_BYTES || !isCompressibleType(headers['Content-Type'])) {
    return { body, headers };
  }
  const varied = {
    ...headers,
    Vary: varyWith(headers.Vary, 'Accept-Encoding'),
  };
  const coding = chooseEncoding(acceptEncoding, [...COMPRESSED_ENCODINGS, 'identity']) ?? 'identity';
  if (coding === 'identity') return { body: bytes, headers: varied };
  const compressed =
    coding === 'br'
      ? brotliCompressSync(bytes, brotliTextOptions(ANSWER_BROTLI_QUALITY, bytes.byteLength))
      : gzipSync(bytes, { level: ANSWER_GZIP_LEVEL });
  const etag = headers.ETag;
  return {
    body: compressed,
    headers: {
      ...varied,
      'Content-Encoding': coding,
      ...(etag === undefined ? {} : { ETag: compressedEtag(etag) }),
    },
  };
}
