/**
 * @module
 * The webhook signature: `Esim-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${body}`)>`.
 * Signing over the timestamp and the raw body lets a receiver refuse replays (an old `t`) and any change of
 * the body. The verifying side is documented, with a Node snippet, in docs/webhooks.md.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from '@esim-embed/shared';

/** The `Esim-Signature` value for `body` sent at `timestampSeconds`. */
export function signWebhook(secret: string, body: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}

/**
 * Whether `header` is a valid signature of `body` under `secret`, made within the tolerance of `nowSeconds`.
 * The receiver's check, kept here for the BFF's own tests and tools.
 */
export function verifyWebhook(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  if (header === undefined) return false;
  const parts = new Map(
    header.split(',').map((part) => {
      const index = part.indexOf('=');
      return [part.slice(0, index).trim(), part.slice(index + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
