import {
  OrderPageSchema,
  OrderResponseSchema,
  RecipientResponseSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectError, httpCaller, INSTANT_STEPS } from '../../testing/sandbox-harness';
import { SANDBOX_KEYS } from '../seed/accounts';
import { type RunningSandbox, startSandbox } from '../start-sandbox';

const OFFER = 'off_fr_5gb-30d_1';

describe('Idempotency-Key', () => {
  const h = createHarness({ faultInjection: true });
  const { api } = h;
  beforeEach(async () => {
    await h.control.reset();
  });

  it('replays the first status and body of an identical request, without a second resource', async () => {
    const quote = await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    const body = { quoteId: quote.data.id, externalRef: 'chk_replay' };
    const first = await api.call('POST', '/orders', { body, idempotencyKey: 'order-1' });
    // Same request with keys in another order: still identical.
    const again = await api.call('POST', '/orders', {
      body: { externalRef: 'chk_replay', quoteId: quote.data.id },
      idempotencyKey: 'order-1',
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    OrderResponseSchema.parse(again.json);
    const orders = await api.get('/orders?externalRef=chk_replay', OrderPageSchema);
    expect(orders.data).toHaveLength(1);
  });

  it('answers idempotency_conflict 422 for the same key with another body', async () => {
    await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema, { idempotencyKey: 'q-1' });
    const failure = await api.fail('POST', '/quotes', {
      body: { offerId: 'off_de_1gb-7d_1' },
      idempotencyKey: 'q-1',
    });
    expectError(failure, 'idempotency_conflict', 422);
    expect(failure.error.params.field).toBe('Idempotency-Key');
    // Another path with the same key is another request too.
    const elsewhere = await api.fail('POST', '/recipients', {
      body: { externalRef: 'r' },
      idempotencyKey: 'q-1',
    });
    expectError(elsewhere, 'idempotency_conflict', 422);
  });

  it('answers idempotency_conflict 409 while the first request with the key is still running', async () => {
    await h.control.setFaults([
      { kind: 'latency', method: 'POST', path: '/recipients', latencyMs: 150, times: 1 },
    ]);
    const body = { externalRef: 'rcp_slow' };
    const slow = api.call('POST', '/recipients', { body, idempotencyKey: 'slow-1' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const racing = await api.fail('POST', '/recipients', { body, idempotencyKey: 'slow-1' });
    expectError(racing, 'idempotency_conflict', 409);
    expect(racing.error.params).toMatchObject({ field: 'Idempotency-Key', reason: 'request_in_progress' });
    expect(racing.headers.get('Retry-After')).toBe('1');
    expect((await slow).status).toBe(201);
    const replay = await api.create('/recipients', body, RecipientResponseSchema, {
      idempotencyKey: 'slow-1',
    });
    expect(replay.data.externalRef).toBe('rcp_slow');
  });

  it('never creates two resources from concurrent requests with one key', async () => {
    const quote = await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    const body = { quoteId: quote.data.id, externalRef: 'chk_concurrent' };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.call('POST', '/orders', { body, idempotencyKey: 'same' })),
    );
    const created = results.filter((result) => result.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const result of results) expect([201, 409]).toContain(result.status);
    const ids = new Set(created.map((result) => OrderResponseSchema.parse(result.json).data.id));
    expect(ids.size).toBe(1);
    expect((await api.get('/orders?externalRef=chk_concurrent', OrderPageSchema)).data).toHaveLength(1);
  });

  it('scopes keys per API key, requires the header, forgets failures and expires after 24 hours', async () => {
    const a = await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema, {
      idempotencyKey: 'shared',
    });
    const b = await api
      .as(SANDBOX_KEYS.lagoon)
      .create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema, { idempotencyKey: 'shared' });
    expect(b.data.id).not.toBe(a.data.id);

    const missing = await api.fail('POST', '/quotes', { body: { offerId: OFFER } });
    expectError(missing, 'validation_failed', 422);
    expect(missing.error.params).toMatchObject({ location: 'header', field: 'Idempotency-Key' });

    // A failed create does not hold its key: the retry runs again.
    expectError(
      await api.fail('POST', '/quotes', { body: { offerId: 'off_missing' }, idempotencyKey: 'retry-me' }),
      'offer_not_found',
      404,
    );
    const again = await api.fail('POST', '/quotes', {
      body: { offerId: 'off_missing' },
      idempotencyKey: 'retry-me',
    });
    expectError(again, 'offer_not_found', 404);

    h.clock.advance(24 * 60 * 60 * 1000);
    const fresh = await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema, {
      idempotencyKey: 'shared',
    });
    expect(fresh.data.id).not.toBe(a.data.id);
  });
});

describe('Idempotency-Key over a real listener', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ stepDelaysMs: INSTANT_STEPS, faultInjection: true });
  });
  afterAll(() => sandbox.close());

  it('keeps the order an answer was lost for: the retry replays it (commit then drop)', async () => {
    const api = httpCaller(sandbox.url);
    const quote = await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    await sandbox.control.setFaults([
      { kind: 'drop_after_commit', method: 'POST', path: '/orders', times: 1 },
    ]);
    const body = { quoteId: quote.data.id, externalRef: 'chk_dropped' };
    await expect(api.call('POST', '/orders', { body, idempotencyKey: 'drop-1' })).rejects.toThrow();
    const listed = await api.get('/orders?externalRef=chk_dropped', OrderPageSchema);
    expect(listed.data).toHaveLength(1);
    const retried = await api.create('/orders', body, OrderResponseSchema, { idempotencyKey: 'drop-1' });
    expect(retried.data.id).toBe(listed.data[0]?.id);
  });
});
