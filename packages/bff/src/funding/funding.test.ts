/**
 * Funding before payment, against the real sandbox over HTTP: a checkout the partner's account cannot fund is
 * refused before it exists (so before `esim-checkout` and before anyone pays), in both modes; what open
 * checkouts hold is taken off the balance for the next ones, on every instance sharing the store; holds end
 * with their checkouts; plans above the single-order limit are not offered; the partner sees its money and
 * hears `account.balance_low` once per crossing.
 */
import { randomBytes } from 'node:crypto';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '@esim-embed/sandbox';
import {
  BalanceLowWebhookEventSchema,
  type NonNegativeMoney,
  PARTNER_SECRET_HEADER,
  PartnerAccountResponseSchema,
  WEBHOOK_SIGNATURE_HEADER,
} from '@esim-embed/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  SHOP_ORIGIN,
  type Stack,
  startBff,
  startStack,
  type WidgetPage,
} from '../../testing/stack';
import { startReceiver, verifyEsimWebhook, type WebhookReceiver } from '../../testing/webhook-receiver';
import type { BffConfigInput } from '../config/config-schema';
import { createMemoryStore } from '../store/memory-store';
import { createReservationLedger } from './reservation-ledger';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const env = { SHOESTRING_KEY: SANDBOX_KEYS.shoestring, SHOESTRING_WEBHOOK: WEBHOOK_SECRET };
const usd = (amountMinor: number): NonNegativeMoney => ({ amountMinor, currency: 'USD' });

let receiver: WebhookReceiver;
let stack: Stack;
let second: RunningBff | undefined;
const store = createMemoryStore();

function config(sandboxUrl: string): BffConfigInput {
  const shoestring = {
    displayName: 'Shoestring',
    environment: 'test' as const,
    upstream: { baseUrl: sandboxUrl, apiKeyEnv: 'SHOESTRING_KEY', timeoutMs: 2_000 },
    allowedOrigins: [SHOP_ORIGIN],
    partnerSecretEnv: 'TEST_PARTNER_SECRET',
    limits: { checkoutsPerSession: 50 },
  };
  return {
    statusCacheMs: 0,
    accountCacheMs: 0,
    checkoutWatchSeconds: 1,
    // These tests are about the balance: the unpaid caps (unpaid-holds.test.ts) are opened wide.
    unpaidHolds: { perAddress: 100, perSession: 50, sharePercent: 100 },
    widgets: [
      { ...shoestring, id: 'cheap-direct', checkoutMode: 'direct' },
      { ...shoestring, id: 'cheap-pay', checkoutMode: 'partner_confirm' },
      {
        ...shoestring,
        id: 'cheap-alert',
        checkoutMode: 'partner_confirm',
        webhookUrl: receiver.url,
        webhookSecretEnv: 'SHOESTRING_WEBHOOK',
        lowBalanceThreshold: usd(1_000),
      },
    ],
  };
}

/** How often the webhook sender looks for due events (the default is a second). */
const SENDER_EVERY_MS = 25;

beforeAll(async () => {
  receiver = await startReceiver(0);
  stack = await startStack({ config, env, store, bffOptions: { webhooks: { intervalMs: SENDER_EVERY_MS } } });
});
afterEach(async () => {
  await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
    balanceMinor: 500,
    status: 'active',
    singleOrderLimitMinor: null,
    monthlySpendLimitMinor: null,
  });
});
afterAll(async () => {
  // The second instance shares the first one's store, which closing either closes.
  await second?.server.close();
  await stack?.close();
  await receiver?.close();
});

/** The wholesale price of an offer, read from the sandbox as the partner's own account sees it. */
async function wholesaleOf(offerId: string): Promise<number> {
  const answer = await fetch(`${stack.sandbox.url}/catalog/offers/${offerId}`, {
    headers: { 'X-Api-Key': SANDBOX_KEYS.shoestring },
  });
  return ((await answer.json()) as { data: { price: NonNegativeMoney } }).data.price.amountMinor;
}

/** The cheapest (or dearest) plan of the first destination and its wholesale price. */
async function cheapestPlan(
  page: WidgetPage,
  dearest = false,
): Promise<{ offerId: string; wholesale: number }> {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const offers: string[] = plans.body.data.map((plan: { offerId: string }) => plan.offerId);
  const priced = await Promise.all(
    offers.map(async (offerId) => ({ offerId, wholesale: await wholesaleOf(offerId) })),
  );
  priced.sort((a, b) => (dearest ? b.wholesale - a.wholesale : a.wholesale - b.wholesale));
  return priced[0] as { offerId: string; wholesale: number };
}

async function checkout(page: WidgetPage, offerId: string) {
  const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
  expect(quote.status).toBe(201);
  const created = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  return { quoteId: quote.body.data.id as string, created };
}

const partner = (path: string, method = 'GET') =>
  call(stack.server.url, path, { method, headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET } });

async function upstreamOrderCount(): Promise<number> {
  const answer = await fetch(`${stack.sandbox.url}/orders`, {
    headers: { 'X-Api-Key': SANDBOX_KEYS.shoestring },
  });
  return ((await answer.json()) as { data: unknown[] }).data.length;
}

describe('funding before payment', () => {
  it('refuses a plan the balance cannot cover before the checkout exists, in both modes, telling nothing of the money', async () => {
    for (const widgetId of ['cheap-pay', 'cheap-direct']) {
      const page = await openWidget(stack.server.url, widgetId);
      const plan = await cheapestPlan(page, true);
      expect(plan.wholesale).toBeGreaterThan(500);
      const ordersBefore = await upstreamOrderCount();
      const { quoteId, created } = await checkout(page, plan.offerId);
      expect(created.status).toBe(402);
      expect(created.body.error).toEqual({
        code: 'insufficient_balance',
        params: { stage: 'before_payment' },
      });
      // Nothing was made: no order upstream, and the quote is still free for a retry once the balance is topped up.
      expect(await upstreamOrderCount()).toBe(ordersBefore);
      await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, { balanceMinor: 10_000_000 });
      const retried = await page.post(
        '/v1/checkouts',
        { quoteId, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      );
      expect(retried.status).toBe(201);
      await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, { balanceMinor: 500 });
      if (widgetId === 'cheap-pay')
        await partner(`/v1/partner/checkouts/${retried.body.data.id}/cancel`, 'POST');
    }
  });

  it('takes what open checkouts hold off the balance, and gives it back when one ends', async () => {
    const page = await openWidget(stack.server.url, 'cheap-pay');
    const plan = await cheapestPlan(page);
    // Enough for one and a half orders of the plan.
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      balanceMinor: Math.floor(plan.wholesale * 1.5),
    });
    const first = await checkout(page, plan.offerId);
    expect(first.created.status).toBe(201);
    expect(first.created.body.data.status).toBe('awaiting_payment');

    const account = PartnerAccountResponseSchema.parse(
      (await partner('/v1/partner/account?widgetId=cheap-pay')).body,
    ).data;
    expect(account.heldByCheckouts).toEqual(usd(plan.wholesale));
    expect(account.openCheckouts).toBe(1);
    expect(account.spendable.amountMinor).toBe(account.availableBalance.amountMinor - plan.wholesale);

    const refused = await checkout(page, plan.offerId);
    expect(refused.created.status).toBe(402);
    expect(refused.created.body.error.code).toBe('insufficient_balance');

    // The traveller abandons the first: its hold ends, and the next checkout is funded again.
    expect((await partner(`/v1/partner/checkouts/${first.created.body.data.id}/cancel`, 'POST')).status).toBe(
      200,
    );
    await eventually(async () => {
      const held = PartnerAccountResponseSchema.parse(
        (await partner('/v1/partner/account?widgetId=cheap-pay')).body,
      ).data;
      return held.openCheckouts === 0 ? true : undefined;
    });
    const third = await checkout(page, plan.offerId);
    expect(third.created.status).toBe(201);
    await partner(`/v1/partner/checkouts/${third.created.body.data.id}/cancel`, 'POST');
  });

  it('keeps the last of the balance to one checkout when two instances race for it', async () => {
    second = await startBff(stack.sandbox.url, { config, env, store, sessionSecret: stack.sessionSecret });
    const pages = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        openWidget((index % 2 === 0 ? stack.server : (second as RunningBff).server).url, 'cheap-pay'),
      ),
    );
    const plan = await cheapestPlan(pages[0] as WidgetPage);
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      balanceMinor: plan.wholesale * 2 + Math.floor(plan.wholesale / 2),
    });
    const quotes = await Promise.all(
      pages.map((page) =>
        page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() }),
      ),
    );
    const answers = await Promise.all(
      pages.map((page, index) =>
        page.post(
          '/v1/checkouts',
          { quoteId: quotes[index]?.body.data.id, locale: 'en', termsAccepted: true },
          { 'Idempotency-Key': newKey() },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 201, 402, 402, 402, 402]);
    for (const answer of answers.filter((a) => a.status === 201)) {
      await partner(`/v1/partner/checkouts/${answer.body.data.id}/cancel`, 'POST');
    }
  });

  it('settles the hold when the order is placed, and counts it against the monthly limit', async () => {
    const page = await openWidget(stack.server.url, 'cheap-direct');
    const plan = await cheapestPlan(page);
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, { balanceMinor: 10_000_000 });
    const before = PartnerAccountResponseSchema.parse(
      (await partner('/v1/partner/account?widgetId=cheap-direct')).body,
    ).data;
    // Room for one more order of the plan this month, not two.
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      monthlySpendLimitMinor: before.placedThisMonth.amountMinor + Math.floor(plan.wholesale * 1.5),
    });
    const first = await checkout(page, plan.offerId);
    expect(first.created.status).toBe(201);
    const second = await checkout(page, plan.offerId);
    expect(second.created.status).toBe(422);
    expect(second.created.body.error).toEqual({
      code: 'monthly_limit_exceeded',
      params: { stage: 'before_payment', limit: 'monthly_spend' },
    });
    const after = PartnerAccountResponseSchema.parse(
      (await partner('/v1/partner/account?widgetId=cheap-direct')).body,
    ).data;
    expect(after.placedThisMonth.amountMinor).toBe(before.placedThisMonth.amountMinor + plan.wholesale);
    expect(after.openCheckouts).toBe(0);
  });

  it('refuses every checkout of a blocked account and does not offer plans above the single-order limit', async () => {
    const page = await openWidget(stack.server.url, 'cheap-pay');
    const plan = await cheapestPlan(page);
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      balanceMinor: 10_000_000,
      status: 'blocked',
    });
    const blocked = await checkout(page, plan.offerId);
    expect(blocked.created.body.error).toEqual({
      code: 'account_not_active',
      params: { stage: 'before_payment' },
    });

    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      status: 'active',
      singleOrderLimitMinor: plan.wholesale - 1,
    });
    await stack.bff.widgets.get('cheap-pay')?.catalog.refresh({ force: true });
    const destinations = await page.get('/v1/destinations');
    const code = destinations.body.data[0].code;
    const plans = await page.get(`/v1/destinations/${code}/plans`);
    const offered: string[] = (plans.status === 200 ? plans.body.data : []).map(
      (p: { offerId: string }) => p.offerId,
    );
    expect(offered).not.toContain(plan.offerId);
    for (const offerId of offered) expect(await wholesaleOf(offerId)).toBeLessThan(plan.wholesale);
    // A page that still shows the plan from before cannot quote it.
    const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
    expect(quote.body.error).toEqual({
      code: 'order_limit_exceeded',
      params: { stage: 'before_payment', limit: 'single_order' },
    });
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, { singleOrderLimitMinor: null });
    await stack.bff.widgets.get('cheap-pay')?.catalog.refresh({ force: true });
  });

  it('tells the partner once per crossing, signed, when what it can spend falls below its threshold', async () => {
    const page = await openWidget(stack.server.url, 'cheap-alert');
    const plan = await cheapestPlan(page);
    const alerts = () =>
      receiver.received.filter((request) => request.body.includes('"account.balance_low"'));
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      balanceMinor: plan.wholesale + 900,
    });
    const held = await checkout(page, plan.offerId);
    expect(held.created.status).toBe(201);
    const event = await eventually(async () => alerts()[0]);
    const signature = event.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    expect(await verifyEsimWebhook(WEBHOOK_SECRET, signature, event.body)).toBe(true);
    const parsed = BalanceLowWebhookEventSchema.parse(JSON.parse(event.body));
    expect(parsed.widgetId).toBe('cheap-alert');
    expect(parsed.data.account.spendable).toEqual(usd(900));
    expect(parsed.data.account.heldByCheckouts).toEqual(usd(plan.wholesale));
    expect(parsed.data.account.lowBalanceThreshold).toEqual(usd(1_000));
    // Another sale below the threshold is the same crossing: not told again.
    await partner(`/v1/partner/checkouts/${held.created.body.data.id}/cancel`, 'POST');
    const again = await checkout(page, plan.offerId);
    expect(again.created.status).toBe(201);
    await partner(`/v1/partner/checkouts/${again.created.body.data.id}/cancel`, 'POST');
    // Ten looks of the sender later, still one.
    await new Promise((resolve) => setTimeout(resolve, 10 * SENDER_EVERY_MS));
    expect(alerts()).toHaveLength(1);
    // Topped up, the crossing ends; the next fall is a new one, told under a new event id.
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, { balanceMinor: 10_000_000 });
    expect((await partner('/v1/partner/account?widgetId=cheap-alert')).status).toBe(200);
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      balanceMinor: plan.wholesale + 500,
    });
    const third = await checkout(page, plan.offerId);
    expect(third.created.status).toBe(201);
    await partner(`/v1/partner/checkouts/${third.created.body.data.id}/cancel`, 'POST');
    const second = await eventually(async () => alerts()[1]);
    expect(JSON.parse(second.body).id).not.toBe(parsed.id);
    expect(JSON.parse(second.body).data.account.spendable).toEqual(usd(500));
  });

  it('answers the partner account only to its partner secret', async () => {
    const anonymous = await call(stack.server.url, '/v1/partner/account');
    expect(anonymous.status).toBe(401);
    const browser = await call(stack.server.url, '/v1/partner/account', { headers: { Origin: SHOP_ORIGIN } });
    expect(browser.headers.get('access-control-allow-origin')).toBeNull();
    const widgetNamed = await call(stack.server.url, '/v1/partner/account?widgetId=cheap-direct', {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(widgetNamed.status).toBe(200);
    const unnamed = await partner('/v1/partner/account');
    // The test secret opens several widgets: it must say which.
    expect(unnamed.body.error).toEqual({
      code: 'validation_failed',
      params: { field: 'widgetId', reason: 'required' },
    });
  });
});

describe('the reservation ledger', () => {
  it('reads a record written before monthly spend was kept', async () => {
    const memory = createMemoryStore();
    await memory.insert(
      'funding-ledger:old',
      JSON.stringify({
        holds: { chk_a: { amountMinor: 300, currency: 'USD', holdUntilMs: Date.now() + 60_000 } },
      }),
      60_000,
    );
    const ledger = createReservationLedger(memory, 'old');
    // Its hold was made before unpaid holds were told apart: it reads as firm.
    expect(await ledger.held('USD', 0)).toMatchObject({
      amountMinor: 300,
      count: 1,
      firmMinor: 300,
      unpaidCount: 0,
      spentThisMonthMinor: 0,
    });
    expect(await ledger.settle('chk_a', Date.now())).toBe(true);
    expect(await ledger.settle('chk_a', Date.now())).toBe(false);
    // Settled: counted until the account is read after it, then the upstream's own balance covers it.
    expect((await ledger.held('USD', Date.now() - 1_000)).amountMinor).toBe(300);
    expect((await ledger.held('USD', Date.now() + 1_000)).amountMinor).toBe(0);
    expect((await ledger.held('USD', Date.now() + 1_000)).spentThisMonthMinor).toBe(300);
  });
});
