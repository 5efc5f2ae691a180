import {
  AccountResponseSchema,
  EsimDetailResponseSchema,
  OrderPageSchema,
  OrderResponseSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectError } from '../../testing/sandbox-harness';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '../seed/accounts';

const OFFER = 'off_fr_5gb-30d_1';

describe('links', () => {
  it('builds every link from the configured public base URL', async () => {
    const h = createHarness({ publicBaseUrl: 'https://sandbox.example/api/' });
    const quote = await h.api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    const order = await h.api.create(
      '/orders',
      { quoteId: quote.data.id, externalRef: 'x' },
      OrderResponseSchema,
    );
    const read = await h.api.get(`/orders/${order.data.id}`, OrderResponseSchema);
    expect(read.data.esim?.resourceUrl).toBe(`https://sandbox.example/api/esims/${read.data.esim?.id}`);
    const esim = await h.api.get(`/esims/${read.data.esim?.id}`, EsimDetailResponseSchema);
    expect(esim.data.actionsUrl.startsWith('https://sandbox.example/api/esims/')).toBe(true);
  });
});

describe('order lifecycle and errors', () => {
  const h = createHarness({ stepDelaysMs: { provisioning: 1000, delivery: 2000, completion: 1000 } });
  const { api } = h;
  beforeEach(async () => {
    await h.control.reset();
  });

  async function quote(offerId = OFFER, caller = api) {
    return (await caller.create('/quotes', { offerId }, UpstreamQuoteResponseSchema)).data;
  }

  it('moves paid → provisioning → delivered → completed with stateRevision on every change', async () => {
    const q = await quote();
    const order = (
      await api.create('/orders', { quoteId: q.id, externalRef: 'chk_steps' }, OrderResponseSchema)
    ).data;
    const seen: [string, number, string, boolean][] = [];
    for (const step of [0, 1000, 2000, 1000]) {
      h.clock.advance(step);
      const read = (await api.get(`/orders/${order.id}`, OrderResponseSchema)).data;
      seen.push([read.status, read.stateRevision, read.billing.status, read.esim !== null]);
    }
    expect(seen).toEqual([
      ['paid', 1, 'reserved', false],
      ['provisioning', 2, 'reserved', false],
      ['delivered', 3, 'captured', true],
      ['completed', 4, 'captured', true],
    ]);
  });

  it('fails provisioning when armed by the control API and releases the reserved funds', async () => {
    await h.control.armScenario({
      accountId: SANDBOX_ACCOUNTS.globetrotter,
      scenario: 'provisioning_failed',
    });
    const before = (await api.get('/account', AccountResponseSchema)).data.balance;
    const q = await quote();
    const order = (
      await api.create('/orders', { quoteId: q.id, externalRef: 'chk_fail' }, OrderResponseSchema)
    ).data;
    const during = (await api.get('/account', AccountResponseSchema)).data.balance;
    expect(during.reserved.amountMinor).toBe(q.price.amountMinor);
    expect(during.availableBalance.amountMinor).toBe(
      before.availableBalance.amountMinor - q.price.amountMinor,
    );
    h.clock.advance(3000);
    const failed = (await api.get(`/orders/${order.id}`, OrderResponseSchema)).data;
    expect(failed).toMatchObject({
      status: 'provisioning_failed',
      stateRevision: 3,
      esim: null,
      billing: { status: 'released', releasedAmount: q.price, capturedAmount: null },
    });
    const after = (await api.get('/account', AccountResponseSchema)).data.balance;
    expect(after).toEqual(before);
  });

  it('fails provisioning for a recipient email tagged +fail, and is slow for +slow', async () => {
    const q1 = await quote();
    const failing = (
      await api.create(
        '/orders',
        { quoteId: q1.id, externalRef: 'chk_tag_fail', recipient: { email: 'ada+fail@example.com' } },
        OrderResponseSchema,
      )
    ).data;
    const q2 = await quote();
    const slow = (
      await api.create(
        '/orders',
        {
          quoteId: q2.id,
          externalRef: 'chk_tag_slow',
          deliveryMode: 'platform',
          recipient: { email: 'bo+slow@example.com' },
        },
        OrderResponseSchema,
      )
    ).data;
    h.clock.advance(4000);
    expect((await api.get(`/orders/${failing.id}`, OrderResponseSchema)).data.status).toBe(
      'provisioning_failed',
    );
    expect((await api.get(`/orders/${slow.id}`, OrderResponseSchema)).data.status).toBe('provisioning');
    h.clock.advance(20_000);
    expect((await api.get(`/orders/${slow.id}`, OrderResponseSchema)).data.status).toBe('completed');
  });

  it('answers quote_consumed, quote_expired, quote_not_found and price_changed', async () => {
    const q = await quote();
    await api.create('/orders', { quoteId: q.id, externalRef: 'chk_once' }, OrderResponseSchema);
    const consumed = await api.fail('POST', '/orders', {
      body: { quoteId: q.id, externalRef: 'chk_twice' },
      idempotencyKey: 'k-consumed',
    });
    expectError(consumed, 'quote_consumed', 409);

    const late = await quote();
    h.clock.advance(900_000);
    expectError(
      await api.fail('POST', '/orders', {
        body: { quoteId: late.id, externalRef: 'chk_late' },
        idempotencyKey: 'k-late',
      }),
      'quote_expired',
      410,
    );

    const expiring = await quote();
    await h.control.expireQuote(expiring.id);
    expectError(
      await api.fail('POST', '/orders', {
        body: { quoteId: expiring.id, externalRef: 'x' },
        idempotencyKey: 'k-exp',
      }),
      'quote_expired',
      410,
    );

    expectError(
      await api.fail('POST', '/orders', {
        body: { quoteId: 'qte_missing', externalRef: 'x' },
        idempotencyKey: 'k-nf',
      }),
      'quote_not_found',
      404,
    );

    const stale = await quote();
    await h.control.bumpPricing({ offerId: OFFER });
    const changed = await api.fail('POST', '/orders', {
      body: { quoteId: stale.id, externalRef: 'chk_stale' },
      idempotencyKey: 'k-stale',
    });
    expectError(changed, 'price_changed', 409);
    expect(changed.error.params).toMatchObject({
      quotedPricingVersion: 'pv1',
      currentPricingVersion: 'pv1-o1',
    });
    const requote = await quote();
    expect(requote.pricingVersion).toBe('pv1-o1');
    expect(requote.price.amountMinor).toBeGreaterThan(stale.price.amountMinor);
    await api.create('/orders', { quoteId: requote.id, externalRef: 'chk_requoted' }, OrderResponseSchema);
  });

  it('answers offer_not_found for an unknown offer', async () => {
    expectError(
      await api.fail('POST', '/quotes', { body: { offerId: 'off_nope' }, idempotencyKey: 'k-offer' }),
      'offer_not_found',
      404,
    );
  });

  it('answers insufficient_balance for the low-balance account', async () => {
    const poor = api.as(SANDBOX_KEYS.shoestring);
    const q = await quote('off_fr_20gb-30d_1', poor);
    const failure = await poor.fail('POST', '/orders', {
      body: { quoteId: q.id, externalRef: 'chk_poor' },
      idempotencyKey: 'k-poor',
    });
    expectError(failure, 'insufficient_balance', 402);
    expect(failure.error.params).toMatchObject({ required: q.price, availableBalance: { amountMinor: 500 } });
    await h.control.setAccount(SANDBOX_ACCOUNTS.shoestring, { balanceMinor: 100_000 });
    await poor.create('/orders', { quoteId: q.id, externalRef: 'chk_poor' }, OrderResponseSchema, {
      idempotencyKey: 'k-poor',
    });
  });

  it('answers order_limit_exceeded, monthly_limit_exceeded and account_not_active from the account', async () => {
    const q = await quote();
    await h.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, {
      singleOrderLimitMinor: q.price.amountMinor - 1,
    });
    expectError(
      await api.fail('POST', '/orders', { body: { quoteId: q.id, externalRef: 'a' }, idempotencyKey: 'k-1' }),
      'order_limit_exceeded',
      422,
    );
    await h.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, {
      singleOrderLimitMinor: null,
      monthlySpendLimitMinor: q.price.amountMinor + 1,
    });
    await api.create('/orders', { quoteId: q.id, externalRef: 'first' }, OrderResponseSchema);
    const q2 = await quote();
    const monthly = await api.fail('POST', '/orders', {
      body: { quoteId: q2.id, externalRef: 'second' },
      idempotencyKey: 'k-2',
    });
    expectError(monthly, 'monthly_limit_exceeded', 422);
    expect(monthly.error.params).toMatchObject({ spent: q.price });
    const account = (await api.get('/account', AccountResponseSchema)).data;
    expect(account.limits).toEqual({
      singleOrder: null,
      monthlySpend: { amountMinor: q.price.amountMinor + 1, currency: 'USD' },
    });
    await h.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, {
      monthlySpendLimitMinor: null,
      status: 'blocked',
    });
    expectError(
      await api.fail('POST', '/orders', {
        body: { quoteId: q2.id, externalRef: 'third' },
        idempotencyKey: 'k-3',
      }),
      'account_not_active',
      403,
    );
  });

  it('requires recipient.email for platform delivery, with a field-level issue', async () => {
    const q = await quote();
    const failure = await api.fail('POST', '/orders', {
      body: { quoteId: q.id, externalRef: 'chk_platform', deliveryMode: 'platform' },
      idempotencyKey: 'k-platform',
    });
    expectError(failure, 'validation_failed', 422);
    expect(failure.error.params).toMatchObject({
      location: 'body',
      field: 'recipient.email',
      issues: [{ field: 'recipient.email' }],
    });
  });

  it('hides recipient and eSIM fields from a key without recipients:read and esims:read', async () => {
    const limited = api.as(SANDBOX_KEYS.globetrotterLimited);
    const q = await quote(OFFER, limited);
    const order = (
      await limited.create(
        '/orders',
        { quoteId: q.id, externalRef: 'chk_limited', recipient: { email: 'x@example.com', reference: 'r1' } },
        OrderResponseSchema,
      )
    ).data;
    h.clock.advance(5000);
    const hidden = (await limited.get(`/orders/${order.id}`, OrderResponseSchema)).data;
    expect(hidden).toMatchObject({
      status: 'completed',
      esim: null,
      targetEsimId: null,
      recipient: { id: null, email: null, reference: null, locale: null },
    });
    const full = (await api.get(`/orders/${order.id}`, OrderResponseSchema)).data;
    expect(full.esim).not.toBeNull();
    expect(full.recipient).toMatchObject({ email: 'x@example.com', reference: 'r1' });
    const denied = await limited.fail('GET', `/esims/${full.esim?.id}`);
    expectError(denied, 'scope_missing', 403);
    expect(denied.error.params).toEqual({ scope: 'esims:read' });
  });

  it('lists orders by externalRef with cursors, and answers order_not_found', async () => {
    for (let i = 0; i < 3; i++) {
      const q = await quote();
      await api.create(
        '/orders',
        { quoteId: q.id, externalRef: i < 2 ? 'chk_dup' : 'chk_other' },
        OrderResponseSchema,
      );
    }
    const first = await api.get('/orders?externalRef=chk_dup&limit=1', OrderPageSchema);
    expect(first.data).toHaveLength(1);
    expect(first.meta.hasMore).toBe(true);
    const second = await api.get(
      `/orders?externalRef=chk_dup&limit=1&cursor=${first.meta.nextCursor}`,
      OrderPageSchema,
    );
    expect(second.data).toHaveLength(1);
    expect(second.meta).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
    const other = await api.get('/orders?externalRef=chk_other', OrderPageSchema);
    expect(other.data.map((order) => order.externalRef)).toEqual(['chk_other']);
    expectError(await api.fail('GET', '/orders/ord_missing'), 'order_not_found', 404);
    // Another account never sees these orders.
    expect((await api.as(SANDBOX_KEYS.lagoon).get('/orders', OrderPageSchema)).data).toEqual([]);
  });

  it('lists the orders created since an instant, oldest first, with cursors bound to that instant', async () => {
    const refs = ['chk_old', 'chk_new_1', 'chk_new_2', 'chk_new_3'];
    let since = '';
    for (const [index, externalRef] of refs.entries()) {
      if (index === 1) since = new Date(Date.parse((await h.control.state()).now)).toISOString();
      const q = await quote();
      await api.create('/orders', { quoteId: q.id, externalRef }, OrderResponseSchema);
      h.clock.advance(1000);
    }
    const first = await api.get(`/orders?createdSince=${since}&limit=2`, OrderPageSchema);
    expect(first.data.map((order) => order.externalRef)).toEqual(['chk_new_1', 'chk_new_2']);
    const rest = await api.get(
      `/orders?createdSince=${since}&limit=2&cursor=${first.meta.nextCursor}`,
      OrderPageSchema,
    );
    expect(rest.data.map((order) => order.externalRef)).toEqual(['chk_new_3']);
    expect(rest.meta.hasMore).toBe(false);
    // A cursor answers only the query it was cut for.
    const other = await api.fail('GET', `/orders?limit=2&cursor=${first.meta.nextCursor}`);
    expectError(other, 'cursor_invalid', 400);
    expectError(await api.fail('GET', '/orders?createdSince=yesterday'), 'validation_failed', 422);
  });

  it('refuses a delivery link before the eSIM is issued, and validates its bounds', async () => {
    const q = await quote();
    const order = (
      await api.create('/orders', { quoteId: q.id, externalRef: 'chk_early' }, OrderResponseSchema)
    ).data;
    expectError(
      await api.fail('POST', `/orders/${order.id}/delivery-links`, { body: {}, idempotencyKey: 'k-early' }),
      'invalid_transition',
      409,
    );
    h.clock.advance(5000);
    const bad = await api.fail('POST', `/orders/${order.id}/delivery-links`, {
      body: { maxViews: 6, expiresInMinutes: 4 },
      idempotencyKey: 'k-bounds',
    });
    expectError(bad, 'validation_failed', 422);
    expect((bad.error.params.issues as { field: string }[]).map((issue) => issue.field).sort()).toEqual([
      'expiresInMinutes',
      'maxViews',
    ]);
    expectError(await api.fail('POST', '/delivery-links/dlk_missing/revoke'), 'delivery_link_invalid', 404);
  });
});
