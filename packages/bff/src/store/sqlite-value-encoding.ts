/**
 * @module
 * How the embedded store keeps a value in its `entries` table: a record of a few KB compressed (raw deflate) into a
 * blob whose first byte names its encoding, any other value as the text it is. A checkout, a quote or an idempotent
 * answer is JSON of 1–4 KB that deflate takes to about half; kept whole, such rows spill onto overflow pages
 * mostly left empty. Text rows — every row an earlier release wrote — read as they are, so no row needs
 * rewriting when this encoding is added or a later one is.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SqlValue } from './sqlite-engine';

/** The first byte of a blob holding a value deflated (raw deflate of its UTF-8). */
const DEFLATE_RAW = 1;

/**
 * Values shorter than this (in UTF-16 units, which is at most their UTF-8 size) are kept as text: the ids,
 * times and small references the store holds besides records gain too little to pay for the work.
 */
const COMPRESS_FROM_LENGTH = 256;

/**
 * Values longer than this are kept as text too: one such value (a reservation ledger holding every open hold) fills
 * its overflow pages, so deflating it would save little room for much CPU on every read and write of it.
 */
const COMPRESS_UP_TO_LENGTH = 8 * 1024;

/**
 * Deflate at its fastest level, with a 4 KB window and small match tables: records of this size shrink as much as
 * with the defaults (a 32 KB window, tables of some 256 KB), and each value's deflater is set up with a few
 * dozen KB instead. Any inflater reads what it writes. Its output buffer is sized to what it writes (see
 * {@link INFLATE_OPTIONS}).
 */
const DEFLATE_OPTIONS = { level: 1, windowBits: 12, memLevel: 5, chunkSize: 2 * 1024 } as const;

/**
 * The output buffer of each value's inflater (and deflater) sized to the values kept, not Node's default of 16 KB a
 * call: memory taken outside the heap by every read and write makes the garbage collector run far more often
 * (bench/reports/2026-11-29-store-cpu.md). The window stays the default: rows of releases before the 4 KB window
 * were deflated with a 32 KB one.
 */
const INFLATE_OPTIONS = { chunkSize: 4 * 1024 } as const;

/** The value as the `entries` table keeps it: text, or a blob of an encoding byte and the compressed value. */
export function encodeValue(value: string): string | Uint8Array {
  if (value.length < COMPRESS_FROM_LENGTH || value.length > COMPRESS_UP_TO_LENGTH) return value;
  const text = Buffer.from(value, 'utf8');
  const deflated = deflateRawSync(text, DEFLATE_OPTIONS);
  // A value deflate cannot shrink (already compressed or random) stays text.
  if (deflated.length + 1 >= text.length) return value;
  const stored = Buffer.allocUnsafe(deflated.length + 1);
  stored[0] = DEFLATE_RAW;
  deflated.copy(stored, 1);
  return stored;
}

/** The value a row of `entries` holds, whichever way it was kept. */
export function decodeValue(stored: SqlValue | undefined): string {
  if (!(stored instanceof Uint8Array)) return String(stored);
  const encoding = stored[0];
  if (encoding === DEFLATE_RAW) return inflateRawSync(stored.subarray(1), INFLATE_OPTIONS).toString('utf8');
  throw new Error(
    `a value of the embedded store is kept in an encoding this release does not know (${encoding}): it was ` +
      'written by a newer release. Run that release, or restore a backup this release wrote.',
  );
}

/**
 * The values of the keys written or read last, with the bytes each is kept as: a read whose row holds those same
 * bytes is answered without inflating them again (a checkout is read back on every status poll of its purchase).
 * Matched on the stored bytes, never on a version, so a value written elsewhere or not written at all is simply
 * inflated. At most `size` values are kept, the least recently used going first. `decode` is replaceable in tests.
 */
export function createValueCodec(size: number, decode: typeof decodeValue = decodeValue) {
  const kept = new Map<string, { stored: Uint8Array; value: string }>();
  const keep = (key: string, stored: Uint8Array, value: string) => {
    kept.delete(key);
    if (kept.size >= size) kept.delete(kept.keys().next().value as string);
    kept.set(key, { stored, value });
  };
  return {
    /** {@link encodeValue}, the value kept for the reads of `key` that follow. */
    encode(key: string, value: string): string | Uint8Array {
      const stored = encodeValue(value);
      if (stored instanceof Uint8Array) keep(key, stored, value);
      else kept.delete(key);
      return stored;
    },
    /** {@link decodeValue}, answered from what is kept when `key`'s row holds the same bytes. */
    decode(key: string, stored: SqlValue | undefined): string {
      if (!(stored instanceof Uint8Array)) return decode(stored);
      const hit = kept.get(key);
      if (hit !== undefined && Buffer.compare(hit.stored, stored) === 0) return hit.value;
      const value = decode(stored);
      keep(key, stored, value);
      return value;
    },
  };
}
