/**
 * One account's ledger under a thousand purchases in a minute on Redis, from 8 clients (connections) of 4
 * instances' ledgers each, all at once: none is refused as `busy` (no compare-and-set race on one record), the
 * caps still hold under the race, and what the book totals is what its entries count. The minute is the ledger's
 * clock, moved on as the purchases start (the test takes what real time it takes).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { createRedisStore } from '../store/redis-store';
import type { Store } from '../store/store';
import {
  createReservationLedger,
  fundingBookName,
  type HeldFunds,
  type ReservationLedger,
} from './reservation-ledger';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' as const });
const PURCHASES = 1_000;
const CLIENTS = 8;
const LEDGERS_PER_CLIENT = 4;
/** The balance: room for every purchase (300 each) but the last 20 of the account's. */
const BALANCE_MINOR = (PURCHASES - 20) * 300;

let redis: RunningRedis;
const stores: Store[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await redis?.stop();
});

/** What the book's entries count, added up, against its totals (read straight from Redis). */
async function audit(keyPrefix: string, account: string) {
  const client = new Redis(redis.url);
  try {
    const tag = `${keyPrefix}book:{${fundingBookName(account)}}`;
    const entries = await client.hgetall(`${tag}:entries`);
    const totals = await client.hgetall(`${tag}:totals`);
    const summed: Record<string, number> = {};
    for (const raw of Object.values(entries)) {
      for (const [name, value] of Object.entries(JSON.parse(raw).counted?.totals ?? {}) as [string, number][])
        summed[name] = (summed[name] ?? 0) + value;
    }
    const counted = Object.fromEntries(
      Object.entries(totals)
        .filter(([name]) => !name.startsWith('spent:'))
        .map(([name, value]) => [name, Number(value)]),
    );
    return {
      entries: Object.keys(entries).length,
      counted,
      summed: Object.fromEntries(Object.entries(summed).filter(([, value]) => value !== 0)),
    };
  } finally {
    client.disconnect();
  }
}

describe('a thousand purchases in a minute on one account, on Redis', () => {
  it('are all served without a busy refusal, never past the balance, the totals equal to the entries', async () => {
    const clock = { now: 1_800_000_000_000 };
    const keyPrefix = `load-${Math.random()}:`;
    const ledgers: ReservationLedger[] = [];
    for (let client = 0; client < CLIENTS; client += 1) {
      const store = createRedisStore({
        url: redis.url,
        keyPrefix,
        connectWaitMs: 5_000,
        commandTimeoutMs: 5_000,
      });
      stores.push(store);
      for (let instance = 0; instance < LEDGERS_PER_CLIENT; instance += 1)
        ledgers.push(createReservationLedger(store, 'acct', () => clock.now));
    }
    // The upstream's balance as an account read at `readAt` tells it: less the orders placed before.
    const placedAt: number[] = [];
    const available = (readAt: number) => BALANCE_MINOR - 300 * placedAt.filter((at) => at < readAt).length;
    // A paying traveller's order leaves the firm holds; the unpaid ones are capped at 3 an address.
    const funded = (readAt: number) => (others: HeldFunds) => {
      if (others.firmMinor + 300 > available(readAt)) throw new Error('insufficient_balance');
    };
    const unpaidCap = (others: HeldFunds) => {
      if (others.ofAddress.count >= 3) throw new Error('unpaid_checkouts');
    };
    const outcomes = { sold: 0, refused: new Map<string, number>() };
    const refused = (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      outcomes.refused.set(reason, (outcomes.refused.get(reason) ?? 0) + 1);
    };

    let next = 0;
    /** One instance's purchases, one after another: a checkout unpaid first, then paid, placed and settled. */
    async function purchases(ledger: ReservationLedger) {
      for (let index = next++; index < PURCHASES; index = next++) {
        clock.now += 60;
        const id = `chk_${index}`;
        const holder = { address: `addr-${index % 200}`, session: `sess-${index}` };
        // The account as last read: a sale makes every instance read it again, a read is kept 5 s at most.
        const readAt = clock.now - 2_000;
        try {
          await ledger.hold(
            id,
            { amount: usd(300), holdUntilMs: clock.now + 600_000, unpaidBy: holder },
            unpaidCap,
            readAt,
          );
          await ledger.startPayment(
            id,
            { amount: usd(300), untilMs: clock.now + 120_000, attempt: 1, holder },
            funded(readAt),
            readAt,
          );
          await ledger.hold(
            id,
            { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy: null },
            funded(readAt),
            readAt,
          );
          await ledger.extend(id, clock.now + 3_600_000);
          placedAt.push(clock.now);
          await ledger.settle(id, clock.now);
          outcomes.sold += 1;
        } catch (error) {
          refused(error);
          await ledger.release(id);
        }
      }
    }
    const started = clock.now;
    await Promise.all(ledgers.map(purchases));

    expect(clock.now - started).toBe(PURCHASES * 60);
    // No `busy`: only the balance refused, and only the last of the purchases.
    expect([...outcomes.refused.keys()].filter((reason) => reason !== 'insufficient_balance')).toEqual([]);
    expect(outcomes.sold).toBeGreaterThanOrEqual(PURCHASES - 20 - LEDGERS_PER_CLIENT * CLIENTS);
    expect(outcomes.sold).toBeLessThanOrEqual(PURCHASES - 20);
    const held = await ledgers[0]?.held('USD', 0);
    expect(held).toMatchObject({ spentThisMonthMinor: outcomes.sold * 300, unpaidCount: 0, payingMinor: 0 });
    const { entries, counted, summed } = await audit(keyPrefix, 'acct');
    expect(entries).toBeGreaterThan(0);
    expect(counted).toEqual(summed);
  }, 120_000);
});
