/** Shared types: money, timestamps, the envelopes and the error envelope. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changed, fixture, issuesOf } from '../../testing/test-kit';
import {
  CatalogPageMetaSchema,
  DateTimeSchema,
  ErrorEnvelopeSchema,
  MoneySchema,
  NonNegativeMoneySchema,
  PageMetaSchema,
  pageEnvelope,
  TopUpOfferPageSchema,
} from './index';

describe('money', () => {
  it('Money may be negative, NonNegativeMoney may not', () => {
    expect(issuesOf(MoneySchema, { amountMinor: -100, currency: 'USD' })).toEqual([]);
    expect(issuesOf(NonNegativeMoneySchema, { amountMinor: -1, currency: 'USD' })).toEqual([
      { path: 'amountMinor', code: 'too_small' },
    ]);
    expect(issuesOf(NonNegativeMoneySchema, { amountMinor: 0, currency: 'USD' })).toEqual([]);
  });

  it('takes integer minor units only, not strings or fractions', () => {
    expect(issuesOf(MoneySchema, { amountMinor: '100', currency: 'RUB' })).toEqual([
      { path: 'amountMinor', code: 'invalid_type' },
    ]);
    expect(issuesOf(MoneySchema, { amountMinor: 0.5, currency: 'RUB' })).toEqual([
      { path: 'amountMinor', code: 'invalid_type' },
    ]);
  });
});

describe('DateTimeSchema', () => {
  it.each(['2026-11-22T04:10:00Z', '2026-11-22T04:10:00.5Z', '2026-11-22T07:10:00+03:00'])(
    'accepts %s',
    (value) => {
      expect(DateTimeSchema.safeParse(value).success).toBe(true);
    },
  );

  it.each(['2026-11-22', '2026-11-22 04:10:00Z', '2026-11-22T04:10:00', '22.11.2026', ''])(
    'rejects %s',
    (value) => {
      expect(issuesOf(DateTimeSchema, value)).toEqual([{ path: '', code: 'invalid_format' }]);
    },
  );
});

describe('page envelopes', () => {
  const meta = { requestId: 'req_1', apiVersion: '2.0.0', nextCursor: null, hasMore: false };

  it('a last page has a null cursor and hasMore false; both are required', () => {
    expect(issuesOf(PageMetaSchema, meta)).toEqual([]);
    expect(issuesOf(PageMetaSchema, { ...meta, nextCursor: undefined })).toEqual([
      { path: 'nextCursor', code: 'invalid_type' },
    ]);
    expect(issuesOf(PageMetaSchema, { ...meta, hasMore: 'false' })).toEqual([
      { path: 'hasMore', code: 'invalid_type' },
    ]);
  });

  it('checks every item of the page', () => {
    const page = pageEnvelope(z.strictObject({ id: z.string() }));
    expect(issuesOf(page, { data: [{ id: 'a' }, { id: 1 }], meta })).toEqual([
      { path: 'data.1.id', code: 'invalid_type' },
    ]);
  });

  it('catalog page meta adds the snapshot: catalogVersion, generatedAt, syncMode, updatedSince', () => {
    const catalogMeta = fixture('product-page').meta;
    expect(issuesOf(CatalogPageMetaSchema, catalogMeta)).toEqual([]);
    expect(issuesOf(PageMetaSchema, catalogMeta).map((issue) => issue.code)).toEqual(['unrecognized_keys']);
    expect(
      issuesOf(CatalogPageMetaSchema, { ...(catalogMeta as object), updatedSince: '2026-11-01T00:00:00Z' }),
    ).toEqual([]);
  });

  it('the top-up offer page has its own meta, without a cursor', () => {
    const page = fixture('top-up-offer-page');
    expect(issuesOf(TopUpOfferPageSchema, changed(page, 'meta.hasMore', false))).toEqual([
      { path: 'meta', code: 'unrecognized_keys' },
    ]);
    expect(issuesOf(TopUpOfferPageSchema, changed(page, 'meta.status', 'not_supported'))).toEqual([]);
  });
});

describe('ErrorEnvelopeSchema', () => {
  const envelope = fixture('error-envelope');

  it('allows any structured params, e.g. the idempotency conflict header', () => {
    const conflict = changed(changed(envelope, 'error.code', 'idempotency_conflict'), 'error.params', {
      field: 'Idempotency-Key',
      nested: { ok: true },
    });
    expect(issuesOf(ErrorEnvelopeSchema, conflict)).toEqual([]);
    expect(issuesOf(ErrorEnvelopeSchema, changed(envelope, 'error.params', {}))).toEqual([]);
  });

  it('rejects a message in place of a code, and params that are not an object', () => {
    expect(issuesOf(ErrorEnvelopeSchema, changed(envelope, 'error.message', 'Quote expired'))).toEqual([
      { path: 'error', code: 'unrecognized_keys' },
    ]);
    expect(issuesOf(ErrorEnvelopeSchema, changed(envelope, 'error.params', []))).toEqual([
      { path: 'error.params', code: 'invalid_type' },
    ]);
  });
});
