/**
 * The ledger read across many pages, on the embedded store: a period's sales, from two widgets, each exported
 * once in order — across the export's pages and the bound on what one page examines — its `from` inclusive and
 * its `to` exclusive; a search by eSIM or payment reference reads its own index; another widget's sales never.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutRecord, readCheckoutRecord } from '../checkout/checkout-record';
import { openSqliteStore, type SqliteStore } from '../store/sqlite-store';
import { salesCsvStream } from './sales-csv';
import { createSalesDesk } from './sales-desk';
import { createSalesLedger } from './sales-ledger';

const fixture: CheckoutRecord = readCheckoutRecord(
  readFileSync(
    new URL('../store/record-fixtures/checkout.ready-installation-email-sent.json', import.meta.url),
    'utf8',
  ),
);
const START = Date.parse('2026-10-01T00:00:00Z');
const MINUTE = 60_000;
/** 1,500 sales a minute apart from October's first instant, alternating between two widgets. */
const SALES = 1_500;

let dataDir: string;
let store: SqliteStore;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sales-desk-'));
  let time = START;
  store = await openSqliteStore({ dataDir, now: () => time });
  const ledger = createSalesLedger({ store, retentionMs: 400 * 24 * 60 * MINUTE, now: () => time });
  for (let at = 0; at < SALES; at += 1) {
    time = START + at * MINUTE;
    const record: CheckoutRecord = {
      ...fixture,
      id: `chk_sale_${String(at).padStart(6, '0')}`,
      widgetId: at % 2 === 0 ? 'shop' : 'shop-pay',
      status: 'placing',
      order: null,
      paymentReference: `pay_${at}`,
      esimId: null,
    };
    await ledger.follow(null, { record, version: 2 });
  }
}, 120_000);
afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the sales desk', () => {
  it('exports every sale of a period once, newest paid first, across pages', async () => {
    const desk = createSalesDesk(store);
    // From the 100th sale (inclusive) to the 1,400th (exclusive).
    const period = { fromMs: START + 100 * MINUTE, toMs: START + 1_400 * MINUTE };
    let pages = 0;
    const csv = await new Response(
      salesCsvStream((after) => {
        pages += 1;
        return desk.list(['shop', 'shop-pay'], period, { after, limit: 500 });
      }),
    ).text();
    const ids = csv
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',')[0]);
    const expected = Array.from(
      { length: 1_300 },
      (_, at) => `chk_sale_${String(1_399 - at).padStart(6, '0')}`,
    );
    expect(ids).toEqual(expected);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('reads one widget, one eSIM or one payment reference from its own index, and no other widget’s', async () => {
    const desk = createSalesDesk(store);
    const shopOnly = await desk.list(['shop'], {}, { after: null, limit: 100 });
    expect(shopOnly.items.every((sale) => sale.widgetId === 'shop')).toBe(true);
    expect(shopOnly.items[0]?.checkoutId).toBe('chk_sale_001498');
    const byReference = await desk.list(
      ['shop', 'shop-pay'],
      { paymentReference: 'pay_7' },
      { after: null, limit: 10 },
    );
    expect(byReference.items.map((sale) => sale.checkoutId)).toEqual(['chk_sale_000007']);
    expect(await desk.list(['shop'], { paymentReference: 'pay_7' }, { after: null, limit: 10 })).toEqual({
      items: [],
      next: null,
    });
    expect(await desk.read(['shop'], 'chk_sale_000007')).toBeNull();
    expect((await desk.read(['shop-pay'], 'chk_sale_000007'))?.paymentReference).toBe('pay_7');
  });
});
