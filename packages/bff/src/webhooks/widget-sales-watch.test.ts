/**
 * The partner learns that its widget stopped selling, over HTTP against the sandbox's retail-brand account
 * (Harbour Mobile): the brand paused upstream, the widget's next catalog refresh refuses every quote, and one
 * signed `widget.sales_stopped` (reason and brand status) reaches the partner's endpoint — once, however often
 * the watch looks, on two BFF instances sharing the store; the brand active again, one `widget.sales_resumed`.
 */
import { randomBytes } from 'node:crypto';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '@esim-embed/sandbox';
import { WEBHOOK_SIGNATURE_HEADER, WidgetSalesWebhookEventSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBff, type Stack, startBff, startStack, testConfig } from '../../testing/stack';
import { startReceiver, verifyEsimWebhook, type WebhookReceiver } from '../../testing/webhook-receiver';
import { createMemoryStore } from '../store/memory-store';
import type { Store } from '../store/store';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const store = createMemoryStore();
let receiver: WebhookReceiver;
let stack: Stack;
/** A second instance on the same store, its catalog refreshed on its own. */
let other: RunningBff;

const configOf = (sandboxUrl: string) => {
  const base = testConfig(sandboxUrl);
  return {
    ...base,
    widgets: [
      ...base.widgets,
      {
        id: 'harbour',
        displayName: 'Harbour',
        environment: 'test' as const,
        upstream: { baseUrl: sandboxUrl, apiKeyEnv: 'TEST_HARBOUR_KEY', rateLimitPerMinute: 100_000 },
        allowedOrigins: ['https://harbour.example'],
        checkoutMode: 'direct' as const,
        webhookUrl: receiver.url,
        webhookSecretEnv: 'TEST_WEBHOOK_SECRET',
      },
    ],
  };
};
const env = { TEST_HARBOUR_KEY: SANDBOX_KEYS.harbour, TEST_WEBHOOK_SECRET: WEBHOOK_SECRET };

beforeAll(async () => {
  receiver = await startReceiver(0);
  stack = await startStack({ store, env, config: configOf, bffOptions: { startWorkers: false } });
  other = await startBff(stack.sandbox.url, {
    store,
    env,
    sessionSecret: randomBytes(32),
    config: configOf,
    bffOptions: { startWorkers: false },
  });
});
afterAll(async () => {
  await other?.server.close();
  await stack?.close();
  await receiver?.close();
});

/** Set the brand's status upstream; both instances refresh Harbour's catalog and look; what is due is sent. */
async function brandBecomes(status: 'active' | 'paused'): Promise<void> {
  await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.harbour, { retailBrandStatus: status });
  for (const bff of [stack.bff, other.bff]) {
    await bff.widgets.get('harbour')?.catalog.refresh();
    await bff.widgetSalesWatch.check();
    await bff.widgetSalesWatch.check();
    await bff.webhookSender.deliverDue();
  }
}

/** The widget-sales events Harbour's endpoint accepted, verified. */
async function heard() {
  const sales = receiver.received.filter((request) => request.body.includes('"widget.sales_'));
  return await Promise.all(
    sales.map(async (request) => {
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
      expect(await verifyEsimWebhook(WEBHOOK_SECRET, signature, request.body)).toBe(true);
      return WidgetSalesWebhookEventSchema.parse(JSON.parse(request.body));
    }),
  );
}

describe('a widget that stops selling', () => {
  it('tells nothing while the widget sells', async () => {
    await brandBecomes('active');
    expect(await heard()).toEqual([]);
  });

  it('tells the partner once when its retail brand is paused, and once when it sells again', async () => {
    await brandBecomes('paused');
    const stopped = await heard();
    expect(stopped).toMatchObject([
      {
        type: 'widget.sales_stopped',
        widgetId: 'harbour',
        environment: 'test',
        data: { reason: 'retail_brand_status', brandStatus: 'paused' },
      },
    ]);
    await brandBecomes('active');
    const told = await heard();
    expect(told.map((event) => [event.type, event.data.reason])).toEqual([
      ['widget.sales_stopped', 'retail_brand_status'],
      ['widget.sales_resumed', null],
    ]);
    // Paused again later: a new event, not the first one again.
    await brandBecomes('paused');
    const again = await heard();
    expect(again.map((event) => event.type)).toEqual([
      'widget.sales_stopped',
      'widget.sales_resumed',
      'widget.sales_stopped',
    ]);
    expect(new Set(again.map((event) => event.id)).size).toBe(3);
    await brandBecomes('active');
  });

  it('loses no event when the instance that told a change dies before putting it on the webhook queue', async () => {
    // A third instance whose process dies the moment it queues anything: after it wrote what it told.
    let dead = false;
    const mortal: Store = {
      ...store,
      queue(name) {
        const queue = store.queue(name);
        return {
          ...queue,
          async add() {
            dead = true;
            throw new Error('this instance is dead');
          },
        };
      },
    };
    const dying = await startBff(stack.sandbox.url, {
      store: mortal,
      env,
      sessionSecret: randomBytes(32),
      config: configOf,
      bffOptions: { startWorkers: false },
    });
    try {
      const before = (await heard()).length;
      await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.harbour, { retailBrandStatus: 'paused' });
      // Twice: the first may be the load it began at its start, before the brand was paused.
      await dying.bff.widgets.get('harbour')?.catalog.refresh();
      await dying.bff.widgets.get('harbour')?.catalog.refresh();
      await dying.bff.widgetSalesWatch.check();
      expect(dead).toBe(true);
      // The survivors look (their own views have changed too): the change is told once, by the event it wrote.
      await brandBecomes('paused');
      const told = (await heard()).slice(before);
      expect(told.map((event) => [event.type, event.data.reason])).toEqual([
        ['widget.sales_stopped', 'retail_brand_status'],
      ]);
    } finally {
      await dying.server.close();
      await brandBecomes('active');
    }
  });
});
