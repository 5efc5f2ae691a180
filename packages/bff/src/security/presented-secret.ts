/**
 * @module
 * What a failure budget counts a presented secret by: its HMAC under the key ring's `presented-secret` key, so
 * that the store's counters tell one wrong secret from another without holding any of them — nor an unkeyed hash,
 * against which whoever read the store could test guesses.
 */
import { keyedDigest } from './keyed-digest';

/** The keyed digest of a presented secret (base64url, 128 bits: enough to tell secrets apart, short in a key). */
export type SecretDigest = (presented: string) => string;

/**
 * The digest of presented secrets under the root secret `root` (the newest one: a rotation only starts the
 * budgets it keys afresh, as a minute does).
 *
 * @example
 * const digest = presentedSecretDigest(rootSecret);
 * digest('wrong-secret'); // 'q3Jx…' (22 characters), the same on every instance of one root
 */
export function presentedSecretDigest(root: Uint8Array): SecretDigest {
  return keyedDigest([root], 'presented-secret');
}
