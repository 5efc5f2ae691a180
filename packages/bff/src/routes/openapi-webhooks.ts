/**
 * @module
 * The `webhooks` of the OpenAPI document: one per event type, each with its own body — the shared schema of its
 * event (`WebhookEventSchema`'s member that carries the type) with `type` fixed to it — so that a generated
 * receiver has a type per event. Signed and retried as docs/webhooks.md says.
 */
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookEventSchema,
  type WebhookEventType,
  WebhookEventTypeSchema,
} from '@esim-embed/shared';
import { z } from 'zod';
import type { JsonSchema } from './openapi-schemas';

/** The schema of one event type's body: the member of the event union that carries it, its `type` that one. */
export function webhookEventSchema(type: WebhookEventType): z.ZodType {
  const member = WebhookEventSchema.options.find((option) => option.shape.type.safeParse(type).success);
  if (member === undefined) throw new Error(`no webhook event schema carries the type ${type}`);
  return (member as z.ZodObject).extend({ type: z.literal(type) });
}

/** `checkout.awaiting_payment` → `checkoutAwaitingPaymentEvent`: the event's operation id. */
export function webhookOperationId(type: WebhookEventType): string {
  const words = type.split(/[._]/);
  return [
    words[0],
    ...words.slice(1).map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`),
    'Event',
  ].join('');
}

/** The document's `webhooks`: every event type by its name, `toJsonSchema` rendering each body. */
export function webhookOperations(toJsonSchema: (schema: z.ZodType) => JsonSchema): JsonSchema {
  return Object.fromEntries(
    WebhookEventTypeSchema.options.map((type) => [
      type,
      {
        post: {
          operationId: webhookOperationId(type),
          summary: `The ${type} event, POSTed to the widget’s webhookUrl.`,
          description:
            'Signed in Esim-Signature (t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>); sent again with ' +
            'backoff until a 2xx answer, for webhookRetryHours (a day); de-duplicate on the event id (also in ' +
            'Esim-Webhook-Id). See docs/webhooks.md.',
          security: [],
          parameters: [
            { name: WEBHOOK_SIGNATURE_HEADER, in: 'header', required: true, schema: { type: 'string' } },
            { name: WEBHOOK_ID_HEADER, in: 'header', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toJsonSchema(webhookEventSchema(type)) } },
          },
          responses: {
            '2XX': { description: 'Received: the event is not sent again.' },
            '4XX': {
              description:
                'Refused (a bad signature, say): sent again with backoff, as after any other answer.',
            },
          },
        },
      },
    ]),
  );
}
