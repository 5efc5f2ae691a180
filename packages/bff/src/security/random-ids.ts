/**
 * @module
 * Random ids (request ids, session ids) from a pool of cryptographically random bytes drawn 8 KiB at a time, so
 * that a request does not pay for a `randomBytes` call (a trip into OpenSSL's generator) of its own. The bytes are
 * as random as fresh ones; each is handed out once.
 */
import { randomBytes } from 'node:crypto';

const POOL_BYTES = 8_192;
let pool = randomBytes(0);
let offset = 0;

/** `bytes` random bytes as base64url text (`bytes` ≤ 8 KiB). */
export function randomBase64url(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, bytes));
    offset = 0;
  }
  const text = pool.toString('base64url', offset, offset + bytes);
  offset += bytes;
  return text;
}
