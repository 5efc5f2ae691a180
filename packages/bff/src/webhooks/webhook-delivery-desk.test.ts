/**
 * The partner's support desk for webhooks, over HTTP against the real sandbox, the deliveries posted to a real
 * local receiver: each delivery listed newest first with its event type, checkout, status and attempts (time and
 * HTTP status), filtered by status, type and checkout through cursors bound to their filters; an endpoint that
 * fails shows its delivery `paused` behind the circuit; a resend of a delivery still pending changes nothing (no
 * attempt, the circuit's pause and the retry span as they were, no key kept); a resend of a delivered one sends the
 * same event (same id) at once, once per `Idempotency-Key`.
 */
import { randomBytes } from 'node:crypto';
import { PARTNER_SECRET_HEADER, PartnerWebhookDeliveryDetailSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  call,
  newKey,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testClock,
  testConfig,
} from '../../testing/stack';
import { checkoutAsTraveller } from '../../testing/traveller-checkout';
import { postingWebhooksTo, startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { createMemoryStore } from '../store/memory-store';
import { QUEUE_NAMES } from '../store/work-queue';
import { webhookBackoffMs } from './webhook-sender';

let receiver: WebhookReceiver;
let stack: Stack;
const store = createMemoryStore();
/** The BFF's and the sender's clock: a circuit's pause passes when the test moves it. */
const clock = testClock();

beforeAll(async () => {
  receiver = await startReceiver(0);
  stack = await startStack({
    store,
    env: { TEST_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}` },
    config: (url) => postingWebhooksTo(testConfig(url), receiver.url),
    // The test sends what is due itself: every attempt is the one it means.
    bffOptions: { startWorkers: false, now: clock.now, webhooks: { now: clock.now } },
  });
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

const asPartner = (method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}) =>
  call(stack.server.url, path, { method, headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, ...headers } });
const deliverDue = () => stack.bff.webhookSender.deliverDue();
/** The ids of every page of a list, following its cursors. */
async function everyId(path: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await asPartner(
      'GET',
      `${path}&limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...page.body.data.map((item: { id: string }) => item.id));
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return ids;
}

describe('the webhook deliveries of the partner’s widgets', () => {
  let checkoutIds: string[] = [];

  it('lists each delivery newest first with its type, checkout, status and attempts, filtered and paged', async () => {
    checkoutIds = [];
    for (let sale = 0; sale < 3; sale += 1) {
      checkoutIds.push(await checkoutAsTraveller(stack.server.url, 'shop-pay'));
      // Distinct creation times, so that "newest first" is the order they were made in.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await deliverDue();
    const [first, second, third] = checkoutIds as [string, string, string];

    const listed = await asPartner('GET', '/v1/partner/webhook-deliveries?type=checkout.awaiting_payment');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const items = listed.body.data as { checkoutId: string }[];
    expect(items.map((item) => item.checkoutId)).toEqual([third, second, first]);
    const [newest] = listed.body.data;
    expect(newest).toMatchObject({
      type: 'checkout.awaiting_payment',
      widgetId: 'shop-pay',
      checkoutId: third,
      esimId: null,
      status: 'delivered',
      attemptCount: 1,
      attempts: [{ at: expect.any(String), httpStatus: 200, error: null }],
      nextAttemptAt: null,
      resentAt: null,
    });
    // The id is the event id the endpoint received.
    const heard = receiver.received.map((request) => request.headers['esim-webhook-id']);
    expect(heard).toContain(newest.id);

    const ofSecond = await asPartner('GET', `/v1/partner/webhook-deliveries?checkoutId=${second}`);
    expect(ofSecond.body.data.map((item: { checkoutId: string }) => item.checkoutId)).toEqual([second]);
    const failed = await asPartner('GET', '/v1/partner/webhook-deliveries?status=failed');
    expect(failed.body).toMatchObject({ data: [], nextCursor: null });

    // Page by page, one at a time: each once, in the same order as one page.
    const paged = await everyId('/v1/partner/webhook-deliveries?status=delivered&widgetId=shop-pay', 1);
    expect(paged.slice(0, 3)).toEqual(listed.body.data.map((item: { id: string }) => item.id));
    expect(new Set(paged).size).toBe(paged.length);

    // Ended, so that the address may open new checkouts (three unpaid at most); the cancellations are delivered.
    for (const id of checkoutIds)
      expect((await asPartner('POST', `/v1/partner/checkouts/${id}/cancel`)).status).toBe(200);
    await deliverDue();
    const cancelled = await asPartner('GET', `/v1/partner/webhook-deliveries?checkoutId=${first}`);
    expect(cancelled.body.data.map((item: { type: string }) => item.type)).toEqual([
      'checkout.cancelled',
      'checkout.awaiting_payment',
    ]);
  });

  it('refuses a cursor of other filters, an unknown status, and a widget the secret does not open', async () => {
    const page = await asPartner('GET', '/v1/partner/webhook-deliveries?status=delivered&limit=1');
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const elsewhere = await asPartner(
      'GET',
      `/v1/partner/webhook-deliveries?status=failed&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`,
    );
    expect({ status: elsewhere.status, error: elsewhere.body.error }).toEqual({
      status: 400,
      error: { code: 'validation_failed', params: { field: 'cursor', reason: 'invalid' } },
    });
    const unknown = await asPartner('GET', '/v1/partner/webhook-deliveries?status=lost');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'validation_failed', params: { field: 'status' } });
    const foreign = await asPartner('GET', '/v1/partner/webhook-deliveries?widgetId=not-mine');
    expect(foreign.status).toBe(422);
    expect(foreign.body.error).toEqual({
      code: 'validation_failed',
      params: { field: 'widgetId', reason: 'unknown' },
    });
  });

  it('shows a failing endpoint’s delivery paused behind its circuit; a resend of it changes nothing', async () => {
    receiver.failFirst = Number.POSITIVE_INFINITY;
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const heardBefore = receiver.received.length;
    await deliverDue();
    // The first due delivery went alone as the probe, and failed: the widget's deliveries pause.
    expect(receiver.received.length).toBe(heardBefore + 1);
    const listed = await asPartner('GET', `/v1/partner/webhook-deliveries?checkoutId=${checkoutId}`);
    const probed = listed.body.data.find((item: { attemptCount: number }) => item.attemptCount === 1);
    expect(probed).toMatchObject({ status: 'paused', attempts: [{ httpStatus: 500, error: null }] });
    expect(Date.parse(probed.nextAttemptAt)).toBeGreaterThan(Date.now());
    const paused = await asPartner('GET', '/v1/partner/webhook-deliveries?status=paused&widgetId=shop-pay');
    expect(paused.body.data.map((item: { id: string }) => item.id)).toContain(probed.id);
    const pending = await asPartner('GET', '/v1/partner/webhook-deliveries?status=pending&widgetId=shop-pay');
    expect(pending.body.data).toEqual([]);

    // The partner fixed its endpoint and asks for the event again, again and again, while it waits behind the
    // circuit: it is on its way already, so nothing changes — no attempt, the circuit's pause and the retry span
    // as they were, and no Idempotency-Key kept for a request that did nothing.
    receiver.failFirst = 0;
    const keptKeys = async () =>
      [...(await store.contents()).keys()].filter((key) => key.startsWith('idempotency:partner:'));
    const keptBefore = await keptKeys();
    const resendPath = `/v1/partner/webhook-deliveries/${probed.id}/resend`;
    for (let ask = 0; ask < 5; ask += 1) {
      const asked = await asPartner('POST', resendPath, { 'Idempotency-Key': newKey() });
      expect(asked.status, asked.text).toBe(200);
      expect(PartnerWebhookDeliveryDetailSchema.parse(asked.body.data)).toMatchObject({
        id: probed.id,
        status: 'paused',
        attemptCount: 1,
        nextAttemptAt: probed.nextAttemptAt,
        resentAt: null,
      });
    }
    expect(await keptKeys()).toEqual(keptBefore);
    const heardAtResend = receiver.received.length;
    await deliverDue();
    expect(receiver.received.length).toBe(heardAtResend);

    // The circuit's probe, one backoff step later, sends it.
    clock.advance(webhookBackoffMs(1));
    await deliverDue();
    const sent = receiver.received.slice(heardAtResend);
    expect(sent.map((request) => request.headers['esim-webhook-id'])).toContain(probed.id);
    expect(sent.find((request) => request.headers['esim-webhook-id'] === probed.id)?.answered).toBe(200);
    const read = await asPartner('GET', `/v1/partner/webhook-deliveries/${probed.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({
      status: 'delivered',
      attemptCount: 2,
      attempts: [{ httpStatus: 500 }, { httpStatus: 200 }],
      nextAttemptAt: null,
      resentAt: null,
      event: { id: probed.id, type: probed.type, data: { checkout: { id: checkoutId } } },
    });
  });

  it('resends a delivered event at once, once per key', async () => {
    receiver.failFirst = 0;
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    await deliverDue();
    const listed = await asPartner('GET', `/v1/partner/webhook-deliveries?checkoutId=${checkoutId}`);
    const delivered = listed.body.data.find((item: { status: string }) => item.status === 'delivered');
    expect(delivered).toMatchObject({ attemptCount: 1 });

    const key = newKey();
    const resend = () =>
      asPartner('POST', `/v1/partner/webhook-deliveries/${delivered.id}/resend`, { 'Idempotency-Key': key });
    const resent = await resend();
    expect(resent.status, resent.text).toBe(200);
    const detail = PartnerWebhookDeliveryDetailSchema.parse(resent.body.data);
    expect(detail).toMatchObject({ id: delivered.id, status: 'pending', attemptCount: 1 });
    expect(detail.resentAt).not.toBeNull();
    expect(detail.event.id).toBe(delivered.id);
    const heardAtResend = receiver.received.length;
    await deliverDue();
    expect(
      receiver.received.slice(heardAtResend).map((request) => request.headers['esim-webhook-id']),
    ).toEqual([delivered.id]);
    const read = await asPartner('GET', `/v1/partner/webhook-deliveries/${delivered.id}`);
    expect(read.body.data).toMatchObject({ status: 'delivered', attemptCount: 2 });

    // The same key again: the first answer, and nothing sent.
    const replayed = await resend();
    expect(replayed.status).toBe(200);
    expect(replayed.body.data).toEqual(resent.body.data);
    const heardAtReplay = receiver.received.length;
    await deliverDue();
    expect(receiver.received.length).toBe(heardAtReplay);

    // A new key: one more attempt of the same event.
    const again = await asPartner('POST', `/v1/partner/webhook-deliveries/${delivered.id}/resend`, {
      'Idempotency-Key': newKey(),
    });
    expect(again.status).toBe(200);
    await deliverDue();
    expect(
      receiver.received.slice(heardAtReplay).map((request) => request.headers['esim-webhook-id']),
    ).toEqual([delivered.id]);
    const third = await asPartner('GET', `/v1/partner/webhook-deliveries/${delivered.id}`);
    expect(third.body.data).toMatchObject({ status: 'delivered', attemptCount: 3 });
  });

  it('leaves the hold of a batch under way on another instance: the resent delivery goes after it, not beside', async () => {
    receiver.failFirst = 0;
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    await deliverDue();
    const listed = await asPartner('GET', `/v1/partner/webhook-deliveries?checkoutId=${checkoutId}`);
    const delivered = listed.body.data.find((item: { status: string }) => item.status === 'delivered');
    expect(delivered).toBeDefined();
    // Another instance claimed shop-pay's batch a moment ago and is posting it: the widget's queue is held.
    const queue = stack.bff.store.queue(QUEUE_NAMES.webhookDeliveries);
    await queue.pausePartition('shop-pay', Date.now() + 60_000);
    try {
      const resent = await asPartner('POST', `/v1/partner/webhook-deliveries/${delivered.id}/resend`, {
        'Idempotency-Key': newKey(),
      });
      expect(resent.status, resent.text).toBe(200);
      const heard = receiver.received.length;
      await deliverDue();
      expect(receiver.received.length).toBe(heard);
    } finally {
      // That batch ends: the resent event goes next.
      await queue.pausePartition('shop-pay', 0);
    }
    const heard = receiver.received.length;
    await deliverDue();
    expect(receiver.received.slice(heard).map((request) => request.headers['esim-webhook-id'])).toEqual([
      delivered.id,
    ]);
  });

  it('refuses a resend whose delivery changes under every try as “try again in a second”, changing nothing', async () => {
    const [latest] = (await asPartner('GET', '/v1/partner/webhook-deliveries?limit=1')).body.data;
    const before = await asPartner('GET', `/v1/partner/webhook-deliveries/${latest.id}`);
    const store = stack.bff.store;
    const compareAndSet = store.compareAndSet.bind(store);
    // The sender settles an attempt of it at every moment the resend tries: each of its updates loses.
    const lost = vi
      .spyOn(store, 'compareAndSet')
      .mockImplementation(async (key, version, value, ttlMs) =>
        key.includes(latest.id) ? false : await compareAndSet(key, version, value, ttlMs),
      );
    const key = newKey();
    let refused: Awaited<ReturnType<typeof asPartner>>;
    try {
      refused = await asPartner('POST', `/v1/partner/webhook-deliveries/${latest.id}/resend`, {
        'Idempotency-Key': key,
      });
    } finally {
      lost.mockRestore();
    }
    expect({ status: refused.status, code: refused.body.error.code, ...refused.body.error.params }).toEqual({
      status: 503,
      code: 'store_unavailable',
      reason: 'delivery_changing',
    });
    expect(refused.headers.get('retry-after')).toBe('1');
    const after = await asPartner('GET', `/v1/partner/webhook-deliveries/${latest.id}`);
    expect(after.body.data).toEqual(before.body.data);
    // The same key asked again once the delivery is still: the resend runs (the refusal kept nothing).
    const resent = await asPartner('POST', `/v1/partner/webhook-deliveries/${latest.id}/resend`, {
      'Idempotency-Key': key,
    });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.data.resentAt).not.toBeNull();
  });

  it('answers an unknown delivery as not found, and a resend without an Idempotency-Key as invalid', async () => {
    const unknown = await asPartner('GET', '/v1/partner/webhook-deliveries/evt_unknown');
    expect({ status: unknown.status, code: unknown.body.error.code }).toEqual({
      status: 404,
      code: 'not_found',
    });
    const resend = await asPartner('POST', '/v1/partner/webhook-deliveries/evt_unknown/resend', {
      'Idempotency-Key': newKey(),
    });
    expect({ status: resend.status, code: resend.body.error.code }).toEqual({
      status: 404,
      code: 'not_found',
    });
    const [latest] = (await asPartner('GET', '/v1/partner/webhook-deliveries?limit=1')).body.data;
    const keyless = await asPartner('POST', `/v1/partner/webhook-deliveries/${latest.id}/resend`);
    expect(keyless.status).toBeGreaterThanOrEqual(400);
    expect(keyless.status).toBeLessThan(500);
    expect(keyless.body.error.code).toBe('validation_failed');
  });
});
