/**
 * Started payments hold no more than their caps, and not for long — two BFF instances on one Redis in front of the
 * real sandbox, addresses told apart by `X-Forwarded-For` behind one trusted proxy, the BFFs' clock moved by the
 * test. A partner's server calls `payment-started` for whatever checkout its page sends it, so one address can
 * make it start payments that never complete: declined one after another, or abandoned (started, never charged,
 * never declined). Either way a checkout's hold stays counted against the unpaid caps of the address and session
 * that opened it until it is paid; a started payment holds firmly only within its own caps and for its own
 * lifetime (`paymentHolds`), and a decline or the end of that lifetime makes it unpaid again. A paying traveller
 * on another widget of the same upstream account is served throughout.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_ACCOUNTS, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { PartnerAccountResponseSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutFrom as checkoutFromBff,
  cheapestPlan as fundingCheapestPlan,
  fundingWidget,
  partnerCallTo,
} from '../../testing/funding-world';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  type Answer,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  testClock,
  type WidgetPage,
} from '../../testing/stack';
import type { BffConfigInput } from '../config/config-schema';
import { createRedisStore } from '../store/redis-store';
import type { Store } from '../store/store';

/** A started payment's lifetime in these tests (the default is 15 minutes). */
const PAYMENT_SECONDS = 120;
/** Started payments one address may have at once (the default is 2). */
const PAYMENTS_PER_ADDRESS = 2;
/** An unpaid hold's time in these tests (the default is 10 minutes): longer than a payment's. */
const UNPAID_SECONDS = 300;

const OTHER_PARTNER_SECRET = `other-partner-${randomBytes(12).toString('hex')}`;
const from = (address: string) => ({ 'X-Forwarded-For': address });
const TRAVELLER = from('198.51.100.7');
const OTHER_TRAVELLER = from('192.0.2.44');

let redis: RunningRedis;
let sandbox: RunningSandbox;
let one: RunningBff;
let two: RunningBff;
const stores: Store[] = [];
const clock = testClock();

function config(sandboxUrl: string): BffConfigInput {
  const widget = (id: string, key: string, mode: 'direct' | 'partner_confirm', secretEnv?: string) =>
    fundingWidget(sandboxUrl, id, key, mode, secretEnv);
  return {
    trustedProxyHops: 1,
    statusCacheMs: 0,
    accountCacheMs: 0,
    // The unpaid caps as they ship (3 per address, half of what is left to spend); the lifetimes shortened.
    unpaidHolds: { holdSeconds: UNPAID_SECONDS },
    paymentHolds: { holdSeconds: PAYMENT_SECONDS, perAddress: PAYMENTS_PER_ADDRESS },
    upstreamBudget: { addressPercent: 100, sessionPercent: 100 },
    widgets: [
      // Globetrotter's account: the declined payments.
      widget('travel-pay', 'GLOBETROTTER_KEY', 'partner_confirm'),
      widget('travel-direct', 'GLOBETROTTER_KEY', 'direct'),
      widget('other-pay', 'GLOBETROTTER_KEY', 'partner_confirm', 'OTHER_PARTNER_SECRET'),
      // Shoestring's account: the abandoned payments.
      widget('tiny-pay', 'SHOESTRING_KEY', 'partner_confirm'),
      widget('tiny-direct', 'SHOESTRING_KEY', 'direct'),
      widget('tiny-other-pay', 'SHOESTRING_KEY', 'partner_confirm', 'OTHER_PARTNER_SECRET'),
    ],
  };
}

beforeAll(async () => {
  redis = await startRedisServer();
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  const sessionSecret = randomBytes(32);
  const prefix = `payments-${randomBytes(4).toString('hex')}:`;
  const env = {
    GLOBETROTTER_KEY: SANDBOX_KEYS.globetrotter,
    SHOESTRING_KEY: SANDBOX_KEYS.shoestring,
    OTHER_PARTNER_SECRET,
  };
  const start = () => {
    const store = createRedisStore({ url: redis.url, keyPrefix: prefix });
    stores.push(store);
    return startBff(sandbox.url, { config, env, sessionSecret, store, bffOptions: { now: clock.now } });
  };
  one = await start();
  two = await start();
});
afterAll(async () => {
  await one?.server.close();
  await two?.server.close();
  await sandbox?.close();
  await redis?.stop();
});

const instance = (index: number) => (index % 2 === 0 ? one : two).server.url;

const cheapestPlan = (page: WidgetPage, key: string) => fundingCheapestPlan(sandbox.url, page, key);

/** A new session on `widgetId` from `address` (on instance `index`), a quote and a checkout of `offerId`. */
const checkoutFrom = (index: number, widgetId: string, address: Record<string, string>, offerId: string) =>
  checkoutFromBff(instance(index), widgetId, address, offerId);

const partnerCall = (index: number, path: string, secret = PARTNER_SECRET, body?: unknown) =>
  partnerCallTo(instance(index), path, secret, body);
const startPayment = (index: number, id: string, secret = PARTNER_SECRET) =>
  partnerCall(index, `/v1/partner/checkouts/${id}/payment-started`, secret, {});

/** Sets the account's available balance to `minor` (what the upstream reserves for placed orders comes on top). */
async function fund(widgetId: string, accountId: string, minor: number): Promise<void> {
  const answer = await partnerCall(0, `/v1/partner/account?widgetId=${widgetId}`);
  const { balance, availableBalance } = PartnerAccountResponseSchema.parse(answer.body).data;
  const reserved = balance.amountMinor - availableBalance.amountMinor;
  await sandbox.control.setAccount(accountId, {
    balanceMinor: reserved + minor,
    monthlySpendLimitMinor: null,
  });
}

/** The sandbox's orders of a checkout (by its external reference). */
async function ordersOf(checkoutId: string, key: string): Promise<unknown[]> {
  const orders = await fetch(`${sandbox.url}/orders?externalRef=${checkoutId}`, {
    headers: { 'X-Api-Key': key },
  });
  return ((await orders.json()) as { data: unknown[] }).data;
}

/** What a step of the attack was answered: the status, and the refusal's code and params. */
const outcome = (answer: Answer) => ({ status: answer.status, error: answer.body?.error });

const PLACED = ['placing', 'provisioning', 'ready'];

describe('declined payments from one address', () => {
  it('are refused at the address’s cap, and a paying traveller on another widget of the account is served', async () => {
    const probe = await openWidget(one.server.url, 'travel-direct', SHOP_ORIGIN, TRAVELLER);
    const plan = await cheapestPlan(probe, SANDBOX_KEYS.globetrotter);
    // Room for ten orders and a half: more than enough for the travellers beside what an address may leave unpaid.
    await fund('travel-direct', SANDBOX_ACCOUNTS.globetrotter, Math.floor(plan.wholesale * 10.5));

    // One address: a checkout, its payment started, declined — again and again, past its cap of 3.
    const attacker = from('203.0.113.66');
    const steps: { created: number; started?: number; declined?: number; refusal?: unknown }[] = [];
    for (let round = 0; round < 12; round += 1) {
      const created = await checkoutFrom(round, 'travel-pay', attacker, plan.offerId);
      if (created.status !== 201) {
        steps.push({ created: created.status, refusal: created.body?.error });
        continue;
      }
      const id = created.body.data.id as string;
      const started = await startPayment(round, id);
      const declined = await partnerCall(round + 1, `/v1/partner/checkouts/${id}/decline`, PARTNER_SECRET, {
        attempt: 1,
      });
      expect(declined.body.data, declined.text).toMatchObject({
        status: 'awaiting_payment',
        declinedAttempts: 1,
      });
      steps.push({ created: created.status, started: started.status, declined: declined.status });
    }
    // Three checkouts, each declined once; every later one refused by the address's unpaid cap, as a create over it
    // always was, with `Retry-After`.
    expect(steps.slice(0, 3)).toEqual(Array(3).fill({ created: 201, started: 200, declined: 200 }));
    expect(steps.slice(3)).toEqual(
      Array(9).fill({
        created: 429,
        refusal: { code: 'rate_limited', params: { reason: 'unpaid_checkouts', scope: 'address', limit: 3 } },
      }),
    );

    // A traveller on another partner's widget of the account: funded, the payment started, confirmed, ordered.
    const paying = await checkoutFrom(1, 'other-pay', OTHER_TRAVELLER, plan.offerId);
    expect(paying.status, paying.text).toBe(201);
    const id = paying.body.data.id as string;
    const started = await startPayment(0, id, OTHER_PARTNER_SECRET);
    expect(outcome(started)).toEqual({ status: 200, error: undefined });
    const confirmed = await partnerCall(1, `/v1/partner/checkouts/${id}/confirm`, OTHER_PARTNER_SECRET, {
      paymentReference: 'pay_declines',
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(PLACED).toContain(confirmed.body.data.status);
    expect(await ordersOf(id, SANDBOX_KEYS.globetrotter)).toHaveLength(1);
    // And a traveller on the account's `direct` widget buys too.
    const direct = await checkoutFrom(0, 'travel-direct', TRAVELLER, plan.offerId);
    expect(direct.status, direct.text).toBe(201);
    expect(PLACED).toContain(direct.body.data.status);
  });
});

describe('abandoned payments from one address', () => {
  it('hold firmly only within their cap and lifetime; then the holds are unpaid again and a paying traveller is served', async () => {
    const probe = await openWidget(one.server.url, 'tiny-direct', SHOP_ORIGIN, TRAVELLER);
    const plan = await cheapestPlan(probe, SANDBOX_KEYS.shoestring);
    await fund('tiny-direct', SANDBOX_ACCOUNTS.shoestring, Math.floor(plan.wholesale * 10.5));

    // One address: a checkout and its payment started, nothing charged, nothing declined — again and again.
    const attacker = from('203.0.113.77');
    const steps: { created: number; started?: number; refusal?: unknown }[] = [];
    const opened: string[] = [];
    for (let round = 0; round < 12; round += 1) {
      const created = await checkoutFrom(round, 'tiny-pay', attacker, plan.offerId);
      if (created.status !== 201) {
        steps.push({ created: created.status, refusal: created.body?.error });
        continue;
      }
      opened.push(created.body.data.id);
      const started = await startPayment(round + 1, created.body.data.id);
      steps.push({ created: 201, started: started.status, refusal: started.body?.error });
      if (started.status === 429) {
        const retryAfter = Number(started.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(PAYMENT_SECONDS);
      }
    }
    // Two payments started (the address's cap of payments), a third refused in the error envelope before any
    // charge; the three checkouts count against the address's unpaid cap, so no fourth is opened.
    expect(steps).toEqual([
      { created: 201, started: 200 },
      { created: 201, started: 200 },
      {
        created: 201,
        started: 429,
        refusal: {
          code: 'rate_limited',
          params: { reason: 'payments_in_progress', scope: 'address', limit: PAYMENTS_PER_ADDRESS },
        },
      },
      ...Array(9).fill({
        created: 429,
        refusal: { code: 'rate_limited', params: { reason: 'unpaid_checkouts', scope: 'address', limit: 3 } },
      }),
    ]);
    // Starting a payment again while it runs changes nothing (it is not renewed, nor counted twice).
    expect((await startPayment(0, opened[0] as string)).status).toBe(200);
    expect((await startPayment(1, opened[2] as string)).status).toBe(429);

    // A paying traveller on another partner's widget of the account: funded, confirmed, ordered.
    const paying = await checkoutFrom(0, 'tiny-other-pay', OTHER_TRAVELLER, plan.offerId);
    expect(paying.status, paying.text).toBe(201);
    const payingId = paying.body.data.id as string;
    expect((await startPayment(1, payingId, OTHER_PARTNER_SECRET)).status).toBe(200);
    const confirmed = await partnerCall(
      0,
      `/v1/partner/checkouts/${payingId}/confirm`,
      OTHER_PARTNER_SECRET,
      {
        paymentReference: 'pay_abandoned',
      },
    );
    expect(PLACED).toContain(confirmed.body.data.status);
    expect(await ordersOf(payingId, SANDBOX_KEYS.shoestring)).toHaveLength(1);

    // Now the account has two orders and a half left: the two started payments keep their money while they run.
    await fund('tiny-direct', SANDBOX_ACCOUNTS.shoestring, Math.floor(plan.wholesale * 2.5));
    const meanwhile = await checkoutFrom(1, 'tiny-direct', TRAVELLER, plan.offerId);
    expect(outcome(meanwhile)).toEqual({
      status: 402,
      error: { code: 'insufficient_balance', params: { stage: 'before_payment' } },
    });

    // Their lifetime passes on the BFFs' clock with no charge and no decline: the holds are unpaid again (the
    // address still cannot open a fourth checkout), and a paying traveller is served.
    clock.advance(PAYMENT_SECONDS * 1000 + 1_000);
    const bought = await checkoutFrom(0, 'tiny-direct', TRAVELLER, plan.offerId);
    expect(bought.status, bought.text).toBe(201);
    expect(PLACED).toContain(bought.body.data.status);
    const fourth = await checkoutFrom(1, 'tiny-pay', attacker, plan.offerId);
    expect(outcome(fourth)).toEqual({
      status: 429,
      error: { code: 'rate_limited', params: { reason: 'unpaid_checkouts', scope: 'address', limit: 3 } },
    });
    // A payment whose lifetime passed may start again: funded again, within the cap again.
    expect((await startPayment(0, opened[2] as string)).status).toBe(200);
  });
});

describe('payments started after their unpaid holds ended', () => {
  it('count against the address that opened the checkouts, as the holds did', async () => {
    const probe = await openWidget(one.server.url, 'travel-direct', SHOP_ORIGIN, TRAVELLER);
    const plan = await cheapestPlan(probe, SANDBOX_KEYS.globetrotter);
    await fund('travel-direct', SANDBOX_ACCOUNTS.globetrotter, plan.wholesale * 100);
    const address = from('203.0.113.88');
    const open = async (count: number) => {
      const ids: string[] = [];
      for (let index = 0; index < count; index += 1) {
        const created = await checkoutFrom(index, 'travel-pay', address, plan.offerId);
        expect(created.status, created.text).toBe(201);
        ids.push(created.body.data.id);
      }
      return ids;
    };
    // Three checkouts (the address's cap); their unpaid holds end while they still await payment, and three more.
    const lapsed = await open(3);
    clock.advance(UNPAID_SECONDS * 1000 + 1_000);
    const fresh = await open(3);
    // The lapsed checkouts' payments are the address's payments: a third is refused.
    expect((await startPayment(0, lapsed[0] as string)).status).toBe(200);
    expect((await startPayment(1, lapsed[1] as string)).status).toBe(200);
    expect(outcome(await startPayment(0, lapsed[2] as string))).toEqual({
      status: 429,
      error: {
        code: 'rate_limited',
        params: { reason: 'payments_in_progress', scope: 'address', limit: PAYMENTS_PER_ADDRESS },
      },
    });
    // Declined, a lapsed checkout's hold is gone (its own end passed), and another payment may start.
    await partnerCall(1, `/v1/partner/checkouts/${lapsed[0]}/decline`, PARTNER_SECRET, { attempt: 1 });
    expect((await startPayment(0, lapsed[2] as string)).status).toBe(200);
    expect(outcome(await startPayment(1, fresh[0] as string)).status).toBe(429);
    // Confirmed, a payment is paid: it counts no more, and the address's next payment starts.
    const confirmed = await partnerCall(0, `/v1/partner/checkouts/${lapsed[1]}/confirm`, PARTNER_SECRET, {
      paymentReference: 'pay_lapsed',
    });
    expect(PLACED).toContain(confirmed.body.data.status);
    expect((await startPayment(1, fresh[0] as string)).status).toBe(200);
  });
});
