/**
 * @module
 * A partner's webhook endpoint for tests: a loopback HTTP server that records every delivery, and the check of
 * a delivery's signature with the one implementation of the scheme (`checkWebhookSignature` in shared, which
 * the partner SDK's `verifyWebhook` uses too); a config whose widgets post to such an endpoint; and a delivery
 * waiting on the queue, due now, as tests put one there.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookSignature } from '@esim-embed/shared';
import type { WebhookDelivery } from '../src/webhooks/webhook-queue';

/** True when `rawBody` was signed with `secret` within the 5-minute tolerance of `nowSeconds`. */
export async function verifyEsimWebhook(
  secret: string,
  signatureHeader: string | undefined,
  rawBody: string,
  nowSeconds = Date.now() / 1000,
): Promise<boolean> {
  const check = await checkWebhookSignature({
    header: signatureHeader,
    rawBody,
    secrets: secret,
    nowSeconds,
  });
  return check.valid;
}

/** A partner's webhook endpoint: records every request, fails the first `failFirst` with 500. */
export interface WebhookReceiver {
  url: string;
  received: { headers: IncomingHttpHeaders; body: string; answered: number }[];
  failFirst: number;
  close(): Promise<void>;
}

export async function startReceiver(failFirst = 0): Promise<WebhookReceiver> {
  const receiver: Partial<WebhookReceiver> & { received: WebhookReceiver['received']; failFirst: number } = {
    received: [],
    failFirst,
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answered = receiver.received.length < receiver.failFirst ? 500 : 200;
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString(), answered });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/esim`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as WebhookReceiver;
}

/** A delivery of `id` for `widgetId` never attempted and due at `nowMs` (its body names its id), with `overrides`. */
export function pendingDelivery(
  id: string,
  widgetId: string,
  nowMs: number,
  overrides: Partial<WebhookDelivery> = {},
): WebhookDelivery {
  return {
    id,
    type: 'checkout.failed',
    widgetId,
    body: JSON.stringify({ id }),
    state: 'pending',
    attempts: 0,
    createdAtMs: nowMs,
    nextAttemptAtMs: nowMs,
    leaseUntilMs: null,
    lastResult: null,
    checkoutId: null,
    esimId: null,
    history: [],
    resentAtMs: null,
    ...overrides,
  };
}

/**
 * `config` with its widgets (those `which` picks, default all) posting their webhooks to `url`, signed with the
 * secret the test puts in `TEST_WEBHOOK_SECRET`.
 */
export function postingWebhooksTo<Config extends { widgets: readonly { id: string }[] }>(
  config: Config,
  url: string,
  which: (widget: Config['widgets'][number]) => boolean = () => true,
): Config {
  return {
    ...config,
    widgets: config.widgets.map((widget) =>
      which(widget) ? { ...widget, webhookUrl: url, webhookSecretEnv: 'TEST_WEBHOOK_SECRET' } : widget,
    ),
  };
}
