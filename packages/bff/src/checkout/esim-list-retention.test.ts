/**
 * An eSIM's entry in its seller's list (`GET /v1/partner/esims`) is one entry per eSIM that ends
 * `retention.esimDays` after the sale (730 days by default) — however often its checkout is written meanwhile (the
 * partner reads it every 25 days, which writes it, and so keeps the checkout itself) and while the widget keeps
 * selling. Embedded store and BFF on one test clock moved two years on, the sandbox's clock with them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim } from '../../testing/after-sale-flow';
import { call, openWidget, PARTNER_SECRET, type Stack, startStack, testClock } from '../../testing/stack';
import { openSqliteStore, type SqliteStore } from '../store/sqlite-store';
import { STORE_INDEXES, STORE_KEYS } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;
const root = mkdtempSync(join(tmpdir(), 'esim-list-retention-'));
const clock = testClock();
let store: SqliteStore;
let stack: Stack;

beforeAll(async () => {
  store = openSqliteStore({ dataDir: join(root, 'data'), now: clock.now });
  stack = await startStack({ store, bffOptions: { now: clock.now } });
});
afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

const asPartner = (path: string) =>
  call(stack.server.url, path, { headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET } });

/** Days pass for the BFF, its store and the sandbox. */
async function later(days: number): Promise<void> {
  clock.advance(days * DAY_MS);
  await stack.sandbox.control.advanceClock(days * DAY_MS);
}

/** The eSIMs the seller's list holds, as the store keeps it (rows, not a read that skips the expired). */
const held = () =>
  store.database
    .prepare('SELECT member FROM index_entries WHERE name = ?')
    .all(STORE_INDEXES.esims('shop'))
    .map((row) => String(row.member));

const listed = async () => {
  const answer = await asPartner('/v1/partner/esims?limit=100');
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map((esim: { esimId: string }) => esim.esimId);
};

describe("an eSIM in its seller's list", () => {
  it('is gone its retention after the sale, though its checkout is written and the widget keeps selling', async () => {
    const first = await buyEsim(await openWidget(stack.server.url, 'shop'));
    expect(await listed()).toContain(first.esimId);
    const sold: string[] = [];
    // 750 days, 25 at a time: the partner reads the first sale's checkout each time (a read after the cache writes
    // it, renewing its list entries and its life), and the widget sells again every 100 days.
    for (let day = 25; day <= 750; day += 25) {
      await later(25);
      const read = await asPartner(`/v1/partner/checkouts/${first.checkoutId}`);
      expect(read.status, read.text).toBe(200);
      if (day % 100 === 0) sold.push((await buyEsim(await openWidget(stack.server.url, 'shop'))).esimId);
    }
    await store.sweep();
    // The checkout is kept (written a month ago at most); its eSIM's entry and seller ended 730 days after the sale.
    expect(await store.get(STORE_KEYS.checkout(first.checkoutId))).not.toBeNull();
    expect(held()).not.toContain(first.esimId);
    expect(await store.get(STORE_KEYS.esimOwner(first.esimId))).toBeNull();
    const now = await listed();
    expect(now).not.toContain(first.esimId);
    // Those sold within their retention are still there, one entry each.
    for (const esimId of sold) {
      expect(held()).toContain(esimId);
      expect(now).toContain(esimId);
    }
  });
});
