/**
 * The client's support desk for webhooks and help requests against the real BFF and sandbox, the deliveries posted
 * to a real local receiver: a page of deliveries and every delivery (typed), one read with its event, a resend
 * that reaches the endpoint under the same event id, and the help requests the partner made.
 */
import { randomBytes } from 'node:crypto';
import {
  buyEsim,
  checkoutAsTraveller,
  openWidget,
  PARTNER_SECRET,
  postingWebhooksTo,
  type Stack,
  startStack,
  startWebhookReceiver,
  testConfig,
  type WebhookReceiver,
} from '@esim-embed/bff/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from './partner-client';

let receiver: WebhookReceiver;
let stack: Stack;
let esim: PartnerClient;
beforeAll(async () => {
  receiver = await startWebhookReceiver(0);
  stack = await startStack({
    env: { TEST_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}` },
    config: (url) => postingWebhooksTo(testConfig(url), receiver.url),
    bffOptions: { startWorkers: false },
  });
  esim = createPartnerClient({ baseUrl: stack.server.url, partnerSecret: PARTNER_SECRET });
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

describe('the support desk in the partner client', () => {
  it('lists, reads and resends webhook deliveries', async () => {
    const checkoutIds = [
      await checkoutAsTraveller(stack.server.url, 'shop-pay'),
      await checkoutAsTraveller(stack.server.url, 'shop-pay'),
    ];
    await stack.bff.webhookSender.deliverDue();
    const page = await esim.webhookDeliveries.list({ type: 'checkout.awaiting_payment', limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ checkoutId: checkoutIds[1], status: 'delivered' });
    expect(page.nextCursor).toEqual(expect.any(String));
    const every = [];
    for await (const delivery of esim.webhookDeliveries.all({ status: 'delivered' }, { pageSize: 1 }))
      every.push(delivery.checkoutId);
    expect(every).toEqual([...checkoutIds].reverse());

    const id = page.data[0]?.id ?? '';
    const read = await esim.webhookDeliveries.read(id);
    expect(read.event).toMatchObject({ id, type: 'checkout.awaiting_payment' });
    const heard = receiver.received.length;
    const resent = await esim.webhookDeliveries.resend(id, { idempotencyKey: `resend-${id}` });
    expect(resent).toMatchObject({ id, status: 'pending', resentAt: expect.any(String) });
    await stack.bff.webhookSender.deliverDue();
    expect(receiver.received.slice(heard).map((request) => request.headers['esim-webhook-id'])).toEqual([id]);
    expect(await esim.webhookDeliveries.read(id)).toMatchObject({ status: 'delivered', attemptCount: 2 });
  });

  it('lists the help requests it made', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const request = await esim.esims.createActionRequest(bought.esimId, { reasonCode: 'service_defective' });
    const page = await esim.actionRequests.list({ esimId: bought.esimId });
    expect(page).toEqual({ data: [request], nextCursor: null });
  });
});
