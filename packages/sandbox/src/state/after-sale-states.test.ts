/**
 * The states the contract names that only scenarios and manual reviews produce: an order opened as `draft`
 * that awaits payment (paid, or `expired_unpaid`), an eSIM `issued` before it is `delivered`, a refund that
 * puts the order in `refund_requested` then `refunded` (or back), a reissue whose replacement order and eSIM
 * the control API creates, an order refunded from outside the API; the outbox of `platform` emails under the
 * presentation rule; the retail brand.
 */
import {
  AccountResponseSchema,
  ActionRequestResponseSchema,
  EsimDetailResponseSchema,
  OrderResponseSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectError, SandboxCaller } from '../../testing/sandbox-harness';
import { createManualClock } from '../clock';
import { CONTROL_SECRET_HEADER } from '../control/control-schemas';
import { createControlClient } from '../control-client';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '../seed/accounts';

const OFFER = 'off_fr_5gb-30d_1';

describe('states produced by scenarios and reviews', () => {
  const h = createHarness({ stepDelaysMs: { provisioning: 1000, delivery: 1000, completion: 1000 } });
  const { api } = h;
  beforeEach(async () => {
    await h.control.reset();
  });

  async function order(body: Record<string, unknown> = {}) {
    const quote = await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    return (
      await api.create(
        '/orders',
        { quoteId: quote.data.id, externalRef: `chk_${crypto.randomUUID()}`, ...body },
        OrderResponseSchema,
      )
    ).data;
  }
  const read = async (id: string) => (await api.get(`/orders/${id}`, OrderResponseSchema)).data;
  /** Reads the order after each step of the clock: its statuses as seen. */
  async function statuses(id: string, steps: number[]) {
    const seen: string[] = [];
    for (const step of steps) {
      h.clock.advance(step);
      seen.push((await read(id)).status);
    }
    return seen;
  }
  async function delivered() {
    const placed = await order();
    h.clock.advance(5000);
    const done = await read(placed.id);
    if (done.esim === null) throw new Error('no eSIM');
    return { order: done, esimId: done.esim.id };
  }

  it('draft → awaiting_payment → paid → … → completed when armed with awaiting_payment', async () => {
    await h.control.armScenario({ accountId: SANDBOX_ACCOUNTS.globetrotter, scenario: 'awaiting_payment' });
    const placed = await order();
    expect(placed).toMatchObject({ status: 'draft', stateRevision: 1, billing: { status: 'reserved' } });
    expect(await statuses(placed.id, [1000, 1000, 1000, 1000, 1000])).toEqual([
      'awaiting_payment',
      'paid',
      'provisioning',
      'delivered',
      'completed',
    ]);
  });

  it('draft → awaiting_payment → expired_unpaid releases the reservation', async () => {
    await h.control.armScenario({ accountId: SANDBOX_ACCOUNTS.globetrotter, scenario: 'expired_unpaid' });
    const before = (await api.get('/account', AccountResponseSchema)).data.balance;
    const placed = await order();
    expect(await statuses(placed.id, [1000, 1000, 5000])).toEqual([
      'awaiting_payment',
      'expired_unpaid',
      'expired_unpaid',
    ]);
    expect((await read(placed.id)).billing.status).toBe('released');
    expect((await api.get('/account', AccountResponseSchema)).data.balance).toEqual(before);
  });

  it('an eSIM is issued with its order and delivered when the order completes', async () => {
    const placed = await order();
    h.clock.advance(2000);
    const issuing = await read(placed.id);
    expect(issuing.status).toBe('delivered');
    const esim = await api.get(issuing.esim?.resourceUrl ?? '', EsimDetailResponseSchema);
    expect(esim.data.state).toBe('issued');
    h.clock.advance(1000);
    expect((await read(placed.id)).status).toBe('completed');
    expect((await api.get(`/esims/${esim.data.id}`, EsimDetailResponseSchema)).data.state).toBe('delivered');
  });

  it('a refund goes requested → in_review; the control API completes it: order refund_requested → refunded', async () => {
    const { order: bought, esimId } = await delivered();
    const balance = (await api.get('/account', AccountResponseSchema)).data.balance.balance.amountMinor;
    const created = await api.create(
      `/esims/${esimId}/action-requests`,
      { externalRef: 'areq-refund', reasonCode: 'service_defective' },
      ActionRequestResponseSchema,
    );
    expect(created.data.status).toBe('requested');
    expect((await read(bought.id)).status).toBe('refund_requested');
    h.clock.advance(1000);
    const review = await api.get(`/action-requests/${created.data.id}`, ActionRequestResponseSchema);
    expect(review.data.status).toBe('in_review');
    await h.control.resolveActionRequest(created.data.id, { outcome: 'completed' });
    const done = await api.get(`/action-requests/${created.data.id}`, ActionRequestResponseSchema);
    expect(done.data).toMatchObject({ status: 'completed', resolution: { code: 'refunded' } });
    expect(done.data.completedAt).not.toBeNull();
    const refunded = await read(bought.id);
    expect(refunded).toMatchObject({ status: 'refunded', billing: { status: 'refunded' } });
    expect((await api.get('/account', AccountResponseSchema)).data.balance.balance.amountMinor).toBe(
      balance + bought.price.amountMinor,
    );
    expect((await api.get(`/esims/${esimId}`, EsimDetailResponseSchema)).data.state).toBe('revoked');
    // Resolved once: a second decision is refused.
    await expect(h.control.resolveActionRequest(created.data.id, { outcome: 'rejected' })).rejects.toThrow(
      /invalid_transition/,
    );
  });

  it('a rejected refund puts the order back and carries the resolution', async () => {
    const { order: bought, esimId } = await delivered();
    const created = await api.create(
      `/esims/${esimId}/action-requests`,
      { externalRef: 'areq-refund-2', reasonCode: 'duplicate_charge' },
      ActionRequestResponseSchema,
    );
    await h.control.resolveActionRequest(created.data.id, {
      outcome: 'rejected',
      resolution: { code: 'not_duplicate', note: 'One charge only.' },
    });
    const done = await api.get(`/action-requests/${created.data.id}`, ActionRequestResponseSchema);
    expect(done.data).toMatchObject({
      status: 'rejected',
      resolution: { code: 'not_duplicate', note: 'One charge only.' },
      completedAt: null,
    });
    expect((await read(bought.id)).status).toBe('completed');
  });

  it('a completed reissue creates a replacement order and eSIM and revokes the old profile', async () => {
    const { order: bought, esimId } = await delivered();
    const created = await api.create(
      `/esims/${esimId}/action-requests`,
      { externalRef: 'areq-reissue', reasonCode: 'installation_failed' },
      ActionRequestResponseSchema,
    );
    expect(created.data).toMatchObject({ type: 'reissue', replacementOrder: null });
    await h.control.resolveActionRequest(created.data.id, { outcome: 'completed' });
    const done = await api.get(`/action-requests/${created.data.id}`, ActionRequestResponseSchema);
    expect(done.data).toMatchObject({ status: 'completed', resolution: { code: 'reissued' } });
    const replacement = await api.get(done.data.replacementOrder?.resourceUrl ?? '', OrderResponseSchema);
    expect(replacement.data).toMatchObject({
      kind: 'issue',
      externalRef: 'areq-reissue',
      status: 'delivered',
      product: { id: bought.product.id },
      price: { amountMinor: 0 },
    });
    const fresh = await api.get(replacement.data.esim?.resourceUrl ?? '', EsimDetailResponseSchema);
    expect(fresh.data.id).not.toBe(esimId);
    expect(fresh.data.installation.lpa).toMatch(/^LPA:1\$/);
    expect((await api.get(`/esims/${esimId}`, EsimDetailResponseSchema)).data.state).toBe('revoked');
    expect((await read(bought.id)).status).toBe('completed');
  });

  it('the control API sets the profile, service and allowance states nothing else produces', async () => {
    const { esimId } = await delivered();
    await h.control.setEsim(esimId, {
      profileState: 'downloaded',
      serviceState: 'unknown',
      allowanceState: 'unknown',
    });
    const esim = (await api.get(`/esims/${esimId}`, EsimDetailResponseSchema)).data;
    expect(esim).toMatchObject({
      profileState: 'downloaded',
      serviceState: 'unknown',
      allowanceState: 'unknown',
    });
    await h.control.setEsim(esimId, { profileState: 'disabled' });
    expect((await api.get(`/esims/${esimId}`, EsimDetailResponseSchema)).data.profileState).toBe('disabled');
  });

  it('the control API refunds a sold order from outside the API: refunded, credited, revoked, no request', async () => {
    const { order: bought, esimId } = await delivered();
    const balance = (await api.get('/account', AccountResponseSchema)).data.balance.balance.amountMinor;
    await h.control.refundOrder(bought.id);
    const refunded = await read(bought.id);
    expect(refunded).toMatchObject({ status: 'refunded', billing: { status: 'refunded' } });
    expect(refunded.stateRevision).toBeGreaterThan(bought.stateRevision);
    expect((await api.get('/account', AccountResponseSchema)).data.balance.balance.amountMinor).toBe(
      balance + bought.price.amountMinor,
    );
    expect((await api.get(`/esims/${esimId}`, EsimDetailResponseSchema)).data.state).toBe('revoked');
    // Refunded once; an order not sold yet cannot be; an unknown one is named so.
    await expect(h.control.refundOrder(bought.id)).rejects.toThrow(/409 invalid_transition/);
    const placed = await order();
    await expect(h.control.refundOrder(placed.id)).rejects.toThrow(/409 invalid_transition/);
    await expect(h.control.refundOrder('ord_nope')).rejects.toThrow(/404 order_not_found/);
  });

  it('answers a resolve with the action request as the contract has it, as a read of it answers', async () => {
    const { esimId } = await delivered();
    const created = await api.create(
      `/esims/${esimId}/action-requests`,
      { externalRef: 'areq-reissue-answer', reasonCode: 'installation_failed' },
      ActionRequestResponseSchema,
    );
    const resolved = await api.call('POST', `/__sandbox/action-requests/${created.data.id}/resolve`, {
      apiKey: null,
      headers: { [CONTROL_SECRET_HEADER]: h.state.options.controlSecret },
      body: { outcome: 'completed' },
    });
    expect(resolved.status).toBe(200);
    const answered = ActionRequestResponseSchema.parse(resolved.json).data;
    expect(answered).toMatchObject({
      id: created.data.id,
      status: 'completed',
      resolution: { code: 'reissued' },
    });
    expect(answered.replacementOrder).not.toBeNull();
    expect(answered).toEqual(
      (await api.get(`/action-requests/${created.data.id}`, ActionRequestResponseSchema)).data,
    );
    // The typed control client answers the same.
    const other = await delivered();
    const rejected = await api.create(
      `/esims/${other.esimId}/action-requests`,
      { externalRef: 'areq-refund-answer', reasonCode: 'service_defective' },
      ActionRequestResponseSchema,
    );
    expect(await h.control.resolveActionRequest(rejected.data.id, { outcome: 'rejected' })).toMatchObject({
      id: rejected.data.id,
      status: 'rejected',
      resolution: { code: 'declined' },
    });
  });

  it('refuses to resolve an unknown request', async () => {
    await expect(h.control.resolveActionRequest('areq_nope', { outcome: 'completed' })).rejects.toThrow(
      /action_request_not_found/,
    );
  });
});

describe('platform delivery emails', () => {
  const h = createHarness();
  beforeEach(async () => {
    await h.control.reset();
  });

  async function platformOrder(caller: SandboxCaller, email: string) {
    const quote = await caller.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    const order = await caller.create(
      '/orders',
      {
        quoteId: quote.data.id,
        externalRef: 'chk_platform_1',
        deliveryMode: 'platform',
        recipient: { email, reference: 'chk_platform_1', locale: 'en' },
      },
      OrderResponseSchema,
    );
    return (await caller.get(`/orders/${order.data.id}`, OrderResponseSchema)).data;
  }

  it('keeps the email of a platform order from 2026-09-03: effective brand, Reply-To, attribution', async () => {
    const order = await platformOrder(h.api, 'traveller@example.com');
    const partnerOrder = await platformOrder(h.api, 'other@example.com');
    expect(partnerOrder.status).toBe('completed');
    const [email, ...others] = await h.control.outbox({ to: 'traveller@example.com' });
    expect(others).toEqual([]);
    expect(email).toMatchObject({
      orderId: order.id,
      esimId: order.esim?.id,
      reference: 'chk_platform_1',
      presentation: 'brand_aware',
      senderName: 'Globetrotter',
      replyTo: 'help@globetrotter.example',
      from: 'no-reply@mail.sandbox.esim-embed.example',
    });
    expect(email?.attribution).toMatch(/eSIM Sandbox/);
    expect(email?.text).toContain(email?.attribution ?? '-');
    expect(email?.text).toContain(email?.deliveryUrl ?? '-');
    const page = await h.app.request(new URL(email?.deliveryUrl ?? '').pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Install your eSIM');
  });

  it('partner delivery sends nothing; a retail brand signs with its public name', async () => {
    const quote = await h.api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    await h.api.create(
      '/orders',
      { quoteId: quote.data.id, externalRef: 'chk_partner', recipient: { email: 'p@example.com' } },
      OrderResponseSchema,
    );
    await h.control.state();
    expect(await h.control.outbox({ to: 'p@example.com' })).toEqual([]);
    await platformOrder(h.api.as(SANDBOX_KEYS.harbour), 'harbour@example.com');
    const [email] = await h.control.outbox({ to: 'harbour@example.com' });
    expect(email).toMatchObject({ senderName: 'Harbour Mobile', replyTo: 'care@harbour-mobile.example' });
  });

  it('orders created before 2026-09-03 keep the standard presentation', async () => {
    const clock = createManualClock(Date.parse('2026-08-20T12:00:00Z'));
    const { createSandbox } = await import('../app');
    const sandbox = createSandbox({
      clock: clock.clock,
      stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    });
    const fetcher = async (path: string, init: RequestInit) => sandbox.app.request(path, init);
    const control = createControlClient({
      baseUrl: 'http://localhost',
      secret: sandbox.state.options.controlSecret,
      fetch: (input, init) => Promise.resolve(sandbox.app.request(String(input), init)),
    });
    await platformOrder(new SandboxCaller(fetcher, SANDBOX_KEYS.globetrotter), 'early@example.com');
    const [email] = await control.outbox({ to: 'early@example.com' });
    expect(email).toMatchObject({
      presentation: 'standard',
      senderName: 'eSIM Sandbox',
      replyTo: null,
      attribution: null,
    });
  });
});

describe('the retail brand account', () => {
  const h = createHarness();
  it('projects its retail brand with legal links; the control API changes its switches', async () => {
    await h.control.reset();
    const harbour = h.api.as(SANDBOX_KEYS.harbour);
    const account = (await harbour.get('/account', AccountResponseSchema)).data;
    expect(account.retailBrands).toHaveLength(1);
    expect(account.retailBrands[0]).toMatchObject({
      key: 'harbour-mobile',
      status: 'active',
      legal: { termsUrl: 'https://harbour-mobile.example/legal/terms' },
      controls: { checkout: true, browse: true },
    });
    await h.control.setAccount(SANDBOX_ACCOUNTS.harbour, { retailBrandControls: { checkout: false } });
    const after = (await harbour.get('/account', AccountResponseSchema)).data;
    expect(after.retailBrands[0]?.controls).toMatchObject({ checkout: false, browse: true });
    expect((await h.api.get('/account', AccountResponseSchema)).data.retailBrands).toEqual([]);
    expectError(await harbour.fail('GET', '/orders/ord_nope'), 'order_not_found', 404);
  });
});
