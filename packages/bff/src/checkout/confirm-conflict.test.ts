/**
 * The partner's confirm and cancel of a checkout that keeps changing under them answer the contract's
 * `idempotency_conflict`: 409, `params.field` naming the `Idempotency-Key` header, reason `in_progress`.
 */
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newKey, openWidget, PARTNER_SECRET, type Stack, startStack } from '../../testing/stack';
import { createMemoryStore } from '../store/memory-store';

/** While set, every compare-and-set of a checkout loses (another instance always wrote first). */
let contended = false;
const inner = createMemoryStore();
const store: typeof inner = {
  ...inner,
  compareAndSet: (key, version, value, ttlMs) =>
    contended && key.startsWith('checkout:')
      ? Promise.resolve(false)
      : inner.compareAndSet(key, version, value, ttlMs),
};

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ store });
});
afterAll(async () => {
  await stack?.close();
});

describe('a checkout that keeps changing under the partner', () => {
  it.each(['confirm', 'cancel'])('%s answers idempotency_conflict naming the header', async (action) => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const destinations = await page.get('/v1/destinations?locale=en');
    const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    const quote = await page.post(
      '/v1/quotes',
      { offerId: plans.body.data[0].offerId },
      { 'Idempotency-Key': newKey() },
    );
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    contended = true;
    try {
      const answer = await call(
        stack.server.url,
        `/v1/partner/checkouts/${checkout.body.data.id}/${action}`,
        {
          method: 'POST',
          headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
          body: {},
        },
      );
      expect(answer.status).toBe(409);
      expect(answer.body.error).toEqual({
        code: 'idempotency_conflict',
        params: { field: 'Idempotency-Key', reason: 'in_progress' },
      });
    } finally {
      contended = false;
    }
  });
});
