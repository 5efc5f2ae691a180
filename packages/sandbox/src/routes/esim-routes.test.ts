import {
  ActionRequestPageSchema,
  ActionRequestResponseSchema,
  DeliveryLinkResponseSchema,
  EsimActionsResponseSchema,
  EsimDetailResponseSchema,
  EsimPageSchema,
  OrderResponseSchema,
  TopUpOfferPageSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectError } from '../../testing/sandbox-harness';
import { SANDBOX_KEYS } from '../seed/accounts';

describe('eSIMs, actions, top-ups and action requests', () => {
  const h = createHarness();
  const { api } = h;
  beforeEach(async () => {
    await h.control.reset();
  });

  async function buy(offerId = 'off_fr_5gb-30d_1') {
    const quote = await api.create('/quotes', { offerId }, UpstreamQuoteResponseSchema);
    const order = await api.create(
      '/orders',
      { quoteId: quote.data.id, externalRef: `chk_${offerId}` },
      OrderResponseSchema,
    );
    const read = await api.get(`/orders/${order.data.id}`, OrderResponseSchema);
    const esimId = read.data.esim?.id;
    if (!esimId) throw new Error('the eSIM was not issued');
    return { order: read.data, esimId };
  }

  it('lists eSIMs and answers esim_not_found for another account or an unknown id', async () => {
    const { esimId } = await buy();
    const page = await api.get('/esims', EsimPageSchema);
    expect(page.data.map((esim) => esim.id)).toEqual([esimId]);
    expect(page.data[0]).not.toHaveProperty('installation');
    expectError(await api.as(SANDBOX_KEYS.lagoon).fail('GET', `/esims/${esimId}`), 'esim_not_found', 404);
    expectError(await api.fail('GET', '/esims/esim_nope'), 'esim_not_found', 404);
    const detail = await api.call('GET', `/esims/${esimId}`);
    expect(detail.headers.get('Cache-Control')).toBe('no-store');
    EsimDetailResponseSchema.parse(detail.json);
  });

  it('tops up a profile through its top-up offers, a top_up quote and order', async () => {
    const { esimId, order } = await buy();
    const actions = await api.get(`/esims/${esimId}/actions`, EsimActionsResponseSchema);
    const topUp = actions.data.actions.find((action) => action.type === 'top_up');
    expect(topUp).toMatchObject({ availability: 'available', access: 'api' });
    const offers = await api.get(topUp?.href ?? '', TopUpOfferPageSchema);
    expect(offers.meta).toMatchObject({
      esimId,
      status: 'available',
      pricingVersion: 'pv1',
      catalogVersion: 1,
    });
    const offer = offers.data[0];
    if (!offer) throw new Error('no top-up offer');
    const quote = await api.create('/quotes', { offerId: offer.id, esimId }, UpstreamQuoteResponseSchema);
    expect(quote.data).toMatchObject({ kind: 'top_up', targetEsimId: esimId });
    const topped = await api.create(
      '/orders',
      { quoteId: quote.data.id, externalRef: 'chk_topup' },
      OrderResponseSchema,
    );
    expect(topped.data).toMatchObject({ kind: 'top_up', targetEsimId: esimId });
    const done = await api.get(`/orders/${topped.data.id}`, OrderResponseSchema);
    expect(done.data.status).toBe('completed');
    const esim = await api.get(`/esims/${esimId}`, EsimDetailResponseSchema);
    expect(esim.data.usage.totalMb).toBe(
      (order.product.package.dataMb ?? 0) + (quote.data.product.package.dataMb ?? 0),
    );
    // An offer of another destination cannot top this profile up.
    expectError(
      await api.fail('POST', '/quotes', {
        body: { offerId: 'off_de_1gb-7d_1', esimId },
        idempotencyKey: 'k-de',
      }),
      'offer_not_found',
      404,
    );
    expectError(
      await api.fail('POST', '/quotes', {
        body: { offerId: offer.id, esimId: 'esim_nope' },
        idempotencyKey: 'k-x',
      }),
      'esim_not_found',
      404,
    );
  });

  it('reports top-ups as not_supported for plans without guaranteed top-up', async () => {
    const unlimited = h.state.catalog.offers.find((offer) => offer.capabilities.topUp === 'not_guaranteed');
    if (!unlimited) throw new Error('no offer without top-up');
    const { esimId } = await buy(unlimited.id);
    const offers = await api.get(`/esims/${esimId}/top-up-offers`, TopUpOfferPageSchema);
    expect(offers.meta.status).toBe('not_supported');
    expect(offers.data).toEqual([]);
    expectError(
      await api.fail('POST', '/quotes', {
        body: { offerId: 'off_fr_5gb-30d_1', esimId },
        idempotencyKey: 'k-ns',
      }),
      'action_not_available',
      409,
    );
  });

  it('cancels an unused profile: the order is refunded to the balance and the profile revoked', async () => {
    const { esimId, order } = await buy();
    const link = await api.create(
      `/orders/${order.id}/delivery-links`,
      { maxViews: 5 },
      DeliveryLinkResponseSchema,
    );
    expect((await h.app.request(new URL(link.data.url).pathname)).status).toBe(200);
    const request = await api.create(
      `/esims/${esimId}/action-requests`,
      { externalRef: 'case_1', reasonCode: 'unused_profile', reasonDetail: 'trip cancelled' },
      ActionRequestResponseSchema,
    );
    expect(request.data).toMatchObject({
      type: 'cancellation',
      status: 'requested',
      stateRevision: 1,
      reason: { code: 'unused_profile', detail: 'trip cancelled' },
      order: { id: order.id },
    });
    const done = await api.get(request.data.resourceUrl, ActionRequestResponseSchema);
    expect(done.data).toMatchObject({
      status: 'completed',
      stateRevision: 2,
      resolution: { code: 'refunded' },
    });
    const refunded = await api.get(`/orders/${order.id}`, OrderResponseSchema);
    expect(refunded.data).toMatchObject({
      status: 'refunded',
      billing: { status: 'refunded', refundedAmount: order.price },
    });
    expect(refunded.data.stateRevision).toBe(order.stateRevision + 1);
    const esim = await api.get(`/esims/${esimId}`, EsimDetailResponseSchema);
    expect(esim.data).toMatchObject({
      state: 'revoked',
      profileState: 'revoked',
      serviceState: 'terminated',
    });
    expectError(
      await api.fail('POST', `/esims/${esimId}/action-requests`, {
        body: { externalRef: 'case_2', reasonCode: 'duplicate_order' },
        idempotencyKey: 'k-dup',
      }),
      'action_request_exists',
      409,
    );
    const list = await api.get('/action-requests', ActionRequestPageSchema);
    expect(list.data).toHaveLength(1);
    expectError(await api.fail('GET', '/action-requests/areq_nope'), 'action_request_not_found', 404);
  });

  it('refuses to cancel a profile in use, and sends refunds to manual review', async () => {
    const { esimId } = await buy();
    await h.control.setEsim(esimId, { activate: true, usedMb: 4500 });
    const esim = await api.get(`/esims/${esimId}`, EsimDetailResponseSchema);
    expect(esim.data).toMatchObject({ state: 'active', serviceState: 'active', allowanceState: 'low' });
    expect(esim.data.usage).toMatchObject({ usedMb: 4500, remainingMb: 620 });
    expect(esim.data.activation.activatedAt).not.toBeNull();
    const actions = await api.get(`/esims/${esimId}/actions`, EsimActionsResponseSchema);
    expect(actions.data.actions.find((action) => action.type === 'cancellation')?.availability).toBe(
      'unavailable',
    );
    expectError(
      await api.fail('POST', `/esims/${esimId}/action-requests`, {
        body: { externalRef: 'c', reasonCode: 'unused_profile' },
        idempotencyKey: 'k-c',
      }),
      'action_not_available',
      409,
    );
    const refund = await api.create(
      `/esims/${esimId}/action-requests`,
      { externalRef: 'r', reasonCode: 'service_defective' },
      ActionRequestResponseSchema,
    );
    expect(refund.data).toMatchObject({ type: 'refund', status: 'requested', completedAt: null });
    const read = await api.get(`/action-requests/${refund.data.id}`, ActionRequestResponseSchema);
    expect(read.data).toMatchObject({ status: 'in_review', stateRevision: 2, replacementOrder: null });
  });

  it('the control API installs a profile and forces each top-up status and the usage status', async () => {
    const { esimId } = await buy();
    await h.control.setEsim(esimId, { install: true });
    const installed = await api.get(`/esims/${esimId}`, EsimDetailResponseSchema);
    expect(installed.data).toMatchObject({ state: 'installed', profileState: 'installed' });
    expect(installed.data.activation.activatedAt).toBeNull();
    for (const status of ['not_enabled', 'compatibility_unverified', 'temporarily_unavailable'] as const) {
      await h.control.setEsim(esimId, { topUpStatus: status });
      const offers = await api.get(`/esims/${esimId}/top-up-offers`, TopUpOfferPageSchema);
      expect(offers.meta.status).toBe(status);
      expect(offers.data).toEqual([]);
      const actions = await api.get(`/esims/${esimId}/actions`, EsimActionsResponseSchema);
      expect(actions.data.actions.find((action) => action.type === 'top_up')?.availability).toBe(
        'unavailable',
      );
    }
    await h.control.setEsim(esimId, { topUpStatus: null, usageStatus: 'stale' });
    const again = await api.get(`/esims/${esimId}/top-up-offers`, TopUpOfferPageSchema);
    expect(again.meta.status).toBe('available');
    const stale = await api.get(`/esims/${esimId}`, EsimDetailResponseSchema);
    expect(stale.data.usage.status).toBe('stale');
  });
});
