/**
 * Ownership before any side effect, on every partner route: two partners' widgets share one upstream key, so
 * the upstream account knows partner A's eSIMs, checkouts, links and help requests whoever asks. Partner B's
 * secret, aimed at each of A's things through every partner route, is refused — and changes nothing: the
 * whole store and both partners' webhook endpoints read the same before and after (over HTTP, against the
 * real sandbox, the webhooks delivered to real local receivers). B's lists, searched for A's things, are empty,
 * and hold none of A's help requests or webhook deliveries.
 */
import { randomBytes } from 'node:crypto';
import {
  API_ROUTES,
  PARTNER_SECRET_HEADER,
  PartnerActionRequestResponseSchema,
  type RouteSpec,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoughtEsim, buyEsim } from '../../testing/after-sale-flow';
import {
  type Answer,
  call,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
} from '../../testing/stack';
import { checkoutAsTraveller } from '../../testing/traveller-checkout';
import { startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { createMemoryStore } from '../store/memory-store';

/** Partner B: widget `rival-shared` sells through the same upstream key as partner A's `shop`. */
const RIVAL_SECRET = `rival-secret-${randomBytes(16).toString('hex')}`;
/** Partner B's own idempotency records (its scope names the widgets its secret opens). */
const RIVAL_SCOPE = 'idempotency:partner:rival-shared:';

const store = createMemoryStore();
let receiverA: WebhookReceiver;
let receiverB: WebhookReceiver;
let stack: Stack;
/** Partner A's things: an eSIM with a manage link and a delivery link, a help request, an unpaid checkout. */
let bought: BoughtEsim;
let deliveryLinkId: string;
let actionRequestId: string;
let unpaidCheckoutId: string;
/** A webhook delivery of A's (its event id). */
let deliveryId: string;
/** An erasure A asked for. */
let erasureId: string;

const asPartner = (
  secret: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => call(stack.server.url, path, { method, body, headers: { [PARTNER_SECRET_HEADER]: secret, ...headers } });

beforeAll(async () => {
  receiverA = await startReceiver(0);
  receiverB = await startReceiver(0);
  stack = await startStack({
    store,
    env: {
      RIVAL_PARTNER_SECRET: RIVAL_SECRET,
      TEST_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
    },
    config: (url) => {
      const config = testConfig(url);
      const hooked = config.widgets.map((widget) => ({
        ...widget,
        webhookUrl: receiverA.url,
        webhookSecretEnv: 'TEST_WEBHOOK_SECRET',
      }));
      const shop = hooked.find((widget) => widget.id === 'shop');
      const rival = {
        ...shop,
        id: 'rival-shared',
        allowedOrigins: ['https://rival.example'],
        partnerSecretEnv: 'RIVAL_PARTNER_SECRET',
        webhookUrl: receiverB.url,
      };
      return { ...config, widgets: [...hooked, rival] } as typeof config;
    },
    // Nothing runs in the background: every change in the store comes from the request under test.
    bffOptions: { startWorkers: false },
  });
  bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
  const link = await asPartner(
    PARTNER_SECRET,
    'POST',
    `/v1/partner/esims/${bought.esimId}/delivery-links`,
    {},
    { 'Idempotency-Key': newKey() },
  );
  expect(link.status, link.text).toBe(201);
  deliveryLinkId = link.body.data.id;
  const asked = await asPartner(
    PARTNER_SECRET,
    'POST',
    `/v1/partner/esims/${bought.esimId}/action-requests`,
    { reasonCode: 'service_defective', reasonDetail: 'No data in Lisbon; traveller +351 555 0100' },
    { 'Idempotency-Key': newKey() },
  );
  expect(asked.status, asked.text).toBe(201);
  actionRequestId = PartnerActionRequestResponseSchema.parse(asked.body).data.id;
  // The upstream moves on (A has not read it since): the next read observes a new status.
  await stack.sandbox.control.resolveActionRequest(actionRequestId, {
    outcome: 'rejected',
    resolution: { code: 'service_confirmed', note: 'The network logs show data use.' },
  });
  unpaidCheckoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
  await stack.bff.webhookSender.deliverDue();
  deliveryId = String(receiverA.received[0]?.headers['esim-webhook-id']);
  const erasure = await asPartner(
    PARTNER_SECRET,
    'POST',
    '/v1/partner/privacy/erasures',
    { email: 'nobody.bought@example.org' },
    { 'Idempotency-Key': newKey() },
  );
  expect(erasure.status, erasure.text).toBe(202);
  erasureId = erasure.body.data.id;
});
afterAll(async () => {
  await stack?.close();
  await receiverA?.close();
  await receiverB?.close();
});

/** The store as a test can compare it: B's own idempotency records left out, expired counters too. */
async function storeNow(): Promise<Map<string, string>> {
  // B's key keeps B's own answer (the refusal) for a replay of B's request: a record of B's, nothing of A's. The
  // upstream key's budget counts the upstream calls B's request made (tracing a seller): B's share, nothing of A's.
  // B's writes count in B's own budget of writes.
  return new Map(
    [...(await store.contents())].filter(
      ([key]) =>
        !key.startsWith(RIVAL_SCOPE) &&
        !key.startsWith('counter counter:upstream:') &&
        key !== 'counter counter:partner-writes:rival-shared',
    ),
  );
}

/** What a route under test changed: keys added, changed or removed (a counter that expired is no change). */
function changesSince(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [key, value] of after) if (before.get(key) !== value) changed.push(`${key} = ${value}`);
  for (const key of before.keys())
    if (!after.has(key) && !key.startsWith('counter ')) changed.push(`${key} removed`);
  return changed;
}

/**
 * Each partner route aimed with B's secret at one of A's things, and the refusal B must get — or, for a list,
 * searched for A's things: an empty page (`code` null).
 */
const attempts: Record<string, { call: () => Promise<Answer>; code: string | null }> = {
  listPartnerCheckouts: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/checkouts?esimId=${bought.esimId}`),
    code: null,
  },
  listPartnerEsims: {
    call: () => asPartner(RIVAL_SECRET, 'GET', '/v1/partner/esims'),
    code: null,
  },
  readPartnerAccount: {
    call: () => asPartner(RIVAL_SECRET, 'GET', '/v1/partner/account?widgetId=shop'),
    code: 'validation_failed',
  },
  readPartnerCheckout: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/checkouts/${bought.checkoutId}`),
    code: 'checkout_not_found',
  },
  readPartnerInstallation: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/checkouts/${bought.checkoutId}/installation`),
    code: 'checkout_not_found',
  },
  startPartnerPayment: {
    call: () =>
      asPartner(RIVAL_SECRET, 'POST', `/v1/partner/checkouts/${unpaidCheckoutId}/payment-started`, {}),
    code: 'checkout_not_found',
  },
  confirmPartnerCheckout: {
    call: () =>
      asPartner(RIVAL_SECRET, 'POST', `/v1/partner/checkouts/${unpaidCheckoutId}/confirm`, {
        paymentReference: 'pay_rival',
      }),
    code: 'checkout_not_found',
  },
  declinePartnerCheckoutPayment: {
    call: () =>
      asPartner(RIVAL_SECRET, 'POST', `/v1/partner/checkouts/${unpaidCheckoutId}/decline`, { attempt: 1 }),
    code: 'checkout_not_found',
  },
  cancelPartnerCheckout: {
    call: () => asPartner(RIVAL_SECRET, 'POST', `/v1/partner/checkouts/${unpaidCheckoutId}/cancel`, {}),
    code: 'checkout_not_found',
  },
  createPartnerManageLink: {
    call: () =>
      asPartner(RIVAL_SECRET, 'POST', `/v1/partner/esims/${bought.esimId}/manage-links`, {
        widgetId: 'rival-shared',
      }),
    code: 'esim_not_found',
  },
  revokeManageLink: {
    call: () => asPartner(RIVAL_SECRET, 'POST', `/v1/partner/manage-links/${bought.manageLinkId}/revoke`, {}),
    code: 'not_found',
  },
  revokeAllManageLinks: {
    call: () =>
      asPartner(RIVAL_SECRET, 'POST', `/v1/partner/esims/${bought.esimId}/manage-links/revoke-all`, {}),
    code: 'esim_not_found',
  },
  readPartnerEsim: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/esims/${bought.esimId}`),
    code: 'esim_not_found',
  },
  createPartnerActionRequest: {
    call: () =>
      asPartner(
        RIVAL_SECRET,
        'POST',
        `/v1/partner/esims/${bought.esimId}/action-requests`,
        { reasonCode: 'unused_profile' },
        { 'Idempotency-Key': newKey() },
      ),
    code: 'esim_not_found',
  },
  readPartnerActionRequest: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/action-requests/${actionRequestId}`),
    code: 'action_request_not_found',
  },
  createPartnerDeliveryLink: {
    call: () =>
      asPartner(
        RIVAL_SECRET,
        'POST',
        `/v1/partner/esims/${bought.esimId}/delivery-links`,
        {},
        { 'Idempotency-Key': newKey() },
      ),
    code: 'esim_not_found',
  },
  revokePartnerDeliveryLink: {
    call: () => asPartner(RIVAL_SECRET, 'POST', `/v1/partner/delivery-links/${deliveryLinkId}/revoke`, {}),
    code: 'delivery_link_invalid',
  },
  listPartnerActionRequests: {
    call: () => asPartner(RIVAL_SECRET, 'GET', '/v1/partner/action-requests?widgetId=shop'),
    code: 'validation_failed',
  },
  listPartnerWebhookDeliveries: {
    call: () => asPartner(RIVAL_SECRET, 'GET', '/v1/partner/webhook-deliveries?widgetId=shop-pay'),
    code: 'validation_failed',
  },
  readPartnerWebhookDelivery: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/webhook-deliveries/${deliveryId}`),
    code: 'not_found',
  },
  resendPartnerWebhookDelivery: {
    call: () =>
      asPartner(RIVAL_SECRET, 'POST', `/v1/partner/webhook-deliveries/${deliveryId}/resend`, undefined, {
        'Idempotency-Key': newKey(),
      }),
    code: 'not_found',
  },
  listPartnerSales: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/sales?esimId=${bought.esimId}`),
    code: null,
  },
  readPartnerSale: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/sales/${bought.checkoutId}`),
    code: 'checkout_not_found',
  },
  exportPartnerSales: {
    call: () =>
      asPartner(RIVAL_SECRET, 'GET', '/v1/partner/sales.csv?from=2000-01-01&to=2100-01-01&widgetId=shop'),
    code: 'validation_failed',
  },
  createPartnerPrivacyErasure: {
    call: () =>
      asPartner(
        RIVAL_SECRET,
        'POST',
        '/v1/partner/privacy/erasures',
        { checkoutId: bought.checkoutId },
        { 'Idempotency-Key': newKey() },
      ),
    code: 'checkout_not_found',
  },
  readPartnerPrivacyErasure: {
    call: () => asPartner(RIVAL_SECRET, 'GET', `/v1/partner/privacy/erasures/${erasureId}`),
    code: 'not_found',
  },
  exportPartnerPrivacyData: {
    call: () => asPartner(RIVAL_SECRET, 'POST', '/v1/partner/privacy/exports', { esimId: bought.esimId }),
    code: 'esim_not_found',
  },
};

describe('another partner’s secret changes nothing', () => {
  it('every partner route of the API description is tried', () => {
    const partnerRoutes = (API_ROUTES as readonly RouteSpec[])
      .filter((route) => route.auth === 'partner')
      .map((route) => route.id);
    expect(Object.keys(attempts).sort()).toEqual([...partnerRoutes].sort());
  });

  it.each(Object.keys(attempts))(
    '%s: refused, the store and both webhook endpoints unchanged',
    async (id) => {
      const attempt = attempts[id] as (typeof attempts)[string];
      const before = await storeNow();
      const heardA = receiverA.received.length;
      const heardB = receiverB.received.length;
      const answer = await attempt.call();
      if (attempt.code === null) {
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body).toMatchObject({ data: [], nextCursor: null });
      } else {
        expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
        expect(answer.status, answer.text).toBeLessThan(500);
        expect(answer.body.error.code).toBe(attempt.code);
      }
      // Whatever the request queued would be sent now.
      await stack.bff.webhookSender.deliverDue();
      expect(changesSince(before, await storeNow())).toEqual([]);
      expect(receiverB.received.slice(heardB).map((request) => request.body)).toEqual([]);
      expect(receiverA.received.slice(heardA).map((request) => request.body)).toEqual([]);
    },
  );

  it('an eSIM sold before sellers were recorded: refused to B with nothing recorded, traced for A', async () => {
    const older = await buyEsim(await openWidget(stack.server.url, 'shop'));
    await stack.bff.webhookSender.deliverDue();
    const ownerKey = `esim-owner:${older.esimId}`;
    const recorded = await store.get(ownerKey);
    expect(recorded).not.toBeNull();
    expect(await store.compareAndDelete(ownerKey, recorded?.version ?? 0)).toBe(true);
    const before = await storeNow();
    const refused = await asPartner(RIVAL_SECRET, 'GET', `/v1/partner/esims/${older.esimId}`);
    expect(refused.status, refused.text).toBe(404);
    expect(changesSince(before, await storeNow())).toEqual([]);
    const own = await asPartner(PARTNER_SECRET, 'GET', `/v1/partner/esims/${older.esimId}`);
    expect(own.status, own.text).toBe(200);
    expect(JSON.parse((await store.get(ownerKey))?.value ?? 'null')).toMatchObject({ widgetId: 'shop' });
  });

  it('partner A still reads its own help request, and hears of the new status once', async () => {
    const heardA = receiverA.received.length;
    const read = await asPartner(PARTNER_SECRET, 'GET', `/v1/partner/action-requests/${actionRequestId}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({ status: 'rejected', resolution: { code: 'service_confirmed' } });
    await stack.bff.webhookSender.deliverDue();
    const heard = receiverA.received.slice(heardA).map((request) => JSON.parse(request.body));
    expect(heard.map((event) => [event.type, event.data.actionRequest?.status])).toEqual([
      ['action_request.updated', 'rejected'],
    ]);
  });

  it('partner B’s own lists hold none of A’s help requests or webhook deliveries; A’s hold them', async () => {
    const ids = async (secret: string, path: string) => {
      const answer = await asPartner(secret, 'GET', path);
      expect(answer.status, answer.text).toBe(200);
      return (answer.body.data as { id: string }[]).map((item) => item.id);
    };
    expect(await ids(RIVAL_SECRET, '/v1/partner/action-requests')).not.toContain(actionRequestId);
    expect(await ids(PARTNER_SECRET, '/v1/partner/action-requests')).toContain(actionRequestId);
    expect(await ids(RIVAL_SECRET, '/v1/partner/webhook-deliveries?limit=100')).not.toContain(deliveryId);
    expect(await ids(PARTNER_SECRET, '/v1/partner/webhook-deliveries?limit=100')).toContain(deliveryId);
  });
});
