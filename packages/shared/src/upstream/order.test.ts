/** The create-order request's delivery rule and the order's scope-dependent nulls. */
import { describe, expect, it } from 'vitest';
import { changed, fixture, issuesOf, REMOVE } from '../../testing/test-kit';
import {
  CreateOrderRequestSchema,
  OrderResponseSchema,
  OrderSchema,
  PLATFORM_DELIVERY_NEEDS_EMAIL,
} from './index';

const request = fixture('create-order-request');

describe('CreateOrderRequestSchema: platform delivery needs recipient.email', () => {
  it.each([
    ['without a recipient', changed(request, 'recipient', REMOVE)],
    ['with a recipient without email', changed(request, 'recipient.email', REMOVE)],
    [
      'with only a stored recipientId',
      { ...(changed(request, 'recipient', REMOVE) as object), recipientId: 'rcp_1' },
    ],
  ])('rejects platform delivery %s, at recipient.email', (_label, body) => {
    const result = CreateOrderRequestSchema.safeParse(body);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        path: ['recipient', 'email'],
        message: PLATFORM_DELIVERY_NEEDS_EMAIL,
      }),
    ]);
  });

  it.each([
    ['platform with an email', request],
    [
      'partner without a recipient',
      changed(changed(request, 'deliveryMode', 'partner'), 'recipient', REMOVE),
    ],
    ['no delivery mode and no recipient', { quoteId: 'qt_1', externalRef: 'ref-1' }],
    [
      'partner with a recipient without email',
      changed(changed(request, 'deliveryMode', 'partner'), 'recipient.email', REMOVE),
    ],
  ])('accepts %s', (_label, body) => {
    expect(issuesOf(CreateOrderRequestSchema, body)).toEqual([]);
  });

  it('reports a bad email as a format error, not as a missing one', () => {
    expect(issuesOf(CreateOrderRequestSchema, changed(request, 'recipient.email', 'anna@'))).toEqual([
      { path: 'recipient.email', code: 'invalid_format' },
    ]);
  });

  it('rejects an unknown delivery mode', () => {
    expect(issuesOf(CreateOrderRequestSchema, changed(request, 'deliveryMode', 'email'))).toEqual([
      { path: 'deliveryMode', code: 'invalid_value' },
    ]);
  });
});

describe('OrderSchema', () => {
  const order = fixture('order');

  it('reads an order seen without recipients:read and esims:read: identifiers null', () => {
    const restricted = {
      ...order,
      targetEsimId: null,
      esim: null,
      recipient: { id: null, email: null, reference: null, locale: null },
    };
    expect(issuesOf(OrderSchema, restricted)).toEqual([]);
  });

  it('reads a top-up order with its target eSIM', () => {
    const topUp = { ...order, kind: 'top_up', targetEsimId: 'esm_01JD8Z7D4E5F6G7H8J9K0L1M2N' };
    expect(issuesOf(OrderSchema, topUp)).toEqual([]);
  });

  it('wraps in the single-resource envelope with apiVersion 2.0.0', () => {
    const meta = { requestId: 'req_1', apiVersion: '2.0.0' };
    expect(issuesOf(OrderResponseSchema, { data: order, meta })).toEqual([]);
    expect(issuesOf(OrderResponseSchema, { data: order, meta: { ...meta, requestId: '' } })).toEqual([
      { path: 'meta.requestId', code: 'too_small' },
    ]);
  });
});
