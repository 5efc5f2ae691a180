/**
 * @module
 * The console's second factor: time-based one-time passwords (RFC 6238 over RFC 4226's HOTP: HMAC-SHA1, 30-second
 * steps, 6 digits), as every authenticator app computes them, and the `otpauth://` URI that enrols one. A code of
 * the step before or after is accepted too (a phone's clock a little off), and never the same step twice
 * (`usedStep`): a code seen over a shoulder is spent once it is used.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { base32 } from '../security/base32';

const STEP_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of the current one that are accepted. */
const DRIFT_STEPS = 1;
/** A new secret's size: 160 bits, RFC 4226's recommendation for HMAC-SHA1. */
const SECRET_BYTES = 20;

/** A new random second-factor secret. */
export const newTotpSecret = (): Buffer => randomBytes(SECRET_BYTES);

/** The step a time (ms since the epoch) falls in. */
export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / STEP_SECONDS);

/** The code of one step (RFC 4226's dynamic truncation of HMAC-SHA1 over the step as 8 bytes). */
export function totpCode(secret: Uint8Array, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0');
}

/**
 * The step whose code `code` is, among the current one and its neighbours, skipping every step up to `usedStep`
 * (already spent); null when none matches.
 */
export function matchTotp(
  secret: Uint8Array,
  code: string,
  nowMs: number,
  usedStep: number | null,
): number | null {
  const current = totpStep(nowMs);
  const given = Buffer.from(code.padEnd(DIGITS, ' ').slice(0, DIGITS));
  let matched: number | null = null;
  // Every candidate is computed and compared, so the time taken does not say which one matched.
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step += 1) {
    const equal = timingSafeEqual(given, Buffer.from(totpCode(secret, step)));
    if (equal && (usedStep === null || step > usedStep) && matched === null) matched = step;
  }
  return matched;
}

/** The enrolment URI an authenticator app scans: `otpauth://totp/<issuer>:<name>?secret=…&issuer=…`. */
export function otpauthUri(secret: Uint8Array, issuer: string, username: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(username)}`;
  const query = new URLSearchParams({
    secret: base32(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(DIGITS),
    period: String(STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
