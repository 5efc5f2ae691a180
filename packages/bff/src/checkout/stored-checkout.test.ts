/**
 * A stored checkout survives a change of the widget API: `PlanSchema` (mocked here with a new required
 * field) is not what reads the store, and a field written by a newer release is kept through an update.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS } from '../store/store';
import { createCheckoutRepository } from './checkout-record';

vi.mock('@esim-embed/shared', async (importOriginal) => {
  const shared = await importOriginal<typeof import('@esim-embed/shared')>();
  // The next release's API: every plan must say how it is billed.
  return { ...shared, PlanSchema: shared.PlanSchema.extend({ billingPeriod: z.enum(['once', 'monthly']) }) };
});

const fixture = (name: string) =>
  readFileSync(new URL(`../store/record-fixtures/${name}`, import.meta.url), 'utf8');

describe('stored checkouts', () => {
  it('read after a required field was added to PlanSchema', async () => {
    const { PlanSchema } = await import('@esim-embed/shared');
    const stored = JSON.parse(fixture('checkout.direct-ready.json'));
    expect(PlanSchema.safeParse(stored.plan).success).toBe(false);
    const store = createMemoryStore();
    await store.insert(STORE_KEYS.checkout(stored.id), JSON.stringify(stored), 60_000);
    const read = await createCheckoutRepository(store).getCheckout(stored.id);
    expect(read?.record.plan.offerId).toBe(stored.plan.offerId);
    expect(read?.record.status).toBe('ready');
  });

  it('keep a field written by a newer release through an update, and stamp the schema version', async () => {
    const stored = {
      ...JSON.parse(fixture('checkout.partner-confirm-awaiting-payment.json')),
      giftWrap: true,
    };
    const store = createMemoryStore();
    await store.insert(STORE_KEYS.checkout(stored.id), JSON.stringify(stored), 60_000);
    const repository = createCheckoutRepository(store);
    const read = await repository.getCheckout(stored.id);
    if (!read) throw new Error('not read');
    await repository.updateCheckout(read, { ...read.record, status: 'cancelled' });
    const written = JSON.parse((await store.get(STORE_KEYS.checkout(stored.id)))?.value ?? '{}');
    expect(written).toMatchObject({ giftWrap: true, status: 'cancelled', schemaVersion: 1 });
  });
});
