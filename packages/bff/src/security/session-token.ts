/**
 * @module
 * Session tokens: compact JWTs signed with HMAC-SHA256 and nothing else. The algorithm is pinned (the
 * header is checked, never trusted to choose), the signature compared in constant time, and the claims
 * bind the token to one widget, one origin and one environment for at most 15 minutes. The key is the
 * session key of the key ring, named by the `kid` in the header (see `key-ring.ts`).
 */
import { timingSafeEqual } from 'node:crypto';
import { EnvironmentSchema, WidgetIdSchema } from '@esim-embed/shared';
import { z } from 'zod';
import { ApiError } from '../errors';
import { hmacSha256 } from './hmac';
import { type PurposeKeys, purposeKeys } from './key-ring';
import { randomBase64url } from './random-ids';

/**
 * How many verified tokens a signer remembers. A widget sends its token with every call, and verifying it
 * again (base64url, JSON, HMAC, schema) would be the costliest step of a cached catalog read. A token is
 * remembered only after its signature and claims passed, looked up by its exact text, and its lifetime is
 * checked on every use; at the bound the oldest is forgotten (about 3 MB of tokens at most).
 */
const VERIFIED_TOKENS_KEPT = 10_000;

/** The longest a session may live. */
export const MAX_SESSION_TTL_SECONDS = 900;
/** The shortest acceptable signing secret. */
export const MIN_SESSION_SECRET_BYTES = 32;

const HEADER = { alg: 'HS256', typ: 'JWT' } as const;
const ENCODED_HEADER = Buffer.from(JSON.stringify(HEADER)).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** What a session token says: who it is for and until when. */
export const SessionClaimsSchema = z.strictObject({
  /** The session id: scopes idempotency keys, quotes, checkouts and per-session limits. */
  sid: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  wid: WidgetIdSchema,
  /** The normalised origin the session was issued to. */
  org: z.string().min(1).max(512),
  env: EnvironmentSchema,
  iat: z.int().min(0),
  exp: z.int().min(0),
});
export type SessionClaims = z.infer<typeof SessionClaimsSchema>;

export interface SessionSignerOptions {
  /** The root secret that signs: at least 32 bytes. */
  secret: Uint8Array;
  /** Root secrets rotated out, whose sessions are still accepted until they expire. */
  previousSecrets?: readonly Uint8Array[];
  ttlSeconds?: number;
  /** The clock in milliseconds, replaceable in tests. */
  now?: () => number;
}

/** Issues and verifies session tokens with one secret. */
export interface SessionSigner {
  issue(subject: { widgetId: string; origin: string; environment: 'test' | 'live' }): {
    token: string;
    claims: SessionClaims;
  };
  /** The token's claims; anything wrong with it is `widget_session_invalid`. */
  verify(token: string): SessionClaims;
  /**
   * The claims of a token that is valid, or would be but that its session ended no longer than `graceMs` ago, and
   * whether it ended: only for the one thing an ended session may still do (read back the answer of a create it
   * made, `routes/session-auth.ts`). Anything else wrong with it is `widget_session_invalid`, as for `verify`.
   */
  verifyEnded(token: string, graceMs: number): { claims: SessionClaims; ended: boolean };
}

/**
 * Compact HS256 JWTs: the pinned-algorithm signing and verifying that session tokens use. Over a key ring's
 * {@link PurposeKeys} the header names its key (`kid`) and a token without a known one is refused; over one bare
 * key (signed manage tokens of an earlier release) there is no `kid`. `verify` returns the payload, unchecked
 * beyond the signature.
 */
export interface CompactJwt {
  sign(claims: object): string;
  /** The payload of a well-formed token with a valid HS256 signature; `widget_session_invalid` otherwise. */
  verify(token: string): unknown;
}

/** A {@link CompactJwt} over a key ring's keys of one purpose, or over one bare key. */
export function createCompactJwt(keys: PurposeKeys | Uint8Array): CompactJwt {
  const ring = keys instanceof Uint8Array ? undefined : keys;
  const bare = keys instanceof Uint8Array ? Buffer.from(keys) : undefined;
  const invalid = (reason: string) => new ApiError('widget_session_invalid', { params: { reason } });
  const signingHeader =
    ring === undefined
      ? ENCODED_HEADER
      : Buffer.from(JSON.stringify({ ...HEADER, kid: ring.signing.kid })).toString('base64url');
  const signingKey = ring?.signing.key ?? (bare as Buffer);
  /** The key a token's header names: a known `kid` of the ring, or the bare key (which takes none). */
  const keyOf = (header: { kid?: unknown }): Buffer => {
    if (ring === undefined) return bare as Buffer;
    const key = typeof header.kid === 'string' ? ring.byKid(header.kid) : undefined;
    if (key === undefined) throw invalid('key');
    return key;
  };
  return {
    sign(claims) {
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const signature = hmacSha256(signingKey, `${signingHeader}.${payload}`).toString('base64url');
      return `${signingHeader}.${payload}.${signature}`;
    },
    verify(token) {
      if (token.length > 2048) throw invalid('malformed');
      const parts = token.split('.');
      if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) throw invalid('malformed');
      const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
      // The algorithm is pinned: a header that asks for anything but HS256 (`none`, RS256…) is refused
      // before any signature is looked at.
      const header = decodeJson(encodedHeader);
      if (header === undefined || typeof header !== 'object' || header === null) throw invalid('malformed');
      if ((header as { alg?: unknown }).alg !== HEADER.alg) throw invalid('algorithm');
      const expected = hmacSha256(keyOf(header as { kid?: unknown }), `${encodedHeader}.${encodedPayload}`);
      // Compared as text: base64url's last character carries unused bits, so two texts can decode to the same
      // bytes, and only the one the BFF wrote is its token.
      const expectedText = Buffer.from(expected.toString('base64url'));
      const given = Buffer.from(encodedSignature);
      if (given.length !== expectedText.length || !timingSafeEqual(given, expectedText)) {
        throw invalid('signature');
      }
      return decodeJson(encodedPayload);
    },
  };
}

/** A {@link SessionSigner}. Throws at construction when the secret is too short or the TTL too long. */
export function createSessionSigner(options: SessionSignerOptions): SessionSigner {
  const { secret, ttlSeconds, now } = { ttlSeconds: MAX_SESSION_TTL_SECONDS, now: Date.now, ...options };
  const previousSecrets = options.previousSecrets ?? [];
  for (const root of [secret, ...previousSecrets]) {
    if (root.byteLength < MIN_SESSION_SECRET_BYTES) {
      throw new Error(`a session-signing secret has ${root.byteLength} bytes; at least 32 are required`);
    }
  }
  if (ttlSeconds > MAX_SESSION_TTL_SECONDS || ttlSeconds < 1) {
    throw new Error(`sessions live 1..${MAX_SESSION_TTL_SECONDS} seconds, not ${ttlSeconds}`);
  }
  const jwt = createCompactJwt(purposeKeys([secret, ...previousSecrets], 'session'));
  const verified = new Map<string, SessionClaims>();
  const invalid = (reason: string) => new ApiError('widget_session_invalid', { params: { reason } });
  /** Claims whose lifetime is one the BFF could have issued (its end is checked by the caller). */
  const checkLifetime = (claims: SessionClaims) => {
    if (claims.iat > Math.floor(now() / 1000) + 60 || claims.exp - claims.iat > MAX_SESSION_TTL_SECONDS)
      throw invalid('lifetime');
    return claims;
  };
  /** The claims of a well-signed token, ended or not: remembered by its exact text once they passed. */
  const claimsOf = (token: string): SessionClaims => {
    const known = verified.get(token);
    if (known !== undefined) return checkLifetime(known);
    const claims = SessionClaimsSchema.safeParse(jwt.verify(token));
    if (!claims.success) throw invalid('malformed');
    checkLifetime(claims.data);
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value as string);
    verified.set(token, Object.freeze(claims.data));
    return claims.data;
  };
  /** The claims of `token` if its session ended no longer than `graceMs` ago (or lives); forgotten after. */
  const within = (token: string, graceMs: number) => {
    const claims = claimsOf(token);
    if (claims.exp * 1000 + graceMs <= now()) {
      verified.delete(token);
      throw invalid('expired');
    }
    return claims;
  };
  return {
    issue({ widgetId, origin, environment }) {
      const iat = Math.floor(now() / 1000);
      const claims: SessionClaims = {
        sid: randomBase64url(18),
        wid: widgetId,
        org: origin,
        env: environment,
        iat,
        exp: iat + ttlSeconds,
      };
      return { token: jwt.sign(claims), claims };
    },
    verify: (token) => within(token, 0),
    verifyEnded(token, graceMs) {
      const claims = within(token, graceMs);
      return { claims, ended: claims.exp * 1000 <= now() };
    },
  };
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
