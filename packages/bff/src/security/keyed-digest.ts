/**
 * @module
 * Keyed digests of what the store must find or tell apart again but never hold: an e-mail address, eSIM or
 * payment reference that names an index (`checkout/checkout-index.ts`), a client address in a counter's name, the
 * address and session that opened a funding hold, a presented partner secret. Each is an HMAC-SHA256 under the
 * key ring's key of its purpose, cut to 128 bits, base64url (22 characters: short in a key's name, and a
 * collision between two real values is never met). A plain SHA-256 — even salted with config values — is
 * reversed by whoever holds a copy of the store and a list of likely values (a dictionary of addresses, the whole
 * IPv4 space); this one is not without the root secret.
 *
 * A digest under the newest root is what is written. {@link KeyedDigest.earlier} names the same value under the
 * roots rotated out, for the few records that are looked up by digest for longer than a rotation takes (the
 * indexes: see "Keys and digests" in docs/architecture.md).
 */
import { hmacSha256 } from './hmac';
import { type KeyPurpose, purposeKeys } from './key-ring';

/** The key purposes whose keys name values in the store. */
export type DigestPurpose = Extract<
  KeyPurpose,
  | 'index-name'
  | 'counted-address'
  | 'funding-holder'
  | 'presented-secret'
  | 'request-fingerprint'
  | 'console-username'
>;

/** The keyed digest of one purpose. */
export interface KeyedDigest {
  /** The digest of `value` under the newest root: what is written. */
  (value: string): string;
  /** The digests of `value` under the roots rotated out, newest first (none without a rotation). */
  earlier(value: string): string[];
  /** The id of the newest root's key: names what was built under it (an index build's mark). */
  kid: string;
}

/** Bytes of the HMAC kept: 128 bits. */
const KEPT_BYTES = 16;

/**
 * The keyed digest of `purpose` under `roots`, newest first.
 *
 * @example
 * const digest = keyedDigest([rootSecret], 'counted-address');
 * digest('203.0.113.9'); // 'q3Jx…' (22 characters), the same on every instance of one root
 */
export function keyedDigest(roots: readonly Uint8Array[], purpose: DigestPurpose): KeyedDigest {
  const keys = purposeKeys(roots, purpose);
  const others = roots.slice(1).map((root) => purposeKeys([root], purpose).signing.key);
  const under = (key: Uint8Array, value: string) =>
    hmacSha256(key, value).subarray(0, KEPT_BYTES).toString('base64url');
  const digest = (value: string) => under(keys.signing.key, value);
  return Object.assign(digest, {
    earlier: (value: string) => others.map((key) => under(key, value)),
    kid: keys.signing.kid,
  });
}
