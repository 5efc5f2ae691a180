/**
 * What the embedded store takes on disk for a purchase: the store calls of one real purchase (the capacity
 * funnel's: a session, a quote, a `direct` checkout polled until ready, its installation read), recorded through
 * the real BFF and sandbox, written again 1,000 times with fresh ids (`testing/purchase-calls.ts`), so that the
 * records keep their real shapes and sizes. A size, not a time: it does not depend on how fast the machine is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePurchase, recordPurchaseCalls, type StoreCall } from '../../testing/purchase-calls';
import { openSqliteStore } from './sqlite-store';

/** The purchases whose records are written. */
const PURCHASES = 1_000;
/** The budget (issue 36): at most this many bytes on disk per purchase. */
const BYTES_PER_PURCHASE = 8 * 1024;

describe('the embedded store on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'esim-store-footprint-'));
  let calls: StoreCall[] = [];
  beforeAll(async () => {
    calls = await recordPurchaseCalls();
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(`keeps ${PURCHASES.toLocaleString('en-US')} purchases' records in at most 8 KB on disk each`, async () => {
    // The purchase wrote its quote, checkout and idempotent answers: the records that take the room.
    const kinds = new Set(calls.map((call) => String(call.args[0]).split(':')[0]));
    expect([...kinds]).toEqual(expect.arrayContaining(['quote', 'checkout', 'idempotency']));
    // Every write synced as in production would only make this test slower: the files are the same.
    const store = openSqliteStore({ dataDir: join(root, 'data'), fsync: async () => {} });
    try {
      for (let index = 0; index < PURCHASES; index += 1) await makePurchase(store, calls);
      const footprint = await store.footprint();
      const perPurchase = (footprint.databaseBytes + footprint.walBytes) / PURCHASES;
      const largest = JSON.stringify(footprint.tables?.slice(0, 3));
      expect(perPurchase, `bytes per purchase; largest tables ${largest}`).toBeLessThanOrEqual(
        BYTES_PER_PURCHASE,
      );
    } finally {
      await store.close();
    }
  }, 120_000);
});
