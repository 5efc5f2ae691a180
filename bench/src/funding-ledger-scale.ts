/**
 * @module
 * The funding ledger's cost per purchase with 10 holds open on one account against 10,000, on the embedded store
 * and on a real redis-server: a purchase's ledger calls (an unpaid hold, its payment started, the confirm's firm
 * hold, the settlement) timed, and the bytes of every value they ask the store to write and the store calls they
 * make, counted at the store's interface. Flat is the goal: each hold is an entry of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRedisStore, openSqliteStore, type Store } from '@esim-embed/bff';
import { createReservationLedger, type RunningRedis } from '@esim-embed/bff/testing';
import { percentile } from './load-spec';
import { type Check, check, fmt, table } from './report';

/** Purchases timed per store and size (after the open holds are made). */
const PURCHASES = 200;
/** How many holds are made at once while the account is filled (the embedded store syncs them together). */
const FILL_AT_ONCE = 64;
const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' as const });

interface ScaleFigures {
  store: string;
  open: number;
  p50: number;
  p99: number;
  bytesPerPurchase: number;
  callsPerPurchase: number;
}

/** `store`, counting its calls and the bytes of the values it is asked to write. */
function metered(store: Store) {
  const counts = { calls: 0, bytes: 0 };
  const count = <T>(bytes: number, run: () => Promise<T>) => {
    counts.calls += 1;
    counts.bytes += bytes;
    return run();
  };
  const wrapped: Store = {
    ...store,
    get: (key) => count(0, () => store.get(key)),
    insert: (key, value, ttlMs) => count(value.length, () => store.insert(key, value, ttlMs)),
    compareAndSet: (key, version, value, ttlMs) =>
      count(value.length, () => store.compareAndSet(key, version, value, ttlMs)),
    compareAndDelete: (key, version) => count(0, () => store.compareAndDelete(key, version)),
    entryBook(name) {
      const book = store.entryBook(name);
      return {
        read: (query) => count(0, () => book.read(query)),
        change: (change) => count(JSON.stringify(change).length, () => book.change(change)),
      };
    },
  };
  return { store: wrapped, counts };
}

async function measure(name: string, open: number, store: Store): Promise<ScaleFigures> {
  const clock = { now: Date.now() };
  const { store: counted, counts } = metered(store);
  const ledger = createReservationLedger(counted, `bench-${open}`, () => clock.now);
  const approve = () => undefined;
  // The open holds: half firm, half unpaid from 500 addresses, all lasting past the run.
  let made = 0;
  const fill = async () => {
    for (let index = made++; index < open; index = made++) {
      const unpaidBy = index % 2 === 0 ? null : { address: `addr-${index % 500}`, session: `sess-${index}` };
      await ledger.hold(
        `chk_open_${index}`,
        { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy },
        approve,
        0,
      );
    }
  };
  await Promise.all(Array.from({ length: FILL_AT_ONCE }, fill));
  const times: number[] = [];
  const before = { ...counts };
  for (let index = 0; index < PURCHASES; index += 1) {
    clock.now += 60;
    // The account as last read: every sale makes the instances read it again.
    const readAt = clock.now - 2_000;
    const id = `chk_bought_${index}`;
    const holder = { address: `buyer-${index}`, session: `buyer-session-${index}` };
    const started = performance.now();
    await ledger.hold(
      id,
      { amount: usd(300), holdUntilMs: clock.now + 600_000, unpaidBy: holder },
      approve,
      readAt,
    );
    await ledger.startPayment(
      id,
      { amount: usd(300), untilMs: clock.now + 120_000, attempt: 1, holder },
      approve,
      readAt,
    );
    await ledger.hold(
      id,
      { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy: null },
      approve,
      readAt,
    );
    await ledger.settle(id, clock.now);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    store: name,
    open,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    bytesPerPurchase: (counts.bytes - before.bytes) / PURCHASES,
    callsPerPurchase: (counts.calls - before.calls) / PURCHASES,
  };
}

/** The ledger's cost per purchase at 10 and 10,000 open holds, on the embedded store and on `redis`. */
export async function fundingLedgerScale(redis: RunningRedis): Promise<{ lines: string[]; checks: Check[] }> {
  const root = mkdtempSync(join(tmpdir(), 'esim-bench-ledger-'));
  const figures: ScaleFigures[] = [];
  try {
    for (const open of [10, 10_000]) {
      const embedded = openSqliteStore({ dataDir: mkdtempSync(join(root, 'data-')) });
      try {
        figures.push(await measure('embedded', open, embedded));
      } finally {
        await embedded.close();
      }
      const shared = createRedisStore({ url: redis.url, keyPrefix: `bench-ledger-${open}:` });
      try {
        figures.push(await measure('redis', open, shared));
      } finally {
        await shared.close();
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const of = (store: string, open: number) =>
    figures.find((figure) => figure.store === store && figure.open === open) as ScaleFigures;
  const growth = (store: string) => of(store, 10_000).p50 / of(store, 10).p50;
  return {
    lines: [
      '',
      `The ledger alone, one account: ${PURCHASES} purchases (an unpaid hold, its payment started, the confirm's ` +
        'firm hold, the settlement) one after another with 10 holds open and with 10,000; bytes are those of the ' +
        'values the ledger asks the store to write, counted at the store interface.',
      '',
      ...table(
        [
          'store',
          'open holds',
          'purchase p50',
          'purchase p99',
          'bytes written / purchase',
          'store calls / purchase',
        ],
        figures.map((figure) => [
          figure.store,
          fmt.int(figure.open),
          fmt.ms(figure.p50),
          fmt.ms(figure.p99),
          fmt.int(figure.bytesPerPurchase),
          fmt.plain(figure.callsPerPurchase),
        ]),
      ),
    ],
    checks: [
      check(
        'funding.ledger.embedded.growth',
        'ledger p50, 10,000 open holds / 10, embedded',
        growth('embedded'),
        '<=',
        1.5,
        fmt.plain,
      ),
      check(
        'funding.ledger.redis.growth',
        'ledger p50, 10,000 open holds / 10, Redis',
        growth('redis'),
        '<=',
        1.5,
        fmt.plain,
      ),
      check(
        'funding.ledger.bytes.growth',
        'bytes written per purchase, 10,000 open holds / 10, Redis',
        of('redis', 10_000).bytesPerPurchase / of('redis', 10).bytesPerPurchase,
        '<=',
        1.05,
        fmt.plain,
      ),
    ],
  };
}
