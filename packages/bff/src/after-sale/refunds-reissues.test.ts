/**
 * Refunds, reissues and delivery links from the partner's server, over HTTP against the real sandbox: a
 * reissue (`installation_failed`, the documented example) and a refund are accepted under `manual_review` /
 * `assisted`, followed by the BFF while nobody reads them, reported by signed `action_request.updated`
 * webhooks on each status, and resolved through the sandbox's control API; a completed reissue's replacement
 * eSIM is what the traveller's "my eSIM" opens. The partner creates and revokes delivery links of an eSIM.
 */
import { randomBytes } from 'node:crypto';
import {
  type ActionRequestWebhookEvent,
  EsimViewResponseSchema,
  PARTNER_SECRET_HEADER,
  PartnerActionRequestResponseSchema,
  PartnerCheckoutResponseSchema,
  PartnerDeliveryLinkResponseSchema,
  PartnerEsimListResponseSchema,
  RevokedDeliveryLinkResponseSchema,
  requestableActionTypes,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookEventSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim, myEsim } from '../../testing/after-sale-flow';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';
import {
  postingWebhooksTo,
  startReceiver,
  verifyEsimWebhook,
  type WebhookReceiver,
} from '../../testing/webhook-receiver';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;

let receiver: WebhookReceiver;
let stack: Stack;
let page: WidgetPage;
beforeAll(async () => {
  receiver = await startReceiver(0);
  stack = await startStack({
    config: (sandboxUrl) =>
      postingWebhooksTo(testConfig(sandboxUrl, { checkoutWatchSeconds: 1 }), receiver.url),
    env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
    // The background watches look ten times a second: a help request's statuses are reported within moments.
    bffOptions: { webhooks: { intervalMs: 25 }, watchIntervalMs: 100 },
  });
  page = await openWidget(stack.server.url, 'shop');
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

const partner = (
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  call(stack.server.url, path, {
    ...init,
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, ...init.headers },
  });

/** The `action_request.updated` events of one request the receiver got, verified, in arrival order. */
async function helpEvents(actionRequestId: string): Promise<ActionRequestWebhookEvent[]> {
  const accepted = receiver.received.filter((request) => request.answered === 200);
  const events = await Promise.all(
    accepted.map(async (request) => {
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
      expect(await verifyEsimWebhook(WEBHOOK_SECRET, signature, request.body)).toBe(true);
      return WebhookEventSchema.parse(JSON.parse(request.body));
    }),
  );
  return events.filter(
    (event): event is ActionRequestWebhookEvent =>
      event.type === 'action_request.updated' && event.data.actionRequest.id === actionRequestId,
  );
}

const statusesOf = async (id: string) =>
  (await helpEvents(id)).map((event) => event.data.actionRequest.status);

async function ask(esimId: string, reasonCode: string, reasonDetail?: string) {
  const answer = await partner(`/v1/partner/esims/${esimId}/action-requests`, {
    method: 'POST',
    headers: { 'Idempotency-Key': newKey() },
    body: { reasonCode, ...(reasonDetail === undefined ? {} : { reasonDetail }) },
  });
  expect(answer.status, answer.text).toBe(201);
  return PartnerActionRequestResponseSchema.parse(answer.body).data;
}

describe('refunds and reissues through review', () => {
  it('the documented installation_failed example: a reissue whose replacement eSIM reaches my eSIM', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const view = EsimViewResponseSchema.parse((await myEsim(page, bought.manageToken)).body).data;
    expect(view.actions.find((action) => action.type === 'reissue')?.availability).toBe('manual_review');
    const request = await ask(
      bought.esimId,
      'installation_failed',
      'QR code refused on iPhone 15, tried twice',
    );
    expect(request).toMatchObject({
      esimId: bought.esimId,
      type: 'reissue',
      status: 'requested',
      replacementOrderId: null,
      replacementEsimId: null,
    });
    // Followed in the background: in_review is reported without anyone reading the request.
    await eventually(async () => ((await statusesOf(request.id)).includes('in_review') ? true : undefined));
    await stack.sandbox.control.resolveActionRequest(request.id, { outcome: 'completed' });
    const done = await eventually(async () =>
      (await helpEvents(request.id)).find((event) => event.data.actionRequest.status === 'completed'),
    );
    const completed = done.data.actionRequest;
    expect(completed.resolution?.code).toBe('reissued');
    expect(completed.replacementOrderId).not.toBeNull();
    expect(completed.replacementEsimId).not.toBeNull();
    expect(completed.replacementEsimId).not.toBe(bought.esimId);
    expect(await statusesOf(request.id)).toEqual(['requested', 'in_review', 'completed']);
    const read = PartnerActionRequestResponseSchema.parse(
      (await partner(`/v1/partner/action-requests/${request.id}`)).body,
    ).data;
    expect(read).toMatchObject({ status: 'completed', replacementEsimId: completed.replacementEsimId });
    // The partner reaches the replacement as it reached the eSIM it replaces (same seller).
    const replacement = await partner(`/v1/partner/esims/${completed.replacementEsimId}`);
    expect(replacement.status, replacement.text).toBe(200);
    // The desk's eSIM list shows the replacement, newest, naming the eSIM it replaced and the selling checkout.
    const listed = PartnerEsimListResponseSchema.parse(
      (await partner('/v1/partner/esims?limit=100')).body,
    ).data;
    const original = listed.find((esim) => esim.esimId === bought.esimId);
    expect(listed.find((esim) => esim.esimId === completed.replacementEsimId)).toMatchObject({
      widgetId: 'shop',
      checkoutId: original?.checkoutId,
      replaces: bought.esimId,
    });
    expect(original?.replaces).toBeNull();
    // Any widget of the account opens the replacement: the request went through the first widget of the
    // secret, a traveller may hold a link of another one.
    const other = await partner(`/v1/partner/esims/${bought.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop-pay' },
    });
    expect(other.status, other.text).toBe(201);
    const otherPage = await openWidget(stack.server.url, 'shop-pay');
    const viaOther = EsimViewResponseSchema.parse(
      (await myEsim(otherPage, other.body.data.manageToken)).body,
    ).data;
    expect(viaOther.esimId).toBe(completed.replacementEsimId);
    // The traveller's manage link now opens the new eSIM, with its installation.
    const mine = EsimViewResponseSchema.parse((await myEsim(page, bought.manageToken)).body).data;
    expect(mine.esimId).toBe(completed.replacementEsimId);
    expect(mine.installed).toBe(false);
    const install = await page.get('/v1/my-esim/installation', { 'X-Manage-Token': bought.manageToken });
    expect(install.status).toBe(200);
    expect(install.body.data.esimId).toBe(completed.replacementEsimId);
    // And tops up the new eSIM.
    const offer = mine.topUp.offers[0];
    expect(offer).toBeDefined();
    const quote = await page.post(
      '/v1/quotes',
      { offerId: offer?.offerId, esimId: completed.replacementEsimId },
      { 'Idempotency-Key': newKey(), 'X-Manage-Token': bought.manageToken },
    );
    expect(quote.status, quote.text).toBe(201);
    // The replacement order is the help request's, not an unknown order of this BFF's.
    const pass = await stack.bff.orderReconciliation.run();
    expect(pass.reported).toBe(0);
    expect(receiver.received.some((request) => request.body.includes('order.unmatched'))).toBe(false);
  });

  it('a refund is accepted, puts the order in refund_requested, and a rejection is reported', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const request = await ask(bought.esimId, 'service_defective', 'No data in Lisbon');
    expect(request).toMatchObject({ type: 'refund', status: 'requested' });
    const checkout = PartnerCheckoutResponseSchema.parse(
      (await partner(`/v1/partner/checkouts/${bought.checkoutId}`)).body,
    ).data;
    // A refund only asked for leaves the eSIM usable: the checkout stays ready, its order says why.
    expect(checkout).toMatchObject({ status: 'ready', order: { status: 'refund_requested' } });
    await eventually(async () => ((await statusesOf(request.id)).includes('in_review') ? true : undefined));
    await stack.sandbox.control.resolveActionRequest(request.id, {
      outcome: 'rejected',
      resolution: { code: 'service_confirmed', note: 'The network logs show data use.' },
    });
    const rejected = await eventually(async () =>
      (await helpEvents(request.id)).find((event) => event.data.actionRequest.status === 'rejected'),
    );
    expect(rejected.data.actionRequest.resolution).toEqual({
      code: 'service_confirmed',
      note: 'The network logs show data use.',
    });
    // One event per status, whatever the number of reads and sweeps.
    await partner(`/v1/partner/action-requests/${request.id}`);
    await stack.bff.actionRequestWatch.sweep();
    expect(await statusesOf(request.id)).toEqual(['requested', 'in_review', 'rejected']);
    const back = PartnerCheckoutResponseSchema.parse(
      (await partner(`/v1/partner/checkouts/${bought.checkoutId}`)).body,
    ).data;
    expect(back).toMatchObject({ status: 'ready', order: { status: 'completed' } });
  });

  it('a completed refund: the eSIM is revoked, the order refunded, the checkout cancelled', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const request = await ask(bought.esimId, 'duplicate_charge');
    await stack.sandbox.control.resolveActionRequest(request.id, { outcome: 'completed' });
    const read = PartnerActionRequestResponseSchema.parse(
      (await partner(`/v1/partner/action-requests/${request.id}`)).body,
    ).data;
    expect(read).toMatchObject({ status: 'completed', resolution: { code: 'refunded' } });
    expect(read.completedAt).not.toBeNull();
    const mine = EsimViewResponseSchema.parse((await myEsim(page, bought.manageToken)).body).data;
    expect(mine.state).toBe('revoked');
    await eventually(async () => ((await statusesOf(request.id)).includes('completed') ? true : undefined));
    // The refunded order ends the checkout: the partner reads it cancelled and hears checkout.cancelled.
    const checkout = PartnerCheckoutResponseSchema.parse(
      (await partner(`/v1/partner/checkouts/${bought.checkoutId}`)).body,
    ).data;
    expect(checkout).toMatchObject({ status: 'cancelled', order: { status: 'refunded' } });
    await eventually(async () =>
      receiver.received.find(
        (request) =>
          request.body.includes('"checkout.cancelled"') && request.body.includes(bought.checkoutId),
      ),
    );
  });

  it('a completed refund is sent by itself: checkout.cancelled and checkout.refunded name the checkout', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const request = await ask(bought.esimId, 'duplicate_charge');
    await stack.sandbox.control.resolveActionRequest(request.id, { outcome: 'completed' });
    // Nobody reads the checkout or the request: the background watch of the request sees it complete.
    const checkoutEvents = async () =>
      (await Promise.all(receiver.received.map((hook) => WebhookEventSchema.parse(JSON.parse(hook.body)))))
        .filter((event) => 'checkout' in event.data && event.data.checkout.id === bought.checkoutId)
        .map((event) => event.type);
    await eventually(async () => ((await checkoutEvents()).includes('checkout.refunded') ? true : undefined));
    expect(await checkoutEvents()).toEqual(
      expect.arrayContaining(['checkout.completed', 'checkout.cancelled', 'checkout.refunded']),
    );
    const refunded = receiver.received
      .map((hook) => WebhookEventSchema.parse(JSON.parse(hook.body)))
      .find((event) => event.type === 'checkout.refunded' && event.data.checkout.id === bought.checkoutId);
    expect(refunded?.data).toMatchObject({
      checkout: { id: bought.checkoutId, status: 'cancelled', order: { status: 'refunded' } },
    });
  });

  it('what the eSIM view says can be requested (the rule the help panel reports) is what is accepted', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const view = EsimViewResponseSchema.parse(
      (await partner(`/v1/partner/esims/${bought.esimId}`)).body,
    ).data;
    expect(view.actions.find((action) => action.type === 'refund')).toEqual({
      type: 'refund',
      availability: 'manual_review',
      access: 'assisted',
    });
    // An unused profile: cancelled over the API at once; refunds and reissues through the service's review.
    expect(requestableActionTypes(view.actions)).toEqual(['cancellation', 'refund', 'reissue']);
    expect((await ask(bought.esimId, 'duplicate_charge')).type).toBe('refund');
  });

  it('refuses a request the actions rule out (unavailable), naming availability and access', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const first = await ask(bought.esimId, 'duplicate_charge');
    await stack.sandbox.control.resolveActionRequest(first.id, { outcome: 'completed' });
    const refused = await partner(`/v1/partner/esims/${bought.esimId}/action-requests`, {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: { reasonCode: 'profile_unusable' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'action_not_available',
      params: { action: 'reissue', availability: 'unavailable', access: 'none' },
    });
  });
});

describe('delivery links from the partner’s server', () => {
  it('creates a link for a sold eSIM (same key: same link), and revokes it', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const key = newKey();
    const create = () =>
      partner(`/v1/partner/esims/${bought.esimId}/delivery-links`, {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
        body: { maxViews: 2, expiresInMinutes: 30 },
      });
    const created = await create();
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const link = PartnerDeliveryLinkResponseSchema.parse(created.body).data;
    expect(link).toMatchObject({ esimId: bought.esimId, maxViews: 2, viewCount: 0, revokedAt: null });
    expect((await create()).body.data).toEqual(created.body.data);
    const opened = await fetch(link.url);
    expect(opened.status).toBe(200);
    const revoked = await partner(`/v1/partner/delivery-links/${link.id}/revoke`, {
      method: 'POST',
      body: {},
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(RevokedDeliveryLinkResponseSchema.parse(revoked.body).data).toMatchObject({
      id: link.id,
      status: 'revoked',
    });
    expect((await fetch(link.url)).status).toBe(410);
    // The secret url is never logged.
    expect(stack.logs.join('\n')).not.toContain(link.url);
  });

  it('needs an Idempotency-Key, a known eSIM and a known link; the contract’s limits', async () => {
    const bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const path = `/v1/partner/esims/${bought.esimId}/delivery-links`;
    const noKey = await partner(path, { method: 'POST', body: {} });
    expect(noKey.status).toBe(400);
    const tooMany = await partner(path, {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: { maxViews: 6 },
    });
    expect(tooMany.status).toBe(422);
    const unknown = await partner('/v1/partner/esims/esim_nope/delivery-links', {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: {},
    });
    expect(unknown.body.error.code).toBe('esim_not_found');
    const gone = await partner('/v1/partner/delivery-links/dlk_nope/revoke', { method: 'POST', body: {} });
    expect(gone.status).toBeGreaterThanOrEqual(400);
    expect(gone.body.error.code).toBe('delivery_link_invalid');
    const browser = await call(stack.server.url, path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${page.token}`, 'Idempotency-Key': newKey() },
      body: {},
    });
    expect(browser.status).toBe(401);
  });
});
