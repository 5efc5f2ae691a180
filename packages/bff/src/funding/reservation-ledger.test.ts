/**
 * The reservation ledger's firm, unpaid and paying holds, on each store (memory, the embedded SQLite store, a real
 * `redis-server`), with a clock of the test's own: the sums tell them apart and count an address's and a session's
 * holds not yet paid and payments in progress; an unpaid hold is never renewed, stops counting when its time is
 * up, and becomes firm only through a new approval. A started payment holds firmly until its time is up or its
 * attempt is declined, then the hold is unpaid again until its own end, or gone; two instances never both start
 * the payment an address's cap has room for one of. A record of the release before (its firm holds made by a
 * payment start) is read as it was meant.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { createMemoryStore } from '../store/memory-store';
import { createRedisStore } from '../store/redis-store';
import { openSqliteStore } from '../store/sqlite-store';
import { STORE_KEYS, type Store } from '../store/store';
import {
  createReservationLedger,
  fundingBookName,
  type HeldFunds,
  type HoldRequest,
  type PaymentRequest,
} from './reservation-ledger';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' as const });
const alice = { address: 'addr-a', session: 'sess-1' };

let redis: RunningRedis;
const stores: Store[] = [];
const dataDirs = mkdtempSync(join(tmpdir(), 'esim-ledger-'));

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await redis?.stop();
  rmSync(dataDirs, { recursive: true, force: true });
});

/** Each store, made with the test's clock (Redis keeps its own, which the ledger's 30-day record never meets). */
const implementations: Array<[string, (now: () => number) => Store]> = [
  ['memory', (now) => createMemoryStore({ now })],
  ['embedded (SQLite)', (now) => openSqliteStore({ dataDir: mkdtempSync(join(dataDirs, 'data-')), now })],
  [
    'redis',
    () => createRedisStore({ url: redis.url, keyPrefix: `ledger-${Math.random()}:`, connectWaitMs: 5_000 }),
  ],
];

describe.each(implementations)('on the %s store', (_name, makeStore) => {
  function ledgerAt(start: number) {
    const clock = { now: start };
    const store = makeStore(() => clock.now);
    stores.push(store);
    const ledger = createReservationLedger(store, 'acct', () => clock.now);
    const seen: HeldFunds[] = [];
    const hold = (id: string, request: HoldRequest) =>
      ledger.hold(id, request, (others) => void seen.push(others), 0);
    const startPayment = (id: string, request: PaymentRequest) =>
      ledger.startPayment(id, request, (others) => void seen.push(others), 0);
    return { clock, store, ledger, seen, hold, startPayment };
  }

  /** The hold of checkout `id` as its entry keeps it (undefined: none). */
  async function storedHold(store: Store, id: string) {
    const raw = (await store.entryBook(fundingBookName('acct')).read({ entries: [id] })).entries[id];
    return raw === undefined ? undefined : (JSON.parse(raw).hold ?? undefined);
  }

  describe('unpaid and firm holds', () => {
    it('counts them apart, and an address and a session across their checkouts', async () => {
      const { clock, ledger, seen, hold } = ledgerAt(1_000_000);
      const until = clock.now + 60_000;
      await hold('chk_firm', { amount: usd(1_000), holdUntilMs: until, unpaidBy: null });
      await hold('chk_a1', { amount: usd(300), holdUntilMs: until, unpaidBy: alice });
      await hold('chk_a2', {
        amount: usd(300),
        holdUntilMs: until + 5_000,
        unpaidBy: { ...alice, session: 's2' },
      });
      await hold('chk_b1', {
        amount: usd(300),
        holdUntilMs: until,
        unpaidBy: { address: 'addr-b', session: 's3' },
      });
      // What the fourth hold was approved against: Alice's two holds, one of them in her session.
      expect(seen.at(-1)).toMatchObject({ firmMinor: 1_000, unpaidMinor: 600, unpaidCount: 2 });
      await hold('chk_a3', { amount: usd(300), holdUntilMs: until, unpaidBy: alice });
      expect(seen.at(-1)).toMatchObject({
        amountMinor: 1_900,
        count: 4,
        firmMinor: 1_000,
        unpaidMinor: 900,
        unpaidCount: 3,
        ofAddress: { count: 2, firstEndsAtMs: until },
        ofSession: { count: 1, firstEndsAtMs: until },
      });
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 1_000, unpaidMinor: 1_200, count: 5 });
    });

    it('never renews an unpaid hold, and forgets it when its time is up', async () => {
      const { clock, ledger, store, hold } = ledgerAt(1_000_000);
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 10_000, unpaidBy: alice });
      // The same checkout again, later: the hold keeps its first end.
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 600_000, unpaidBy: alice });
      expect((await storedHold(store, 'chk_a')).holdUntilMs).toBe(clock.now + 10_000);
      clock.now += 10_000;
      expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 0, unpaidCount: 0 });
      // Nor does an unpaid hold come back after it ended.
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 10_000, unpaidBy: alice });
      expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 0 });
    });

    it('makes an unpaid hold firm only through a new approval, which sees the others without it', async () => {
      const { clock, ledger, seen, hold } = ledgerAt(1_000_000);
      await hold('chk_other', { amount: usd(500), holdUntilMs: clock.now + 60_000, unpaidBy: alice });
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 60_000, unpaidBy: alice });
      const refused = ledger.hold(
        'chk_a',
        { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy: null },
        () => {
          throw new Error('refused');
        },
        0,
      );
      await expect(refused).rejects.toThrow('refused');
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 0, unpaidMinor: 800 });
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy: null });
      expect(seen.at(-1)).toMatchObject({ unpaidMinor: 500, unpaidCount: 1, firmMinor: 0 });
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, unpaidMinor: 500 });
      // Firm now: it outlives the unpaid hold's end.
      clock.now += 120_000;
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, unpaidMinor: 0 });
    });

    it('makes a hold firm when its checkout is confirmed and placed (extend)', async () => {
      const { clock, ledger, hold } = ledgerAt(1_000_000);
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 1_000, unpaidBy: alice });
      await ledger.extend('chk_a', clock.now + 3_600_000);
      clock.now += 60_000;
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, unpaidCount: 0 });
    });
  });

  describe('a started payment', () => {
    const payment = (untilMs: number, attempt = 1, holder = alice): PaymentRequest => ({
      amount: usd(300),
      untilMs,
      attempt,
      holder,
    });

    it('holds firmly while it runs and stays counted against its maker, never renewed', async () => {
      const { clock, ledger, seen, hold, startPayment } = ledgerAt(1_000_000);
      const unpaidEnd = clock.now + 600_000;
      await hold('chk_a', { amount: usd(300), holdUntilMs: unpaidEnd, unpaidBy: alice });
      await hold('chk_b', {
        amount: usd(500),
        holdUntilMs: unpaidEnd,
        unpaidBy: { ...alice, session: 's2' },
      });
      expect(await startPayment('chk_a', payment(clock.now + 120_000))).toBe(true);
      // Approved against the others, with its maker's payments in progress (none yet) and its holds not yet paid.
      expect(seen.at(-1)).toMatchObject({
        firmMinor: 0,
        unpaidMinor: 500,
        ofAddress: { count: 1 },
        paymentsOfAddress: { count: 0 },
      });
      expect(await ledger.held('USD', 0)).toMatchObject({
        amountMinor: 800,
        firmMinor: 300,
        payingMinor: 300,
        unpaidMinor: 800,
        unpaidCount: 2,
        payments: { count: 1, firstEndsAtMs: clock.now + 120_000 },
      });
      // Started again (a retried call, a second pay of the same attempt): as it is, not renewed, not approved again.
      const approvals = seen.length;
      expect(await startPayment('chk_a', payment(clock.now + 900_000))).toBe(false);
      expect(seen.length).toBe(approvals);
      // The address's other checkout starts its payment: it sees the first, in the address's and session's counts.
      await startPayment('chk_b', payment(clock.now + 120_000, 1, { ...alice, session: 's2' }));
      expect(seen.at(-1)).toMatchObject({
        firmMinor: 300,
        paymentsOfAddress: { count: 1, firstEndsAtMs: clock.now + 120_000 },
        paymentsOfSession: { count: 0 },
        ofAddress: { count: 1 },
      });
    });

    it('is unpaid again when its time is up (abandoned), with its holder and its own end; gone after that', async () => {
      const { clock, ledger, store, hold, startPayment } = ledgerAt(1_000_000);
      const unpaidEnd = clock.now + 600_000;
      await hold('chk_a', { amount: usd(300), holdUntilMs: unpaidEnd, unpaidBy: alice });
      await startPayment('chk_a', payment(clock.now + 120_000));
      const paying = await storedHold(store, 'chk_a');
      expect(paying).toMatchObject({
        unpaidBy: alice,
        holdUntilMs: unpaidEnd,
        payment: { untilMs: clock.now + 120_000, unpaidUntilMs: unpaidEnd, attempt: 1 },
      });
      clock.now += 120_000;
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 0, unpaidMinor: 300, payingMinor: 0 });
      // The next change writes it back as the unpaid hold it was.
      await hold('chk_other', { amount: usd(100), holdUntilMs: unpaidEnd + 3_600_000, unpaidBy: null });
      expect(await storedHold(store, 'chk_a')).toMatchObject({
        unpaidBy: alice,
        holdUntilMs: unpaidEnd,
        payment: null,
      });
      // It may start again: a new payment, approved again — here one that outlasts the hold's own end …
      clock.now = unpaidEnd - 60_000;
      expect(await startPayment('chk_a', payment(clock.now + 120_000))).toBe(true);
      clock.now = unpaidEnd;
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 400, payingMinor: 300 });
      // … so when that payment's time is up there is nothing to return to: the hold is gone.
      clock.now += 60_000;
      expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 100, unpaidCount: 0 });
    });

    it('is unpaid again at the decline of its attempt (not of an earlier one), or gone when its own end passed', async () => {
      const { clock, ledger, store, hold, startPayment } = ledgerAt(1_000_000);
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 600_000, unpaidBy: alice });
      await startPayment('chk_a', payment(clock.now + 120_000, 2));
      // A retried report of the first attempt's decline does not end the second attempt's payment.
      expect(await ledger.endPayment('chk_a', 1)).toBe(false);
      expect(await ledger.held('USD', 0)).toMatchObject({ payingMinor: 300 });
      expect(await ledger.endPayment('chk_a', 2)).toBe(true);
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 0, unpaidMinor: 300, unpaidCount: 1 });
      expect(await storedHold(store, 'chk_a')).toMatchObject({
        holdUntilMs: clock.now + 600_000,
        payment: null,
      });
      expect(await ledger.endPayment('chk_a', 2)).toBe(false);
      // Started after its unpaid hold ended: held for the payment alone, released at its decline.
      clock.now += 600_000;
      expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 0 });
      expect(await startPayment('chk_a', payment(clock.now + 120_000, 3))).toBe(true);
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, payingMinor: 300 });
      expect(await ledger.endPayment('chk_a', 3)).toBe(true);
      expect(await storedHold(store, 'chk_a')).toBeUndefined();
    });

    it('is made firm by the confirm (a new approval), and a late decline leaves it firm', async () => {
      const { clock, ledger, hold, startPayment, seen } = ledgerAt(1_000_000);
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 600_000, unpaidBy: alice });
      await startPayment('chk_a', payment(clock.now + 120_000));
      await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 1_800_000, unpaidBy: null });
      expect(seen.at(-1)).toMatchObject({ firmMinor: 0, payingMinor: 0 });
      expect(await ledger.endPayment('chk_a', 1)).toBe(false);
      clock.now += 900_000;
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, unpaidMinor: 0, payingMinor: 0 });
    });

    it('is started by one instance only when the address has room for one more', async () => {
      const { clock, store, hold, startPayment } = ledgerAt(1_000_000);
      const other = createReservationLedger(store, 'acct', () => clock.now);
      for (const id of ['chk_a', 'chk_b', 'chk_c']) {
        await hold(id, { amount: usd(300), holdUntilMs: clock.now + 600_000, unpaidBy: alice });
      }
      await startPayment('chk_a', payment(clock.now + 120_000));
      // The address's cap of payments is 2: chk_b and chk_c race from two instances, one of them wins.
      const capped = (others: HeldFunds) => {
        if (others.paymentsOfAddress.count >= 2) throw new Error('payments_in_progress');
      };
      const results = await Promise.allSettled([
        other.startPayment('chk_b', payment(clock.now + 120_000), capped, 0),
        createReservationLedger(store, 'acct', () => clock.now).startPayment(
          'chk_c',
          payment(clock.now + 120_000),
          capped,
          0,
        ),
      ]);
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(await other.held('USD', 0)).toMatchObject({ payingMinor: 600, payments: { count: 2 } });
    });
  });

  describe('a proposal of an instance that died', () => {
    /** `store` as an instance sees it that dies (SIGKILL) right after its first write of the book: nothing after. */
    function dyingAfterFirstChange(store: Store) {
      let died: () => void = () => undefined;
      const dead = new Promise<void>((resolve) => {
        died = resolve;
      });
      let changes = 0;
      const dying = new Proxy(store, {
        get(target, name, receiver) {
          if (name !== 'entryBook') return Reflect.get(target, name, receiver);
          return (bookName: string) => {
            const book = target.entryBook(bookName);
            return {
              read: book.read.bind(book),
              change: (change: Parameters<typeof book.change>[0]) => {
                changes += 1;
                if (changes === 1) return book.change(change);
                died();
                return new Promise<never>(() => undefined);
              },
            };
          };
        },
      });
      return { dying, dead };
    }

    it('is taken over by the next call on its checkout, on the same clock: one hold made, counted once', async () => {
      const { clock, store, ledger, hold } = ledgerAt(1_000_000);
      const { dying, dead } = dyingAfterFirstChange(store);
      const firm = { amount: usd(1_000), holdUntilMs: clock.now + 600_000, unpaidBy: null };
      // Its proposal written, the instance dies before it makes it or takes it back.
      void createReservationLedger(dying, 'acct', () => clock.now).hold('chk_1', firm, () => undefined, 0);
      await dead;
      expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 1_000, count: 1 });
      // The traveller's retry on a live instance, the clock unmoved: the hold is made, not refused as busy.
      await hold('chk_1', firm);
      expect(await storedHold(store, 'chk_1')).toMatchObject({ amountMinor: 1_000, unpaidBy: null });
      expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 1_000, count: 1, firmMinor: 1_000 });
    });
  });

  describe('a record of the release before', () => {
    // Its firm hold (chk_Hc7B…) was made by a payment start, its unpaid one (chk_Zq0v…) is a checkout awaiting one.
    const fixture = readFileSync(
      new URL('../store/record-fixtures/funding-ledger.unpaid-and-firm.json', import.meta.url),
      'utf8',
    );
    const FIRM = 'chk_Hc7Bn1Xs4Dm9Qf2Lk8Wr0e';
    const UNPAID = 'chk_Zq0v3Lr8TnYw2Kd5Pa1xGg';

    it('keeps its firm holds firm until their end, and starts a payment on its unpaid ones', async () => {
      const old = JSON.parse(fixture);
      const { clock, ledger, store, startPayment } = ledgerAt(old.holds[UNPAID].holdUntilMs - 300_000);
      await store.insert(STORE_KEYS.fundingLedger('acct'), fixture, 60_000);
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 424, unpaidMinor: 424, payingMinor: 0 });
      // A payment started again, or declined, on the firm hold: it stays as that release made it.
      expect(await startPayment(FIRM, { ...payment(clock.now + 120_000), amount: usd(424) })).toBe(false);
      expect(await ledger.endPayment(FIRM, 1)).toBe(false);
      // The unpaid hold's payment: firm while it runs, its holder the one the record names.
      const stranger = { address: 'someone-else', session: 'another' };
      expect(
        await startPayment(UNPAID, { ...payment(clock.now + 120_000, 1, stranger), amount: usd(424) }),
      ).toBe(true);
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 848, payingMinor: 424 });
      // Moved into the book, hold by hold, with the month's spend; the record is gone.
      expect(await store.get(STORE_KEYS.fundingLedger('acct'))).toBeNull();
      expect(await storedHold(store, FIRM)).toEqual({ ...old.holds[FIRM], payment: null });
      expect(await storedHold(store, UNPAID)).toMatchObject({ unpaidBy: old.holds[UNPAID].unpaidBy });
      expect((await ledger.held('USD', 0)).spentThisMonthMinor).toBe(old.monthlySpend['2026-11:USD']);
      // Declined: unpaid until its own end, then gone; the firm hold lasts until its own.
      expect(await ledger.endPayment(UNPAID, 1)).toBe(true);
      clock.now = old.holds[UNPAID].holdUntilMs;
      expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 424, unpaidMinor: 0 });
      clock.now = old.holds[FIRM].holdUntilMs;
      expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 0 });
    });

    it('is moved into the book hold by hold while another instance changes it and the release before still writes it: none lost, none counted twice', async () => {
      const { clock, store } = ledgerAt(1_795_530_000_000);
      const key = STORE_KEYS.fundingLedger('acct');
      const until = clock.now + 600_000;
      const holds: Record<string, unknown> = {};
      for (let index = 0; index < 40; index += 1) {
        holds[`chk_old_${index}`] =
          index % 2 === 0
            ? { amountMinor: 100, currency: 'USD', holdUntilMs: until, settledAtMs: null, unpaidBy: null }
            : {
                amountMinor: 100,
                currency: 'USD',
                holdUntilMs: until,
                unpaidBy: { address: `a${index}`, session: `s${index}` },
              };
      }
      await store.insert(
        key,
        JSON.stringify({ schemaVersion: 2, holds, monthlySpend: { '2026-11:USD': 5_000 } }),
        60_000,
      );
      const first = createReservationLedger(store, 'acct', () => clock.now);
      const second = createReservationLedger(store, 'acct', () => clock.now);
      /** An instance of the release before adding one firm hold to its record (making it anew when it is gone). */
      async function oldInstanceHolds(id: string) {
        for (;;) {
          const stored = await store.get(key);
          const record =
            stored === null ? { schemaVersion: 3, holds: {}, monthlySpend: {} } : JSON.parse(stored.value);
          record.holds[id] = {
            amountMinor: 100,
            currency: 'USD',
            holdUntilMs: until,
            settledAtMs: null,
            unpaidBy: null,
            payment: null,
          };
          const written =
            stored === null
              ? await store.insert(key, JSON.stringify(record), 60_000)
              : await store.compareAndSet(key, stored.version, JSON.stringify(record), 60_000);
          if (written) return;
        }
      }
      const firm = { amount: usd(100), holdUntilMs: until, unpaidBy: null };
      await Promise.all([
        first.held('USD', 0),
        ...Array.from({ length: 10 }, (_, index) =>
          second.hold(`chk_new_${index}`, firm, () => undefined, 0),
        ),
        second.settle('chk_old_0', clock.now),
        second.settle('chk_old_2', clock.now),
        ...Array.from({ length: 5 }, (_, index) => oldInstanceHolds(`chk_older_${index}`)),
        first.hold('chk_new_last', firm, () => undefined, 0),
      ]);
      // Whatever the old instance wrote last is moved by the next call of any instance.
      const held = await second.held('USD', 0);
      expect(await store.get(key)).toBeNull();
      expect(held).toMatchObject({
        count: 40 + 10 + 5 + 1,
        amountMinor: 5_600,
        unpaidCount: 20,
        firmMinor: 3_600,
        spentThisMonthMinor: 5_200,
      });
      expect(await first.held('USD', 0)).toEqual(held);
    });

    const payment = (untilMs: number, attempt = 1, holder = alice): PaymentRequest => ({
      amount: usd(300),
      untilMs,
      attempt,
      holder,
    });
  });
});
