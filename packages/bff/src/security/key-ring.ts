/**
 * @module
 * The BFF's keys: one per kind of token, derived with HKDF from a root secret (`ESIM_BFF_SESSION_SECRET`) and
 * named by a key id that the token carries. Several roots may be accepted at once (`ESIM_BFF_PREVIOUS_SESSION_SECRETS`):
 * the first signs, every one verifies, so the root can be rotated without breaking what was issued before.
 */
import { createHash, hkdfSync } from 'node:crypto';

/** What a key is for. A key of one purpose never verifies a token of another. */
export type KeyPurpose =
  | 'session'
  | 'checkout-client-secret'
  | 'checkout-opened-from'
  | 'manage-link-seal'
  | 'presented-secret'
  /** Names an index by an exact value (an e-mail address, an eSIM, a payment reference): `keyed-digest.ts`. */
  | 'index-name'
  /** A client address in a counter's name (rate limits, the upstream budget's shares). */
  | 'counted-address'
  /** The address and session that opened a funding hold, as the reservation ledger keeps them. */
  | 'funding-holder'
  /** What an idempotent create asked (its body may hold a traveller's e-mail address), kept with its key. */
  | 'request-fingerprint'
  /** The keyed digest that names an erased traveller's e-mail address in an erasure receipt (never the address). */
  | 'privacy-erasure'
  /** Names a console user's sign-in name in the store (an e-mail address, often): `console/console-users.ts`. */
  | 'console-username'
  /** Seals a console user's second-factor secret in the store: `console/console-users.ts`. */
  | 'console-second-factor'
  /** Signs the console lists' cursors (a console user holds no partner secret to sign them with). */
  | 'console-cursor';

/** A derived key and the id that names it in a token (the id says nothing about the key). */
export interface NamedKey {
  kid: string;
  key: Buffer;
}

/** The keys of one purpose: the one that signs, and every one that verifies. */
export interface PurposeKeys {
  /** Derived from the first root secret. */
  signing: NamedKey;
  /** The key named `kid`, from any accepted root; undefined for an unknown id. */
  byKid(kid: string): Buffer | undefined;
}

/** Fixed salt: the roots are already random, the salt only keeps these keys apart from any other HKDF use. */
const SALT = 'esim-embed key ring';

/**
 * The key of `purpose` under `root`.
 *
 * @example
 * deriveKey(rootSecret, 'session'); // { kid: '3f9a0c1e', key: <32 bytes> }
 */
export function deriveKey(root: Uint8Array, purpose: KeyPurpose): NamedKey {
  const key = Buffer.from(hkdfSync('sha256', root, SALT, `esim-embed ${purpose} v1`, 32));
  return { kid: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

/** The keys of `purpose` under `roots`, newest first. Throws on an empty list. */
export function purposeKeys(roots: readonly Uint8Array[], purpose: KeyPurpose): PurposeKeys {
  const named = roots.map((root) => deriveKey(root, purpose));
  const signing = named[0];
  if (signing === undefined) throw new Error(`no root secret to derive the ${purpose} key from`);
  const byKid = new Map(named.map((entry) => [entry.kid, entry.key]));
  return { signing, byKid: (kid) => byKid.get(kid) };
}
