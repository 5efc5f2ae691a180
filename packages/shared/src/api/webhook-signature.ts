/**
 * @module
 * The webhook signature scheme, in one place for the BFF that signs and every receiver that verifies (the
 * partner SDK, the demo's partner server, the BFF's tests): `Esim-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<raw body>")>`. Built on Web Crypto (`globalThis.crypto.subtle`, in Node ≥ 20, Deno,
 * Bun, edge runtimes and browsers), so it does no I/O and runs wherever a receiver does.
 */
import { WEBHOOK_TOLERANCE_SECONDS } from './webhooks';

/** The scheme's name in the signature header: a receiver looks for `v1=` entries. */
export const WEBHOOK_SIGNATURE_SCHEME = 'v1';

/** Why a signature was refused. */
export type WebhookSignatureFailure =
  /** No `Esim-Signature` header. */
  | 'signature_missing'
  /** The header has no integer `t` or no `v1` of 64 hex digits. */
  | 'signature_malformed'
  /** `t` is further from the receiver's clock than the tolerance: an old request replayed, or a wrong clock. */
  | 'timestamp_outside_tolerance'
  /** No `v1` is the HMAC of this body under any of the secrets: a changed body or another secret. */
  | 'signature_mismatch';

/** What {@link checkWebhookSignature} found. */
export type WebhookSignatureCheck =
  | { valid: true; timestampSeconds: number }
  | { valid: false; reason: WebhookSignatureFailure };

/** An `Esim-Signature` value taken apart: the timestamp and every `v1` signature (raw bytes). */
export interface ParsedWebhookSignature {
  timestampSeconds: number;
  signatures: Uint8Array[];
}

const encoder = new TextEncoder();
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/** The bytes signed: `"<t>."` followed by the raw body exactly as sent. */
function signedBytes(timestampSeconds: number, rawBody: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestampSeconds}.`);
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix, 0);
  bytes.set(body, prefix.length);
  return bytes;
}

function hmacKey(secret: string, usage: 'sign' | 'verify') {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    usage,
  ]);
}

const toHex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The `Esim-Signature` value for `rawBody` sent at `timestampSeconds` under `secret`.
 *
 * @example
 * headers['Esim-Signature'] = await signWebhook(secret, body, Math.floor(Date.now() / 1000));
 */
export async function signWebhook(
  secret: string,
  rawBody: string | Uint8Array,
  timestampSeconds: number,
): Promise<string> {
  const signature = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret, 'sign'),
    signedBytes(timestampSeconds, rawBody),
  );
  return `t=${timestampSeconds},${WEBHOOK_SIGNATURE_SCHEME}=${toHex(signature)}`;
}

/** The header's timestamp and `v1` signatures, or null when it has no integer `t` or no well-formed `v1`. */
export function parseWebhookSignature(header: string): ParsedWebhookSignature | null {
  let timestampSeconds: number | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(',')) {
    const index = part.indexOf('=');
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestampSeconds = Number(value);
    if (key === WEBHOOK_SIGNATURE_SCHEME && HEX_SIGNATURE.test(value)) {
      signatures.push(Uint8Array.from(value.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)));
    }
  }
  return timestampSeconds === undefined || signatures.length === 0 ? null : { timestampSeconds, signatures };
}

/** What {@link checkWebhookSignature} checks. */
export interface WebhookSignatureInput {
  /** The `Esim-Signature` header as received. */
  header: string | null | undefined;
  /** The request body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** The webhook secret, or several while one is being rotated: any of them may have signed. */
  secrets: string | readonly string[];
  /** The receiver's clock, Unix seconds (default: now). */
  nowSeconds?: number;
  /** How far `t` may be from the clock (default {@link WEBHOOK_TOLERANCE_SECONDS}, 5 minutes). */
  toleranceSeconds?: number;
}

/**
 * Whether `header` signs `rawBody` under one of `secrets` within the tolerance of the clock, and if not, why.
 * The comparison is Web Crypto's HMAC verify, which compares in constant time.
 */
export async function checkWebhookSignature(input: WebhookSignatureInput): Promise<WebhookSignatureCheck> {
  if (input.header === null || input.header === undefined || input.header === '')
    return { valid: false, reason: 'signature_missing' };
  const parsed = parseWebhookSignature(input.header);
  if (parsed === null) return { valid: false, reason: 'signature_malformed' };
  const nowSeconds = input.nowSeconds ?? Date.now() / 1000;
  if (Math.abs(nowSeconds - parsed.timestampSeconds) > (input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS))
    return { valid: false, reason: 'timestamp_outside_tolerance' };
  const data = signedBytes(parsed.timestampSeconds, input.rawBody);
  // An empty secret (an unset variable) would let anyone sign: it verifies nothing.
  const secrets = (typeof input.secrets === 'string' ? [input.secrets] : input.secrets).filter(Boolean);
  for (const secret of secrets) {
    const key = await hmacKey(secret, 'verify');
    for (const signature of parsed.signatures) {
      if (await crypto.subtle.verify('HMAC', key, new Uint8Array(signature), data))
        return { valid: true, timestampSeconds: parsed.timestampSeconds };
    }
  }
  return { valid: false, reason: 'signature_mismatch' };
}
