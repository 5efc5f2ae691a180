/**
 * @module
 * `@esim-embed/partner/express`: the BFF's webhooks in an Express app (4 or 5). The signature is over the raw
 * body, so the handler reads it itself: mount it with no body parser in front, or behind `express.raw()` /
 * `express.text()` for its path — never behind `express.json()`, whose parsed object cannot be verified.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { checkedWebhookOptions, handleWebhookRequest, type WebhookHandlerOptions } from './webhook-handler';

/** Deliveries are small JSON events; a larger body is not one of them. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The raw body: what `express.raw()` / `express.text()` kept, or the request stream read here. */
async function rawBodyOf(request: Request): Promise<string | Uint8Array> {
  const body: unknown = request.body;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body !== undefined && !(typeof body === 'object' && body !== null && Object.keys(body).length === 0)) {
    throw new Error(
      'eSIM Embed webhooks: the body was already parsed (express.json?): mount the webhook handler before express.json(), or behind express.raw({ type: "application/json" })',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return new Uint8Array();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * An Express handler for the BFF's webhooks: 204 when handled, 400 when the delivery does not verify, 500 when
 * your handler throws (the BFF then retries).
 *
 * @example
 * app.post('/webhooks/esim', webhookHandler({
 *   secret: process.env.ESIM_WEBHOOK_SECRET,
 *   handlers: { 'checkout.failed': (event) => refund(event.data.checkout.id) },
 * }));
 */
export function webhookHandler(given: WebhookHandlerOptions): RequestHandler {
  const options = checkedWebhookOptions(given);
  return function esimWebhook(request: Request, response: Response, next: NextFunction) {
    rawBodyOf(request)
      .then((rawBody) => handleWebhookRequest(options, rawBody, request.headers))
      .then((answer) => {
        if (answer.body === null) response.status(answer.status).end();
        else response.status(answer.status).json(answer.body);
      })
      .catch(next);
  };
}

export type {
  WebhookAnswer,
  WebhookEventOf,
  WebhookHandlerOptions,
  WebhookHandlers,
  WebhookLogger,
} from './webhook-handler';
