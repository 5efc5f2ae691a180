/**
 * A widget removed from the config has its travellers erased after `privacy.removedWidgetErasureDays`, over HTTP
 * against the real sandbox on the embedded store, the BFF's clock moved by the test: a purchase in the widget, then
 * the BFF started again without it; before the period its checkout is kept whole, after it the traveller is gone
 * (the checkout's money facts kept), once, under one receipt; a widget put back in the config is not erased.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topUpablePlan, untilReady } from '../../testing/after-sale-flow';
import {
  newKey,
  openWidget,
  type RunningBff,
  startBff,
  type TestClock,
  testClock,
  testConfig,
} from '../../testing/stack';
import { readCheckoutRecord } from '../checkout/checkout-record';
import { openSqliteStore, type SqliteStore } from '../store/sqlite-store';
import { STORE_KEYS } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;
const ADDRESS = 'removed.widget.traveller@example.org';

let sandbox: RunningSandbox;
let dataDir: string;
const sessionSecret = randomBytes(32);
beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  dataDir = mkdtempSync(join(tmpdir(), 'esim-removed-widget-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The BFF's clock and the sandbox's moved together (a quote made after the move is still fresh upstream). */
async function advance(clock: TestClock, ms: number): Promise<void> {
  clock.advance(ms);
  await sandbox.control.advanceClock(ms);
}

/** A BFF on the data directory whose config holds the widgets `keep` picks, with a 7-day period. */
async function bffWith(
  clock: TestClock,
  keep: (id: string) => boolean,
): Promise<RunningBff & { store: SqliteStore }> {
  const store = openSqliteStore({ dataDir, now: clock.now });
  const running = await startBff(sandbox.url, {
    sessionSecret,
    store,
    config: (url) => {
      const base = testConfig(url, { privacy: { removedWidgetErasureDays: 7 } });
      return { ...base, widgets: base.widgets.filter((widget) => keep(widget.id)) };
    },
    bffOptions: { now: clock.now, startWorkers: false },
  });
  return { ...running, store };
}

async function stop(running: RunningBff): Promise<void> {
  await running.server.close();
  await running.bff.close();
}

/** A `direct` purchase in `shop` with the address; answers its checkout id. */
async function purchase(url: string): Promise<string> {
  const page = await openWidget(url, 'shop');
  const plan = await topUpablePlan(page);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true, email: ADDRESS },
    { 'Idempotency-Key': newKey() },
  );
  expect(checkout.status, checkout.text).toBe(201);
  await untilReady(page, checkout.body.data.id, checkout.body.data.clientSecret);
  return checkout.body.data.id;
}

const checkoutOf = async (store: SqliteStore, id: string) => {
  const stored = await store.get(STORE_KEYS.checkout(id));
  return stored === null ? null : readCheckoutRecord(stored.value);
};

describe('a widget removed from the config', () => {
  it('has its travellers erased once the period has passed, not before; one put back is not', async () => {
    const clock = testClock();
    let running = await bffWith(clock, () => true);
    const sold = await purchase(running.server.url);
    await stop(running);

    // Started without `shop`: found gone, noted, nothing erased yet.
    running = await bffWith(clock, (id) => id !== 'shop');
    await running.bff.removedWidgets.sweep();
    await advance(clock, 6 * DAY_MS);
    await running.bff.removedWidgets.sweep();
    await running.bff.privacyErasures.runDue();
    expect((await checkoutOf(running.store, sold))?.email).toBe(ADDRESS);

    // Past the period: erased, the sale's money facts kept.
    await advance(clock, 2 * DAY_MS);
    await running.bff.removedWidgets.sweep();
    await running.bff.privacyErasures.runDue();
    const erased = await checkoutOf(running.store, sold);
    expect(erased).toMatchObject({
      id: sold,
      status: 'ready',
      widgetId: 'shop',
      email: null,
      openedFrom: null,
    });
    // One receipt, however often the sweep runs after.
    await running.bff.removedWidgets.sweep();
    const receipts = await running.store.scanKeys(STORE_KEYS.privacyErasure(''), null, 100);
    expect(receipts.keys).toHaveLength(1);
    const receipt = JSON.parse((await running.store.get(receipts.keys[0] ?? ''))?.value ?? '{}');
    expect(receipt).toMatchObject({ subject: { kind: 'widget', id: 'shop' }, erased: { checkouts: 1 } });
    expect(receipt.completedAtMs).not.toBeNull();
    await stop(running);

    // A widget removed and put back before the period is forgotten, not erased.
    running = await bffWith(clock, () => true);
    await running.bff.removedWidgets.sweep();
    const kept = await purchase(running.server.url);
    await stop(running);
    running = await bffWith(clock, (id) => id !== 'shop');
    await running.bff.removedWidgets.sweep();
    await stop(running);
    running = await bffWith(clock, () => true);
    await running.bff.removedWidgets.sweep();
    expect(await running.store.get(STORE_KEYS.removedWidget('shop'))).toBeNull();
    await advance(clock, 8 * DAY_MS);
    await running.bff.removedWidgets.sweep();
    await running.bff.privacyErasures.runDue();
    expect((await checkoutOf(running.store, kept))?.email).toBe(ADDRESS);
    await stop(running);
  });
});
