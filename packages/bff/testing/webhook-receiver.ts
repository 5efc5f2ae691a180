/**
 * @module
 * A partner's webhook endpoint for tests: a loopback HTTP server that records every delivery, and the
 * verifying snippet of docs/webhooks.md that a partner would paste.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The verifying snippet of docs/webhooks.md, as a partner would paste it (typed). Keep the two identical.
 */
export function verifyEsimWebhook(
  secret: string,
  signatureHeader: string | undefined,
  rawBody: string,
  nowSeconds = Date.now() / 1000,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries(
    String(signatureHeader ?? '')
      .split(',')
      .map((part) => {
        const i = part.indexOf('=');
        return [part.slice(0, i).trim(), part.slice(i + 1).trim()];
      }),
  );
  const timestamp = Number(parts.t);
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  if (!Number.isInteger(timestamp) || given.length !== 32) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return timingSafeEqual(expected, given);
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
