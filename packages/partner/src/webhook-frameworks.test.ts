/**
 * The webhook handlers in real Express and Hono apps on loopback ports, receiving real signed deliveries from the
 * BFF (in front of the real sandbox): each event reaches the handler of its type, typed; the same delivery
 * replayed with a changed body, signed with another secret, or past the tolerance is answered 400 and reaches no
 * handler; a handler that throws is answered 500 (so the BFF retries). Express is tried with `express.raw()` in
 * front and with no body parser (the handler reads the stream); `express.json()` in front is a clear error.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkoutAsTraveller,
  eventually,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
} from '@esim-embed/bff/testing';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER, type WebhookEvent } from '@esim-embed/shared';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookHandler as expressWebhookHandler } from './express';
import { webhookHandler as honoWebhookHandler } from './hono';
import { createPartnerClient } from './partner-client';
import type { WebhookHandlers } from './webhook-handler';

const WEBHOOK_SECRET = `whsec_${crypto.randomUUID()}`;
/** The receivers' clock runs ahead of the wall clock by this much (to try a delivery that became too old). */
let receiverSkewMs = 0;

/** A delivery as it reached the app: headers and the raw body. */
interface Delivery {
  headers: Record<string, string>;
  body: string;
}
/** What one app's handlers saw and what reached it. */
interface Receiver {
  url: string;
  deliveries: Delivery[];
  handled: WebhookEvent[];
}

/** A handler per type that records the typed event (and reads a field only that type has). */
function recordingHandlers(handled: WebhookEvent[]): WebhookHandlers {
  return {
    'checkout.awaiting_payment': (event) => {
      handled.push(event);
      expect(event.data.checkout.status).toBe('awaiting_payment');
    },
    'checkout.completed': (event) => {
      handled.push(event);
      expect(event.data.checkout.status).toBe('ready');
    },
    'esim.ready': (event) => {
      handled.push(event);
      expect(event.data.esimId).toEqual(expect.any(String));
    },
  };
}

const options = (handled: WebhookEvent[]) => ({
  // The old and the new secret, as while rotating: deliveries signed with either verify.
  secret: ['whsec_next_one', WEBHOOK_SECRET],
  handlers: recordingHandlers(handled),
  now: () => Date.now() + receiverSkewMs,
  onError: () => {},
});

const headersOf = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));

let expressReceiver: Receiver & { streamUrl: string; jsonUrl: string; failingUrl: string };
let honoReceiver: Receiver & { failingUrl: string };
const servers: { close(): void }[] = [];
let stack: Stack;

async function listen(app: (req: never, res: never) => void): Promise<string> {
  const { createServer } = await import('node:http');
  const server: Server = createServer(app as never).listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const expressDeliveries: Delivery[] = [];
  const expressHandled: WebhookEvent[] = [];
  const app = express();
  app.post(
    '/hooks/esim',
    express.raw({ type: 'application/json' }),
    (request, _response, next) => {
      expressDeliveries.push({ headers: headersOf(request.headers), body: String(request.body) });
      next();
    },
    expressWebhookHandler(options(expressHandled)),
  );
  app.post('/hooks/stream', expressWebhookHandler(options(expressHandled)));
  app.post('/hooks/parsed', express.json(), expressWebhookHandler(options(expressHandled)));
  app.post(
    '/hooks/failing',
    expressWebhookHandler({
      ...options([]),
      handlers: {
        'checkout.awaiting_payment': () => {
          throw new Error('the database is down');
        },
      },
    }),
  );
  const expressUrl = await listen(app as never);
  expressReceiver = {
    url: `${expressUrl}/hooks/esim`,
    streamUrl: `${expressUrl}/hooks/stream`,
    jsonUrl: `${expressUrl}/hooks/parsed`,
    failingUrl: `${expressUrl}/hooks/failing`,
    deliveries: expressDeliveries,
    handled: expressHandled,
  };

  const honoDeliveries: Delivery[] = [];
  const honoHandled: WebhookEvent[] = [];
  const hono = new Hono();
  hono.post(
    '/hooks/esim',
    async (c, next) => {
      honoDeliveries.push({ headers: headersOf(c.req.header()), body: await c.req.text() });
      await next();
    },
    honoWebhookHandler(options(honoHandled)),
  );
  hono.post(
    '/hooks/failing',
    honoWebhookHandler({
      ...options([]),
      handlers: {
        'esim.ready': async () => {
          throw new Error('the database is down');
        },
      },
    }),
  );
  const honoServer = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' });
  await once(honoServer, 'listening');
  servers.push(honoServer);
  const honoUrl = `http://127.0.0.1:${(honoServer.address() as AddressInfo).port}`;
  honoReceiver = {
    url: `${honoUrl}/hooks/esim`,
    failingUrl: `${honoUrl}/hooks/failing`,
    deliveries: honoDeliveries,
    handled: honoHandled,
  };

  stack = await startStack({
    config: (sandboxUrl) => {
      // The BFF looks at moving checkouts every second, so events come while nobody polls.
      const base = testConfig(sandboxUrl, { checkoutWatchSeconds: 1 });
      const receiverOf: Record<string, string> = { 'shop-pay': expressReceiver.url, shop: honoReceiver.url };
      return {
        ...base,
        widgets: base.widgets.map((widget) =>
          receiverOf[widget.id] === undefined
            ? widget
            : { ...widget, webhookUrl: receiverOf[widget.id], webhookSecretEnv: 'TEST_WEBHOOK_SECRET' },
        ),
      };
    },
    env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
    bffOptions: { webhooks: { intervalMs: 25 } },
  });
});
afterAll(async () => {
  await stack?.close();
  for (const server of servers) server.close();
});

/** POST a delivery to an app as the BFF would. */
async function deliver(url: string, delivery: Delivery): Promise<number> {
  const { 'content-length': _length, host: _host, connection: _connection, ...headers } = delivery.headers;
  const response = await fetch(url, { method: 'POST', headers, body: delivery.body });
  await response.body?.cancel();
  return response.status;
}

const handledOf = (receiver: Receiver, type: WebhookEvent['type'], checkoutId: string) =>
  eventually(async () =>
    receiver.handled.find(
      (event) => event.type === type && 'checkout' in event.data && event.data.checkout.id === checkoutId,
    ),
  );

describe('webhook handlers', () => {
  it('Express: a partner_confirm sale reaches the handler of each event type', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    await handledOf(expressReceiver, 'checkout.awaiting_payment', checkoutId);
    const esim = createPartnerClient({ baseUrl: stack.server.url, partnerSecret: PARTNER_SECRET });
    await esim.checkouts.confirm(checkoutId, { paymentReference: 'pay_hooks_1' });
    const completed = await handledOf(expressReceiver, 'checkout.completed', checkoutId);
    expect(completed).toMatchObject({
      widgetId: 'shop-pay',
      data: { checkout: { paymentReference: 'pay_hooks_1' } },
    });
    await handledOf(expressReceiver, 'esim.ready', checkoutId);
  });

  it('Hono: a direct sale reaches the handler of each event type', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop');
    await handledOf(honoReceiver, 'checkout.completed', checkoutId);
    const ready = await handledOf(honoReceiver, 'esim.ready', checkoutId);
    expect(ready.widgetId).toBe('shop');
  });

  it('refuses a changed body, another secret and an old timestamp with 400, reaching no handler', async () => {
    const targets = [
      { receiver: expressReceiver, urls: [expressReceiver.url, expressReceiver.streamUrl] },
      { receiver: honoReceiver, urls: [honoReceiver.url] },
    ];
    for (const { receiver, urls } of targets) {
      const real = receiver.deliveries[0] as Delivery;
      expect(real.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const changed = { ...real, body: real.body.replace('"environment":"test"', '"environment":"live"') };
      expect(changed.body).not.toBe(real.body);
      const t = Math.floor(Date.now() / 1000);
      const forged = {
        ...real,
        headers: {
          ...real.headers,
          [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: await signWebhook('whsec_guessed', real.body, t),
        },
      };
      const unsigned = {
        ...real,
        headers: Object.fromEntries(
          Object.entries(real.headers).filter(([name]) => name !== WEBHOOK_SIGNATURE_HEADER.toLowerCase()),
        ),
      };
      for (const url of urls) {
        const before = receiver.handled.length;
        expect(await deliver(url, changed)).toBe(400);
        expect(await deliver(url, forged)).toBe(400);
        expect(await deliver(url, unsigned)).toBe(400);
        receiverSkewMs = 301_000;
        expect(await deliver(url, real)).toBe(400);
        receiverSkewMs = 0;
        expect(receiver.handled.length).toBe(before);
        // The real delivery itself, again within the tolerance: accepted (de-duplicating is the partner's).
        expect(await deliver(url, real)).toBe(204);
        expect(receiver.handled.length).toBe(before + 1);
      }
    }
  });

  it('answers 500 when the handler throws, so that the BFF sends the event again', async () => {
    const awaiting = expressReceiver.deliveries.find((delivery) =>
      delivery.body.includes('"checkout.awaiting_payment"'),
    ) as Delivery;
    expect(await deliver(expressReceiver.failingUrl, awaiting)).toBe(500);
    const ready = honoReceiver.deliveries.find((delivery) =>
      delivery.body.includes('"esim.ready"'),
    ) as Delivery;
    expect(await deliver(honoReceiver.failingUrl, ready)).toBe(500);
    // An event type with no handler is acknowledged.
    expect(await deliver(honoReceiver.failingUrl, honoReceiver.deliveries[0] as Delivery)).toBe(204);
  });

  it('refuses to start without a webhook secret (an unset variable would verify nothing)', () => {
    expect(() => honoWebhookHandler({ secret: '', handlers: {} })).toThrow(/secret/);
    expect(() => expressWebhookHandler({ secret: [''], handlers: {} })).toThrow(/secret/);
  });

  it('Express behind express.json(): the raw body is gone, and the error says how to mount it', async () => {
    const real = expressReceiver.deliveries[0] as Delivery;
    const response = await fetch(expressReceiver.jsonUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_SIGNATURE_HEADER]: real.headers['esim-signature'] as string,
      },
      body: real.body,
    });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('express.raw');
  });
});
