/**
 * A checkout's reactions to a change of status, over real HTTP in front of the real sandbox, on a store that
 * fails one write: the reaction that hit it is not lost — it stays due on the checkout record and the
 * background watch does it again — and once done, nothing is left due and the checkout leaves the watch. So
 * too for an instance that died right after writing a change, before any of its reactions ran.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, PARTNER_SECRET, type Stack, startStack, testConfig } from '../../testing/stack';
import { checkoutAsTraveller } from '../../testing/traveller-checkout';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS, type Store } from '../store/store';
import { QUEUE_NAMES } from '../store/work-queue';
import { readCheckoutRecord } from './checkout-record';

/**
 * The memory store, except that the next write of a key (or change of an entry book) starting with `failNext`
 * (once armed) throws.
 */
const memory = createMemoryStore();
let failNext: string | null = null;
const failOnce = (key: string) => {
  if (failNext !== null && key.startsWith(failNext)) {
    failNext = null;
    throw new Error('store unavailable');
  }
};
const store: Store = {
  ...memory,
  insert: async (key, value, ttlMs) => {
    failOnce(key);
    return await memory.insert(key, value, ttlMs);
  },
  compareAndSet: async (key, version, value, ttlMs) => {
    failOnce(key);
    return await memory.compareAndSet(key, version, value, ttlMs);
  },
  // An entry book (the funding ledger's holds) by its name.
  entryBook(name) {
    const book = memory.entryBook(name);
    return {
      read: (query) => book.read(query),
      change: async (change) => {
        failOnce(name);
        return await book.change(change);
      },
    };
  },
};

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    store,
    config: (sandboxUrl) => testConfig(sandboxUrl, { checkoutWatchSeconds: 1, accountCacheMs: 0 }),
    // The watch looks ten times a second: a reaction left due is done again within moments.
    bffOptions: { watchIntervalMs: 100 },
  });
});
afterAll(async () => {
  await stack?.close();
});

const partner = (path: string, method = 'GET') =>
  call(stack.server.url, path, { method, headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET } });

const storedCheckout = async (id: string) => {
  const stored = await memory.get(STORE_KEYS.checkout(id));
  if (stored === null) throw new Error(`checkout ${id} is not stored`);
  return readCheckoutRecord(stored.value);
};

/** Nothing is left due on the checkout, and it is off the watch. */
async function settled(id: string) {
  await eventually(async () => {
    const record = await storedCheckout(id);
    const watched = await memory.queue(QUEUE_NAMES.checkoutWatch).get(id);
    return record.reactionsDue?.length === 0 && watched === null ? true : undefined;
  });
}

const failedReaction = (id: string) =>
  stack.logs.some((line) => line.includes('a reaction to a checkout change failed') && line.includes(id));

describe('a reaction whose store write fails once', () => {
  it('records the seller of the eSIM later, from the store', async () => {
    failNext = 'esim-owner:';
    const id = await checkoutAsTraveller(stack.server.url, 'shop');
    const ready = await eventually(async () => {
      const record = await storedCheckout(id);
      return record.status === 'ready' ? record : undefined;
    });
    const esimId = ready.order?.esimId;
    expect(esimId).toEqual(expect.any(String));
    expect(failNext).toBeNull();
    expect(failedReaction(id)).toBe(true);
    const owner = await eventually(
      async () => (await memory.get(STORE_KEYS.esimOwner(String(esimId))))?.value,
    );
    expect(JSON.parse(owner)).toEqual({ widgetId: 'shop', checkoutId: id });
    await settled(id);
  });

  it('releases the funding hold of a cancelled checkout later, from the store', async () => {
    const held = async () => (await partner('/v1/partner/account?widgetId=shop-pay')).body.data.openCheckouts;
    const id = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    expect(await held()).toBe(1);
    // The watch held while the failed reaction is looked at (it looks ten times a second), then let go.
    await stack.bff.checkoutWatch.close();
    failNext = 'funding-ledger:';
    expect((await partner(`/v1/partner/checkouts/${id}/cancel`, 'POST')).body.data.status).toBe('cancelled');
    expect(failNext).toBeNull();
    expect(failedReaction(id)).toBe(true);
    expect((await storedCheckout(id)).reactionsDue).toEqual(['cancelled']);
    stack.bff.checkoutWatch.start(stack.bff.checkouts, stack.bff.widgets);
    await eventually(async () => ((await held()) === 0 ? true : undefined));
    await settled(id);
  });

  it('are done by the watch for a change written just before its instance died', async () => {
    // As that instance left it: the checkout ready with its reactions due, on the watch, none of them done.
    const fixture = new URL('../store/record-fixtures/checkout.ready-reactions-due.json', import.meta.url);
    const written = JSON.parse(readFileSync(fixture, 'utf8'));
    // An eSIM nobody sold here yet (the sandbox's ids repeat from run to run).
    written.order.esimId = `esim_${randomBytes(8).toString('hex')}`;
    const record = readCheckoutRecord(JSON.stringify(written));
    expect(record.reactionsDue).toEqual(['ready']);
    await memory.insert(STORE_KEYS.checkout(record.id), JSON.stringify(written), 60_000);
    await stack.bff.checkoutWatch.add(record);
    const owner = await eventually(
      async () => (await memory.get(STORE_KEYS.esimOwner(String(record.order?.esimId))))?.value,
    );
    expect(JSON.parse(owner)).toEqual({ widgetId: 'shop', checkoutId: record.id });
    await settled(record.id);
  });
});
