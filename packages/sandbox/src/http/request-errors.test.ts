import { API_VERSION, ErrorEnvelopeSchema, ProductPageSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { createHarness, expectError } from '../../testing/sandbox-harness';

describe('bad requests always get the error envelope with a 4xx', () => {
  const { api } = createHarness({ maxBodyBytes: 1024 });

  it('answers malformed JSON with 400 validation_failed', async () => {
    const failure = await api.fail('POST', '/quotes', {
      rawBody: '{"offerId": ',
      headers: { 'Content-Type': 'application/json' },
      idempotencyKey: 'k',
    });
    expectError(failure, 'validation_failed', 400);
    expect(failure.error.params).toEqual({ reason: 'malformed_json', location: 'body', field: '' });
  });

  it('answers another content type with 415', async () => {
    const failure = await api.fail('POST', '/quotes', {
      rawBody: 'offerId=off_fr_5gb-30d_1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      idempotencyKey: 'k',
    });
    expectError(failure, 'validation_failed', 415);
    expect(failure.error.params.reason).toBe('unsupported_media_type');
  });

  it('answers a body over the limit with 413', async () => {
    const failure = await api.fail('POST', '/quotes', {
      body: { offerId: 'x'.repeat(5000) },
      idempotencyKey: 'k',
    });
    expectError(failure, 'validation_failed', 413);
    expect(failure.error.params).toEqual({ reason: 'payload_too_large', maxBytes: 1024 });
  });

  it('names every bad field of a body and of a query', async () => {
    const body = await api.fail('POST', '/orders', {
      body: { externalRef: '', extra: true, recipient: { email: 'not-an-email', locale: 'it' } },
      idempotencyKey: 'k2',
    });
    expectError(body, 'validation_failed', 422);
    const paths = (body.error.params.issues as { field: string }[]).map((issue) => issue.field).sort();
    expect(paths).toEqual(['', 'externalRef', 'quoteId', 'recipient.email', 'recipient.locale']);
    const query = await api.fail('GET', '/catalog/products?limit=501&updatedSince=yesterday');
    expectError(query, 'validation_failed', 422);
    expect(query.error.params).toMatchObject({ location: 'query' });
    expect((query.error.params.issues as { field: string }[]).map((issue) => issue.field).sort()).toEqual([
      'limit',
      'updatedSince',
    ]);
  });

  it('answers an unknown route with a 404 envelope, with or without a key', async () => {
    for (const apiKey of [null, undefined]) {
      const failure = await api.fail('GET', '/no/such/route', { apiKey });
      expect(failure.status).toBe(404);
      expect(failure.error.params).toMatchObject({ reason: 'route_not_found', path: '/no/such/route' });
    }
    const wrongMethod = await api.fail('DELETE', '/catalog/products');
    expect(wrongMethod.status).toBe(404);
  });

  it('gives every response a request id and the contract version', async () => {
    const ok = await api.call('GET', '/catalog/products?limit=1');
    const page = ProductPageSchema.parse(ok.json);
    expect(page.meta.apiVersion).toBe(API_VERSION);
    expect(ok.headers.get('X-Request-Id')).toBe(page.meta.requestId);
    const bad = await api.call('GET', '/orders/nope');
    const envelope = ErrorEnvelopeSchema.parse(bad.json);
    expect(envelope.meta.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(envelope.meta.requestId).not.toBe(page.meta.requestId);
  });
});
