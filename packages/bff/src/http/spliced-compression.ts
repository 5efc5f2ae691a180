/**
 * @module
 * A compressed body whose last bytes change per answer (a kept catalog read ends with each reader's request
 * id): the unchanging head is compressed once, at the highest level, and left open — flushed to a byte
 * boundary, not finished — and each answer closes it with its own tail appended uncompressed (a brotli
 * uncompressed meta-block, a deflate stored block). A reader decodes one ordinary stream; the server writes
 * a few bytes per answer and compresses nothing.
 */

import {
  type BrotliCompress,
  constants,
  crc32,
  createBrotliCompress,
  createGzip,
  type Gzip,
} from 'node:zlib';
import { brotliTextOptions } from './answer-compression';

/** A head compressed once and left open for a tail. */
export interface OpenCompressed {
  coding: 'br' | 'gzip';
  /** The compressed head, flushed to a byte boundary. */
  head: Buffer;
  /** CRC-32 of the head's bytes (gzip's trailer covers the whole body). */
  crc: number;
  /** The head's length before compression. */
  length: number;
}

/** The longest tail one closing block carries (a deflate stored block's limit). */
export const MAX_TAIL_BYTES = 65_535;

/** The output of `stream` once `input` is written and flushed with `flushKind`; the stream is then dropped. */
async function flushed(stream: BrotliCompress | Gzip, input: Buffer, flushKind: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.write(input);
  await new Promise<void>((resolve) =>
    (stream as unknown as { flush(kind: number, done: () => void): void }).flush(flushKind, resolve),
  );
  // Output pushed by the flush is delivered before the next turn.
  await new Promise((resolve) => setImmediate(resolve));
  stream.destroy();
  return Buffer.concat(chunks);
}

/** Compress `head` once in `coding` (on the thread pool), left open for {@link closeCompressed}. */
export async function openCompressed(coding: 'br' | 'gzip', head: Buffer): Promise<OpenCompressed> {
  const compressed =
    coding === 'br'
      ? await flushed(
          createBrotliCompress(brotliTextOptions(constants.BROTLI_MAX_QUALITY, head.length)),
          head,
          constants.BROTLI_OPERATION_FLUSH,
        )
      : await flushed(createGzip({ level: constants.Z_BEST_COMPRESSION }), head, constants.Z_SYNC_FLUSH);
  return { coding, head: compressed, crc: crc32(head), length: head.length };
}

/** The bytes that follow `open.head` to end the stream with `tail` (at most {@link MAX_TAIL_BYTES}). */
export function closeCompressed(open: OpenCompressed, tail: Buffer): Buffer[] {
  if (tail.length === 0 || tail.length > MAX_TAIL_BYTES) throw new RangeError(`tail of ${tail.length} bytes`);
  if (open.coding === 'br') {
    // RFC 7932 §9.2: ISLAST 0, MNIBBLES 0 (4 nibbles), MLEN-1, ISUNCOMPRESSED 1, padding to the byte; then the
    // tail; then an empty last meta-block (ISLAST 1, ISLASTEMPTY 1).
    const header = Buffer.alloc(3);
    header.writeUIntLE(((tail.length - 1) << 3) | (1 << 19), 0, 3);
    return [header, tail, Buffer.of(0b11)];
  }
  // RFC 1951 §3.2.4: a final stored block (BFINAL 1, BTYPE 00), LEN and NLEN; then gzip's CRC-32 and size.
  const header = Buffer.alloc(5);
  header.writeUInt8(1, 0);
  header.writeUInt16LE(tail.length, 1);
  header.writeUInt16LE(~tail.length & 0xffff, 3);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tail, open.crc), 0);
  trailer.writeUInt32LE((open.length + tail.length) >>> 0, 4);
  return [header, tail, trailer];
}
