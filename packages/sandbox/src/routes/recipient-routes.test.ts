import {
  OrderResponseSchema,
  RecipientPageSchema,
  RecipientResponseSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { createHarness, expectError } from '../../testing/sandbox-harness';
import { SANDBOX_KEYS } from '../seed/accounts';

describe('recipients', () => {
  const { api } = createHarness();

  it('creates, reads, lists, patches and links recipients to orders', async () => {
    const created = await api.create(
      '/recipients',
      { externalRef: 'cust_1', name: 'Ada', email: 'ada@example.com', locale: 'de' },
      RecipientResponseSchema,
    );
    expect(created.data).toMatchObject({
      archived: false,
      orderCount: 0,
      lastOrderAt: null,
      environment: 'test',
    });
    expectError(
      await api.fail('POST', '/recipients', { body: { externalRef: 'cust_1' }, idempotencyKey: 'k-dup' }),
      'recipient_conflict',
      409,
    );
    const patched = await api.call('PATCH', `/recipients/${created.data.id}`, {
      body: { name: null, archived: true },
    });
    expect(patched.status).toBe(200);
    expect(RecipientResponseSchema.parse(patched.json).data).toMatchObject({ name: null, archived: true });
    const empty = await api.fail('PATCH', `/recipients/${created.data.id}`, { body: {} });
    expectError(empty, 'validation_failed', 422);

    const quote = await api.create('/quotes', { offerId: 'off_fr_5gb-30d_1' }, UpstreamQuoteResponseSchema);
    const order = await api.create(
      '/orders',
      { quoteId: quote.data.id, externalRef: 'chk_r', recipientId: created.data.id, deliveryMode: 'partner' },
      OrderResponseSchema,
    );
    expect(order.data.recipient).toEqual({
      id: created.data.id,
      email: 'ada@example.com',
      reference: null,
      locale: 'de',
    });
    const read = await api.get(`/recipients/${created.data.id}`, RecipientResponseSchema);
    expect(read.data.orderCount).toBe(1);
    expect(read.data.lastOrderAt).toBe(order.data.createdAt);

    const list = await api.get('/recipients?externalRef=cust_1', RecipientPageSchema);
    expect(list.data.map((recipient) => recipient.id)).toEqual([created.data.id]);
    expect((await api.as(SANDBOX_KEYS.lagoon).get('/recipients', RecipientPageSchema)).data).toEqual([]);
    expectError(await api.fail('GET', '/recipients/rcp_nope'), 'recipient_not_found', 404);
    const q2 = await api.create('/quotes', { offerId: 'off_fr_5gb-30d_1' }, UpstreamQuoteResponseSchema);
    expectError(
      await api.fail('POST', '/orders', {
        body: { quoteId: q2.data.id, externalRef: 'x', recipientId: 'rcp_nope' },
        idempotencyKey: 'k-rnf',
      }),
      'recipient_not_found',
      404,
    );
  });
});
