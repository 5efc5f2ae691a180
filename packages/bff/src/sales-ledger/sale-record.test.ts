/**
 * How a sale follows its checkout: which checkouts are sales, what a sale copies (nothing personal), that an older
 * version of the checkout never overwrites a newer one, and that a refund seen after the checkout had gone stands.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CheckoutRecord, readCheckoutRecord } from '../checkout/checkout-record';
import { isSale, readSaleRecord, refundedSale, saleOf, writtenSale } from './sale-record';

/** A ready checkout of a release before the ledger (a committed fixture, with its traveller's e-mail). */
const ready: CheckoutRecord = readCheckoutRecord(
  readFileSync(
    new URL('../store/record-fixtures/checkout.ready-installation-email-sent.json', import.meta.url),
    'utf8',
  ),
);
const placing: CheckoutRecord = { ...ready, status: 'placing', order: null, paymentReference: 'pay_1' };
const T = Date.parse('2026-11-24T15:00:00Z');

describe('a sale', () => {
  it('is a checkout once paid, never one that was not', () => {
    expect(isSale(placing)).toBe(true);
    expect(isSale(ready)).toBe(true);
    expect(isSale({ ...placing, status: 'awaiting_payment', paymentReference: null })).toBe(false);
    expect(isSale({ ...placing, status: 'expired', paymentReference: null })).toBe(false);
    expect(isSale({ ...placing, status: 'cancelled', paymentReference: null })).toBe(false);
    expect(isSale({ ...ready, status: 'cancelled' })).toBe(true);
    expect(
      saleOf({ record: { ...placing, status: 'expired', paymentReference: null }, version: 3 }, null, T),
    ).toBe(null);
  });

  it('copies nothing personal, and dates its payment when first seen paying', () => {
    const sale = saleOf({ record: placing, version: 4 }, null, T);
    expect(sale).toMatchObject({ status: 'placing', paidAt: new Date(T).toISOString(), readyAt: null });
    const written = writtenSale(sale as NonNullable<typeof sale>);
    expect(written).not.toContain(ready.email ?? 'no e-mail in the fixture');
    expect(written).not.toContain(ready.sessionId);
    expect(written).not.toContain(ready.origin);
    expect(readSaleRecord(written)).toEqual(sale);
  });

  it('follows newer versions of its checkout and never an older one', () => {
    const paid = saleOf({ record: placing, version: 4 }, null, T);
    const done = saleOf({ record: { ...ready, paymentReference: 'pay_1' }, version: 6 }, paid, T + 5_000);
    expect(done).toMatchObject({
      status: 'ready',
      paidAt: paid?.paidAt,
      readyAt: new Date(T + 5_000).toISOString(),
    });
    // The placing write told late (version 4 < 6) changes nothing; nor does the same view again.
    expect(saleOf({ record: placing, version: 4 }, done, T + 6_000)).toBeNull();
    expect(
      saleOf({ record: { ...ready, paymentReference: 'pay_1' }, version: 7 }, done, T + 6_000),
    ).toBeNull();
    // A checkout of unknown version (the build from stored checkouts) makes a sale only where there is none.
    expect(saleOf({ record: { ...ready, status: 'cancelled' }, version: 0 }, done, T)).toBeNull();
    expect(saleOf({ record: ready, version: 0 }, null, T)).toMatchObject({
      paidAt: ready.createdAt,
      readyAt: null,
    });
  });

  it('keeps a refund seen after its checkout had gone', () => {
    const sale = saleOf({ record: ready, version: 5 }, null, T);
    const refunded = refundedSale(sale as NonNullable<typeof sale>, T + 1_000);
    expect(refunded).toMatchObject({ status: 'refunded', refundedAt: new Date(T + 1_000).toISOString() });
    expect(refundedSale(refunded as NonNullable<typeof refunded>, T + 2_000)).toBeNull();
  });
});
