/**
 * An instance that dies in the middle of a sale strands nobody: two BFFs on one store in front of the real
 * sandbox, where the first one's store access is cut at a chosen moment — as if its process had died there.
 * The traveller's retry of `POST /v1/checkouts` with the same `Idempotency-Key` on the second gets that same
 * checkout (201 with its client secret) within seconds, whether the first died while its upstream order was in
 * flight, before it wrote the checkout, or before it kept its answer; and a confirmed checkout whose placing
 * worker died is placed by the other instance's background watch with nobody polling. One order each time.
 *
 * Both instances read one clock the test moves: the dead holder's leases run out when the test moves it past
 * them (as the wall clock would a few seconds later), and the survivor is refused until then.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  type TestClock,
  testClock,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS, type Store } from '../store/store';
import { PLACEMENT_LEASE_MS } from './order-placement';

/** A store whose access ends for good at a chosen moment: the instance using it is dead from then on. */
function mortalStore(store: Store) {
  let dead = false;
  let dieWhen: ((operation: string, key: string, value?: string) => boolean) | undefined;
  const access = (operation: string, key: string, value?: string) => {
    if (!dead && dieWhen?.(operation, key, value) === true) dead = true;
    if (dead) throw new Error('this instance is dead');
  };
  const mortal: Store = {
    ...store,
    async get(key) {
      access('get', key);
      return await store.get(key);
    },
    async insert(key, value, ttlMs) {
      access('insert', key, value);
      return await store.insert(key, value, ttlMs);
    },
    async compareAndSet(key, version, value, ttlMs) {
      access('compareAndSet', key, value);
      return await store.compareAndSet(key, version, value, ttlMs);
    },
    async compareAndDelete(key, version) {
      access('compareAndDelete', key);
      return await store.compareAndDelete(key, version);
    },
    async increment(key, by, windowMs) {
      access('increment', key);
      return await store.increment(key, by, windowMs);
    },
    // Both instances close the one store at the end: the survivor does.
    close: async () => {},
  };
  return {
    store: mortal,
    die: () => {
      dead = true;
    },
    dieWhen: (rule: typeof dieWhen) => {
      dieWhen = rule;
    },
  };
}

let sandbox: RunningSandbox;
let one: RunningBff;
let two: RunningBff;
let doomed: ReturnType<typeof mortalStore>;
/** The clock of both instances. */
let clock: TestClock;

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 100,
    faultInjection: true,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

/** Two fresh instances per test (the first one dies in each). */
async function startInstances() {
  const shared = createMemoryStore();
  doomed = mortalStore(shared);
  const sessionSecret = randomBytes(32);
  const config = (url: string) => testConfig(url, { checkoutWatchSeconds: 1 });
  clock = testClock();
  // The background watch looks often: a placement whose lease ran out is taken over at the next look.
  const bffOptions = { now: clock.now, watchIntervalMs: 100 };
  [one, two] = await Promise.all([
    startBff(sandbox.url, { sessionSecret, store: doomed.store, config, bffOptions }),
    startBff(sandbox.url, { sessionSecret, store: shared, config, bffOptions }),
  ]);
}
afterEach(async () => {
  await sandbox.control.clearFaults();
  await Promise.all([one?.server.close(), two?.server.close()]);
});

async function quoteOn(page: WidgetPage): Promise<string> {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(quote.status).toBe(201);
  return quote.body.data.id;
}

/** The traveller's page: a session opened through instance one, its calls sent to either instance. */
async function traveller(widgetId = 'shop') {
  const page = await openWidget(one.server.url, widgetId);
  const body = { quoteId: await quoteOn(page), locale: 'en', termsAccepted: true };
  const headers = (key: string) => ({
    Origin: SHOP_ORIGIN,
    Authorization: `Bearer ${page.token}`,
    'Idempotency-Key': key,
  });
  const create = (on: RunningBff, key: string) =>
    call(on.server.url, '/v1/checkouts', { method: 'POST', headers: headers(key), body });
  /**
   * Retry on 409 as the widget does, honouring Retry-After — on the test's clock, moved on by each Retry-After
   * — until another answer or `withinMs` of that clock. Every refusal met on the way is in `refused`.
   */
  const createRetrying = async (on: RunningBff, key: string, withinMs: number) => {
    const started = clock.now();
    const refused: Answer[] = [];
    for (;;) {
      const answer = await create(on, key);
      if (answer.status !== 409 || answer.body.error.code !== 'idempotency_conflict') {
        return { answer, refused, seconds: (clock.now() - started) / 1000 };
      }
      refused.push(answer);
      const wait = Number(answer.headers.get('retry-after') ?? '1') * 1000;
      if (clock.now() + wait - started > withinMs) throw new Error(`no checkout within ${withinMs} ms`);
      clock.advance(wait);
    }
  };
  const status = (on: RunningBff, id: string, secret: string) =>
    call(on.server.url, `/v1/checkouts/${id}`, {
      headers: {
        Origin: SHOP_ORIGIN,
        Authorization: `Bearer ${page.token}`,
        [CHECKOUT_SECRET_HEADER]: secret,
      },
    });
  return { page, create, createRetrying, status };
}

/** The sandbox's own list of the orders under one reference. */
async function upstreamOrders(externalRef: string): Promise<{ id: string; externalRef: string }[]> {
  const response = await fetch(`${sandbox.url}/orders?externalRef=${encodeURIComponent(externalRef)}`, {
    headers: { 'X-Api-Key': SANDBOX_KEYS.globetrotter },
  });
  return ((await response.json()) as { data: { id: string; externalRef: string }[] }).data;
}

/**
 * The survivor was refused while the lost holder's lease ran: one `in_progress` conflict or more, each naming the
 * lease's remainder (at most its 5 s) as Retry-After — the key was taken over only once the clock passed it.
 */
function expectRefusedWhileLeased(refused: Answer[]) {
  expect(refused.length).toBeGreaterThanOrEqual(1);
  for (const conflict of refused) {
    expect(conflict.body.error).toEqual({
      code: 'idempotency_conflict',
      params: { field: 'Idempotency-Key', reason: 'in_progress' },
    });
    expect(Number(conflict.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(conflict.headers.get('retry-after'))).toBeLessThanOrEqual(5);
  }
}

/** The order request reached the sandbox (its one-shot latency rule retired): the order is in flight. */
async function orderInFlight() {
  await eventually(async () => ((await sandbox.control.state()).faults.length === 0 ? true : undefined));
}

async function expectReady(
  buyer: Awaited<ReturnType<typeof traveller>>,
  created: Answer,
): Promise<{ id: string }> {
  expect(created.status).toBe(201);
  const { id, clientSecret } = created.body.data as { id: string; clientSecret: string };
  expect(clientSecret.length).toBeGreaterThan(20);
  // Polled as the widget does, a second of the clock apart: a placement lease the dead instance held runs out.
  const ready = await eventually(async () => {
    const answer = await buyer.status(two, id, clientSecret);
    if (answer.body.data.status === 'ready') return answer.body.data;
    clock.advance(1_000);
    return undefined;
  }, 15_000);
  expect(await upstreamOrders(id)).toHaveLength(1);
  return ready;
}

const logged = (bff: RunningBff, message: string) => bff.logs.some((line) => line.includes(message));

describe('a traveller whose instance died mid-checkout', () => {
  it('gets the checkout from the other instance when the first died with its upstream order in flight', async () => {
    await startInstances();
    const buyer = await traveller();
    const key = newKey();
    await sandbox.control.setFaults([
      { kind: 'latency', method: 'POST', path: '/orders', latencyMs: 1_500, times: 1 },
    ]);
    const lost = buyer.create(one, key);
    await orderInFlight();
    doomed.die();
    const diedAt = clock.now();
    // Asked at once, the survivor refuses: the lost holder's lease has not run out yet.
    const early = await buyer.create(two, key);
    await lost;
    const { answer, refused } = await buyer.createRetrying(two, key, 10_000);
    expectRefusedWhileLeased([early, ...refused]);
    const ready = await expectReady(buyer, answer);
    // The very checkout the first instance placed the order for.
    expect((await upstreamOrders(ready.id))[0]?.externalRef).toBe(ready.id);
    expect((clock.now() - diedAt) / 1000).toBeLessThan(10);
    expect(logged(two, 'idempotent create taken over from a lost holder')).toBe(true);
    expect(logged(two, 'checkout create resumed')).toBe(true);
  });

  it('gets the checkout when the first died after taking the quote, before writing the checkout', async () => {
    await startInstances();
    const buyer = await traveller();
    const key = newKey();
    doomed.dieWhen((operation, storeKey) => operation === 'insert' && storeKey.startsWith('checkout:'));
    const lost = await buyer.create(one, key);
    expect(lost.status).toBeGreaterThanOrEqual(500);
    const { answer, refused, seconds } = await buyer.createRetrying(two, key, 10_000);
    expectRefusedWhileLeased(refused);
    expect(seconds).toBeLessThan(10);
    await expectReady(buyer, answer);
    expect(logged(two, 'checkout create resumed: written after its holder was lost')).toBe(true);
  });

  it('gets the checkout when the first died after placing the order, before keeping its answer', async () => {
    await startInstances();
    const buyer = await traveller();
    const key = newKey();
    doomed.dieWhen(
      (operation, storeKey, value) =>
        operation === 'compareAndSet' &&
        storeKey.startsWith('idempotency:') &&
        value?.includes('"state":"done"') === true,
    );
    const lost = await buyer.create(one, key);
    expect(lost.status).toBeGreaterThanOrEqual(500);
    const { answer, refused, seconds } = await buyer.createRetrying(two, key, 10_000);
    expectRefusedWhileLeased(refused);
    expect(seconds).toBeLessThan(10);
    await expectReady(buyer, answer);
    // The retry after that is an ordinary replay of the kept answer.
    const replay = await buyer.create(two, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(answer.body.data.id);
  });
});

describe('a placement whose worker died', () => {
  it('is finished by the other instance’s background watch within seconds, with nobody polling', async () => {
    await startInstances();
    const buyer = await traveller('shop-pay');
    const created = await buyer.create(one, newKey());
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;
    await sandbox.control.setFaults([
      { kind: 'latency', method: 'POST', path: '/orders', latencyMs: 1_500, times: 1 },
    ]);
    const confirm = call(one.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    await orderInFlight();
    doomed.die();
    const diedAt = clock.now();
    await confirm;
    // Read from the store itself: a status read through the API would place the order on its own.
    const stored = async () =>
      JSON.parse((await two.bff.store.get(STORE_KEYS.checkout(id)))?.value ?? 'null');
    // The survivor's watch reading the checkout while the dead worker's lease runs leaves the placement to it.
    expect(await two.bff.checkouts.watch(id, two.bff.widgets)).toMatchObject({
      status: 'placing',
      order: null,
    });
    const leased = await stored();
    expect(leased).toMatchObject({ status: 'placing', order: null });
    expect(leased.placement.leaseUntil).toBeGreaterThan(clock.now());
    // The lease runs out: the survivor's background watch takes the placement over.
    clock.advance(PLACEMENT_LEASE_MS);
    await eventually(async () => ((await stored())?.status === 'ready' ? true : undefined), 12_000);
    expect((clock.now() - diedAt) / 1000).toBeLessThan(12);
    expect(await upstreamOrders(id)).toHaveLength(1);
  });
});
