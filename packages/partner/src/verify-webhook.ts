/**
 * @module
 * `verifyWebhook`: a delivery from the BFF checked as docs/webhooks.md specifies — the `Esim-Signature` over the
 * raw body under the webhook secret (or one of several, while rotating), in constant time, with `t` within the
 * tolerance of the clock (an old request replayed is refused) — and its body parsed as a typed event.
 */
import {
  checkWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  WebhookEventSchema,
  type WebhookSignatureFailure,
} from '@esim-embed/shared';

/** Request headers as Node (`req.headers`), Express, the Fetch API (`Headers`) or a plain object give them. */
export type WebhookHeaders =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { get(name: string): string | null | undefined };

/** Why a delivery was refused: the signature's reasons, or a signed body that is not an event. */
export type WebhookVerificationFailure = WebhookSignatureFailure | 'payload_invalid';

/** How {@link verifyWebhook} checks. */
export interface VerifyWebhookOptions {
  /** How far the signed `t` may be from the clock (default 300 s, as the BFF's docs state). */
  toleranceSeconds?: number;
  /** The clock, in milliseconds (default `Date.now`). */
  now?: () => number;
}

/**
 * A delivery that did not verify: answer it 400 (the BFF retries it, so a real event is not lost while a
 * secret is being fixed). `reason` says why, for your logs.
 */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, options: { cause?: unknown } = {}) {
    super(`eSIM Embed webhook refused: ${reason}`, options);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

/** One header's value, whatever shape the headers come in (case-insensitive; the first of a repeated one). */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.[0];
}

/**
 * The event the BFF signed, or a {@link WebhookVerificationError}.
 *
 * @param rawBody the request body exactly as received (a string or the bytes), before any JSON parsing
 * @param headers the request's headers (`Esim-Signature` is read)
 * @param secrets the webhook secret, or several while rotating (the old and the new)
 * @example
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.ESIM_WEBHOOK_SECRET);
 * if (event.type === 'checkout.completed') fulfil(event.data.checkout);
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const check = await checkWebhookSignature({
    header: headerValue(headers, WEBHOOK_SIGNATURE_HEADER),
    rawBody,
    secrets,
    nowSeconds: (options.now ?? Date.now)() / 1000,
    toleranceSeconds: options.toleranceSeconds,
  });
  if (!check.valid) throw new WebhookVerificationError(check.reason);
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
  } catch (cause) {
    throw new WebhookVerificationError('payload_invalid', { cause });
  }
  const event = WebhookEventSchema.safeParse(json);
  if (!event.success) throw new WebhookVerificationError('payload_invalid', { cause: event.error });
  return event.data;
}
