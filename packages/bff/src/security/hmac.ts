/**
 * @module
 * HMAC-SHA256 with keys prepared once. Node.js 24 checks a raw key's type on every `createHmac` (whether it is
 * a `KeyObject` or a `CryptoKey`, through a thrown and caught brand check): measured at ≈ 7× the cost of the
 * HMAC itself, on the path of every session, status poll and checkout secret. A `KeyObject` made once skips it
 * (and costs the same on Node.js 20).
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

const prepared = new WeakMap<Uint8Array, KeyObject>();

/** The key as a `KeyObject`, made on first use and kept while the key is. */
function keyObjectOf(key: Uint8Array): KeyObject {
  let keyObject = prepared.get(key);
  if (keyObject === undefined) {
    keyObject = createSecretKey(key);
    prepared.set(key, keyObject);
  }
  return keyObject;
}

/** HMAC-SHA256 of `input` under `key`. */
export function hmacSha256(key: Uint8Array | KeyObject, input: string): Buffer {
  return createHmac('sha256', key instanceof Uint8Array ? keyObjectOf(key) : key)
    .update(input)
    .digest();
}

/** A key made from text once (fixed keys of the code, like the comparison's). */
export function fixedKey(text: string): KeyObject {
  return createSecretKey(Buffer.from(text));
}
