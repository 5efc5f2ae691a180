/**
 * @module
 * `@esim-embed/partner/hono`: the BFF's webhooks in a Hono app, on any runtime Hono runs on (the verification is
 * Web Crypto). The raw body is read from the request itself.
 */
import type { Context, Env } from 'hono';
import { checkedWebhookOptions, handleWebhookRequest, type WebhookHandlerOptions } from './webhook-handler';

/**
 * A Hono handler for the BFF's webhooks: 204 when handled, 400 when the delivery does not verify, 500 when your
 * handler throws (the BFF then retries).
 *
 * @example
 * app.post('/webhooks/esim', webhookHandler({
 *   secret: env.ESIM_WEBHOOK_SECRET,
 *   handlers: { 'esim.ready': (event) => emailTraveller(event.data.checkout) },
 * }));
 */
export function webhookHandler<E extends Env = Env>(
  given: WebhookHandlerOptions,
): (c: Context<E>) => Promise<Response> {
  const options = checkedWebhookOptions(given);
  return async function esimWebhook(c) {
    const rawBody = new Uint8Array(await c.req.arrayBuffer());
    const answer = await handleWebhookRequest(options, rawBody, c.req.raw.headers);
    return answer.status === 204 ? c.body(null, 204) : c.json(answer.body, answer.status);
  };
}

export type {
  WebhookAnswer,
  WebhookEventOf,
  WebhookHandlerOptions,
  WebhookHandlers,
  WebhookLogger,
} from './webhook-handler';
