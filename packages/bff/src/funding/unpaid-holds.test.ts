/**
 * Unpaid checkouts cannot hold a store hostage — two BFF instances on one Redis in front of the real sandbox,
 * addresses told apart by `X-Forwarded-For` behind one trusted proxy. One address leaves `partner_confirm`
 * checkouts unpaid as fast as the limits allow for two minutes while travellers elsewhere on the same upstream
 * account (a `direct` widget, and another partner's widget that is paid and confirmed) buy every 10 s — minutes and
 * seconds of the BFFs' clock, which the travellers move on 10 s after each purchase while the attacker hammers in
 * real time — and every purchase succeeds. On a $5-like account, an unpaid checkout does not stop a paying
 * traveller; its late confirm is refused honestly (failed, nothing ordered), the partner hears
 * `account.balance_low`, and the refusal is counted in a metric.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_ACCOUNTS, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import {
  BalanceLowWebhookEventSchema,
  CHECKOUT_SECRET_HEADER,
  PartnerAccountResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutFrom as checkoutFromBff,
  checkoutOn,
  cheapestPlan as fundingCheapestPlan,
  fundingWidget,
  partnerCallTo,
} from '../../testing/funding-world';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  call,
  eventually,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  testClock,
  type WidgetPage,
} from '../../testing/stack';
import { startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import type { BffConfigInput } from '../config/config-schema';
import { createRedisStore } from '../store/redis-store';
import type { Store } from '../store/store';
import { createReservationLedger } from './reservation-ledger';

/** Two minutes of attack on the BFFs' clock, a purchase every 10 s of it. */
const ATTACK_MS = 120_000;
const PURCHASE_EVERY_MS = 10_000;
/** How long an unpaid checkout holds (shorter than the default 10 minutes, so that holds lapse in the attack). */
const HOLD_SECONDS = 24;
/** The attacker's parallel loops, and the most checkouts each may try (a bounded load). */
const ATTACK_LOOPS = 4;
const ATTEMPTS_PER_LOOP = 150;

const OTHER_PARTNER_SECRET = `other-partner-${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const from = (address: string) => ({ 'X-Forwarded-For': address });
const ATTACKER = from('203.0.113.66');
const TRAVELLER = from('198.51.100.7');
const OTHER_TRAVELLER = from('192.0.2.44');

let redis: RunningRedis;
let sandbox: RunningSandbox;
let one: RunningBff;
let two: RunningBff;
let receiver: WebhookReceiver;
const stores: Store[] = [];
/** The clock of both BFFs: the wall clock, moved on by the test where the story says time passes. */
const clock = testClock();

function config(sandboxUrl: string): BffConfigInput {
  const widget = (id: string, key: string, mode: 'direct' | 'partner_confirm', secretEnv?: string) =>
    fundingWidget(sandboxUrl, id, key, mode, secretEnv);
  return {
    trustedProxyHops: 1,
    statusCacheMs: 0,
    accountCacheMs: 0,
    checkoutWatchSeconds: 1,
    unpaidHolds: { holdSeconds: HOLD_SECONDS },
    widgets: [
      widget('travel-pay', 'GLOBETROTTER_KEY', 'partner_confirm'),
      widget('travel-direct', 'GLOBETROTTER_KEY', 'direct'),
      widget('other-pay', 'GLOBETROTTER_KEY', 'partner_confirm', 'OTHER_PARTNER_SECRET'),
      widget('tiny-direct', 'SHOESTRING_KEY', 'direct'),
      {
        ...widget('tiny-pay', 'SHOESTRING_KEY', 'partner_confirm'),
        webhookUrl: receiver.url,
        webhookSecretEnv: 'TINY_WEBHOOK',
        lowBalanceThreshold: { amountMinor: 500, currency: 'USD' },
      },
    ],
  };
}

beforeAll(async () => {
  redis = await startRedisServer();
  receiver = await startReceiver(0);
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  const sessionSecret = randomBytes(32);
  const prefix = `unpaid-${randomBytes(4).toString('hex')}:`;
  const env = {
    GLOBETROTTER_KEY: SANDBOX_KEYS.globetrotter,
    SHOESTRING_KEY: SANDBOX_KEYS.shoestring,
    OTHER_PARTNER_SECRET,
    TINY_WEBHOOK: WEBHOOK_SECRET,
  };
  const start = (metrics: boolean) => {
    const store = createRedisStore({ url: redis.url, keyPrefix: prefix });
    stores.push(store);
    return startBff(sandbox.url, {
      config,
      env,
      sessionSecret,
      store,
      bffOptions: {
        observability: { metrics },
        webhooks: { intervalMs: 25, now: clock.now },
        now: clock.now,
      },
    });
  };
  one = await start(true);
  two = await start(false);
});
afterAll(async () => {
  await one?.server.close();
  await two?.server.close();
  await sandbox?.close();
  await receiver?.close();
  await redis?.stop();
});

/** Resolves once `ms` have passed on the BFFs' clock (or `stop()` says to give up). */
async function clockPasses(ms: number, stop: () => boolean): Promise<void> {
  const until = clock.now() + ms;
  while (clock.now() < until && !stop()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const instance = (index: number) => (index % 2 === 0 ? one : two).server.url;

const cheapestPlan = (page: WidgetPage, key: string) => fundingCheapestPlan(sandbox.url, page, key);

/** A new session on `widgetId` from `address` (on instance `index`), a quote and a checkout of `offerId`. */
const checkoutFrom = (index: number, widgetId: string, address: Record<string, string>, offerId: string) =>
  checkoutFromBff(instance(index), widgetId, address, offerId);

const partnerCall = (index: number, path: string, secret: string, body?: unknown) =>
  partnerCallTo(instance(index), path, secret, body);

async function partnerAccount(widgetId: string) {
  const answer = await partnerCall(0, `/v1/partner/account?widgetId=${widgetId}`, PARTNER_SECRET);
  return PartnerAccountResponseSchema.parse(answer.body).data;
}

describe('unpaid checkouts against paying travellers', () => {
  it('sells to every paying traveller while one address leaves checkouts unpaid as fast as it may', async () => {
    const probe = await openWidget(one.server.url, 'travel-direct', SHOP_ORIGIN, TRAVELLER);
    const plan = await cheapestPlan(probe, SANDBOX_KEYS.globetrotter);
    const placed = (await partnerAccount('travel-direct')).placedThisMonth.amountMinor;
    // Room this month for 24 orders of the plan: the travellers need 12 of them, the attacker could take all.
    await sandbox.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, {
      balanceMinor: 100_000_000,
      monthlySpendLimitMinor: placed + 24 * plan.wholesale,
    });

    const startsAt = clock.now();
    const endsAt = startsAt + ATTACK_MS;
    /** Set when the travellers' two minutes are over: the attacker stops too. */
    let over = false;
    const attack: number[] = [];
    const refusals = new Map<string, number>();
    // Half the loops hammer without a pause; the other half wait as `Retry-After` says (on the BFFs' clock), so
    // that they take every hold the caps allow the moment it is allowed.
    const attacker = Array.from({ length: ATTACK_LOOPS }, async (_, loop) => {
      const patient = loop % 2 === 1;
      for (let attempt = 0; attempt < ATTEMPTS_PER_LOOP && !over; attempt += 1) {
        const answer = await checkoutFrom(loop + attempt, 'travel-pay', ATTACKER, plan.offerId).catch(
          (error: unknown) => {
            // A session refused: its status, as the refusal says it (`session refused: 429 …`).
            const status = Number(/refused: (\d+)/.exec(String(error))?.[1] ?? 0);
            return { status, headers: new Headers(), body: { error: { code: String(error) } }, text: '' };
          },
        );
        attack.push(answer.status);
        if (answer.status === 201) continue;
        const reason = `${answer.body?.error?.code}:${answer.body?.error?.params?.scope ?? ''}`;
        refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
        const wait = Number(answer.headers.get('retry-after') ?? 0) * 1000;
        if (patient) await clockPasses(Math.min(wait, endsAt - clock.now()), () => over);
      }
    });

    const purchases: { widget: string; status: number; checkout: string; code?: string }[] = [];
    const traveller = (async () => {
      for (let round = 0; clock.now() < endsAt; round += 1) {
        const next = clock.now() + PURCHASE_EVERY_MS;
        if (round % 2 === 0) {
          const bought = await checkoutFrom(round, 'travel-direct', TRAVELLER, plan.offerId);
          purchases.push({
            widget: 'travel-direct',
            status: bought.status,
            checkout: bought.body?.data?.status,
            code: bought.body?.error?.code,
          });
        } else {
          // Another partner's widget on the same account: the traveller pays, the partner confirms.
          const created = await checkoutFrom(round, 'other-pay', OTHER_TRAVELLER, plan.offerId);
          const id = created.body?.data?.id;
          const confirmed =
            created.status === 201
              ? await partnerCall(round + 1, `/v1/partner/checkouts/${id}/confirm`, OTHER_PARTNER_SECRET, {
                  paymentReference: `pay_${round}`,
                })
              : created;
          purchases.push({
            widget: 'other-pay',
            status: confirmed.status,
            checkout: confirmed.body?.data?.status,
            code: confirmed.body?.error?.code,
          });
        }
        clock.advance(next - clock.now());
      }
      over = true;
    })();
    await Promise.all([...attacker, traveller]);
    // The clock also ran on in real time while the requests were answered: the attack lasted this long on it.
    const attackedMs = clock.now() - startsAt;

    // Every paying traveller bought: created (direct) or confirmed (partner), and nothing failed.
    expect(purchases.length).toBeGreaterThanOrEqual(10);
    for (const purchase of purchases) {
      expect([purchase.widget, purchase.status, purchase.code]).toEqual([
        purchase.widget,
        purchase.widget === 'travel-direct' ? 201 : 200,
        undefined,
      ]);
      expect(['placing', 'provisioning', 'ready']).toContain(purchase.checkout);
    }
    // The attacker got some unpaid checkouts — three at a time, new ones as old holds lapsed — and was otherwise
    // refused by its address's cap, never with a server error.
    const created = attack.filter((status) => status === 201).length;
    expect(created).toBeGreaterThanOrEqual(3);
    expect(created).toBeLessThanOrEqual(3 * Math.ceil(attackedMs / (HOLD_SECONDS * 1000) + 2));
    expect(attack.every((status) => status < 500)).toBe(true);
    expect(refusals.get('rate_limited:address')).toBeGreaterThan(0);
    // What the attacker still holds is bounded by its cap (every traveller's checkout is paid by now).
    const account = await partnerAccount('travel-pay');
    const digest = createHash('sha256').update(sandbox.url).digest('base64url').slice(0, 12);
    const store = stores[0] as Store;
    const ledger = createReservationLedger(store, `test:${digest}:${account.accountId}`, clock.now);
    const held = await ledger.held('USD', 0);
    expect(held.unpaidCount).toBeLessThanOrEqual(3);
    console.info(
      `unpaid attack: ${attack.length} checkouts tried, ${created} created, refusals ${JSON.stringify([...refusals])};`,
      `${purchases.length} purchases, all sold; ${held.count} holds open, ${held.unpaidCount} unpaid`,
    );
  });
});

describe('an unpaid checkout on a small account', () => {
  it('does not stop a paying traveller; its confirm later fails honestly, nothing ordered; the partner is told', async () => {
    const probe = await openWidget(one.server.url, 'tiny-direct', SHOP_ORIGIN, TRAVELLER);
    const plan = await cheapestPlan(probe, SANDBOX_KEYS.shoestring);
    // Enough for one order and a half (the $5.00 account and its $3.99 plan).
    await sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
      balanceMinor: Math.floor(plan.wholesale * 1.5),
      monthlySpendLimitMinor: null,
    });
    const attackerPage = await openWidget(one.server.url, 'tiny-pay', SHOP_ORIGIN, ATTACKER);
    const unpaid = await checkoutOn(attackerPage, plan.offerId);
    expect(unpaid.status).toBe(201);
    expect(unpaid.body.data.status).toBe('awaiting_payment');

    // A second unpaid checkout would promise money the account does not have: the widget says the store cannot
    // sell this plan now, and that nothing was charged.
    const second = await checkoutFrom(0, 'tiny-pay', OTHER_TRAVELLER, plan.offerId);
    expect(second.status).toBe(402);
    expect(second.body.error).toEqual({
      code: 'insufficient_balance',
      params: { stage: 'before_payment', held: 'unpaid' },
    });

    // A paying traveller is not held back by the unpaid checkout.
    const paying = await checkoutFrom(1, 'tiny-direct', TRAVELLER, plan.offerId);
    expect(paying.status).toBe(201);
    expect(['placing', 'provisioning', 'ready']).toContain(paying.body.data.status);

    // The unpaid checkout's partner confirms it anyway: the money went to the paying traveller, so the checkout
    // fails before anything is ordered, and both the partner and the widget see why.
    const id = unpaid.body.data.id as string;
    const confirmed = await partnerCall(0, `/v1/partner/checkouts/${id}/confirm`, PARTNER_SECRET, {
      paymentReference: 'pay_late',
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      status: 'failed',
      failure: { code: 'insufficient_balance', retryable: false },
      order: null,
      paymentReference: 'pay_late',
    });
    const orders = await fetch(`${sandbox.url}/orders?externalRef=${id}`, {
      headers: { 'X-Api-Key': SANDBOX_KEYS.shoestring },
    });
    expect(((await orders.json()) as { data: unknown[] }).data).toEqual([]);
    const widgetView = await attackerPage.get(`/v1/checkouts/${id}`, {
      [CHECKOUT_SECRET_HEADER]: unpaid.body.data.clientSecret,
    });
    expect(widgetView.body.data).toMatchObject({
      status: 'failed',
      failure: { code: 'insufficient_balance', retryable: false },
    });

    // The partner heard that its spendable balance fell low, and the refusals are counted.
    const event = await eventually(async () =>
      receiver.received.find((request) => request.body.includes('"account.balance_low"')),
    );
    expect(BalanceLowWebhookEventSchema.parse(JSON.parse(event.body)).widgetId).toBe('tiny-pay');
    const metrics = (await call(one.operations?.url ?? '', '/metrics')).text;
    expect(metrics).toMatch(/bff_funding_refusals_total\{code="insufficient_balance",cap="unpaid"\} [1-9]/);
    expect(metrics).toMatch(/bff_funding_refusals_total\{code="insufficient_balance",cap="balance"\} [1-9]/);
  });

  it('holds firmly from the start of the payment, and refuses a start the account cannot fund before any charge', async () => {
    const probe = await openWidget(one.server.url, 'tiny-direct', SHOP_ORIGIN, TRAVELLER);
    const plan = await cheapestPlan(probe, SANDBOX_KEYS.shoestring);
    // Available: one order and a half (what the upstream still reserves for placed orders comes on top).
    const fund = async () => {
      const { balance, availableBalance } = await partnerAccount('tiny-pay');
      const reserved = balance.amountMinor - availableBalance.amountMinor;
      await sandbox.control.setAccount(SANDBOX_ACCOUNTS.shoestring, {
        balanceMinor: reserved + Math.floor(plan.wholesale * 1.5),
      });
    };
    const start = (id: string) =>
      partnerCall(1, `/v1/partner/checkouts/${id}/payment-started`, PARTNER_SECRET, {});
    const address = from('203.0.113.77');

    // Started: the checkout's hold is firm, so the money is kept for it while the traveller pays.
    await fund();
    const paying = await checkoutFrom(0, 'tiny-pay', address, plan.offerId);
    expect(paying.status).toBe(201);
    // Another partner's secret cannot start it (nor learn that it exists).
    const foreign = await partnerCall(
      0,
      `/v1/partner/checkouts/${paying.body.data.id}/payment-started`,
      OTHER_PARTNER_SECRET,
      {},
    );
    expect(foreign.body.error.code).toBe('checkout_not_found');
    const started = await start(paying.body.data.id);
    expect(started.status).toBe(200);
    expect(started.body.data.status).toBe('awaiting_payment');
    expect((await start(paying.body.data.id)).status).toBe(200);
    const other = await checkoutFrom(1, 'tiny-direct', TRAVELLER, plan.offerId);
    expect(other.status).toBe(402);
    expect(other.body.error.code).toBe('insufficient_balance');
    const confirmed = await partnerCall(
      0,
      `/v1/partner/checkouts/${paying.body.data.id}/confirm`,
      PARTNER_SECRET,
      {
        paymentReference: 'pay_started',
      },
    );
    expect(['placing', 'provisioning', 'ready']).toContain(confirmed.body.data.status);

    // Not started: a paying traveller takes the money, and the start is refused before the partner charges.
    await fund();
    const unpaid = await checkoutFrom(0, 'tiny-pay', address, plan.offerId);
    expect(unpaid.status).toBe(201);
    expect((await checkoutFrom(1, 'tiny-direct', TRAVELLER, plan.offerId)).status).toBe(201);
    const refused = await start(unpaid.body.data.id);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toEqual({ code: 'insufficient_balance', params: { stage: 'before_payment' } });
    const still = await partnerCall(0, `/v1/partner/checkouts/${unpaid.body.data.id}`, PARTNER_SECRET);
    expect(still.body.data).toMatchObject({ status: 'awaiting_payment', order: null });
    expect(
      (await partnerCall(0, `/v1/partner/checkouts/${unpaid.body.data.id}/cancel`, PARTNER_SECRET, {}))
        .status,
    ).toBe(200);
  });

  it('lets an address leave a new unpaid checkout once an old hold lapsed, and a lapsed hold still confirms when funded', async () => {
    const probe = await openWidget(one.server.url, 'travel-pay', SHOP_ORIGIN, TRAVELLER);
    const plan = await cheapestPlan(probe, SANDBOX_KEYS.globetrotter);
    await sandbox.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, { monthlySpendLimitMinor: null });
    const address = from('203.0.113.99');
    const held = [];
    for (let index = 0; index < 3; index += 1) {
      const answer = await checkoutFrom(index, 'travel-pay', address, plan.offerId);
      expect(answer.status).toBe(201);
      held.push(answer.body.data.id as string);
    }
    const fourth = await checkoutFrom(3, 'travel-pay', address, plan.offerId);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toEqual({
      code: 'rate_limited',
      params: { reason: 'unpaid_checkouts', scope: 'address', limit: 3 },
    });
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(HOLD_SECONDS);
    clock.advance(retryAfter * 1000 + 100);
    expect((await checkoutFrom(4, 'travel-pay', address, plan.offerId)).status).toBe(201);
    // The first checkout's hold lapsed, yet it still awaits payment: paid now and funded, it is placed.
    const confirmed = await partnerCall(1, `/v1/partner/checkouts/${held[0]}/confirm`, PARTNER_SECRET, {
      paymentReference: 'pay_after_lapse',
    });
    expect(confirmed.status).toBe(200);
    expect(['placing', 'provisioning', 'ready']).toContain(confirmed.body.data.status);
  });
});
