/** Delivery link create defaults and revocation. */
import { describe, expect, it } from 'vitest';
import { fixture, issuesOf } from '../../testing/test-kit';
import { DeliveryLinkCreateRequestSchema, DeliveryLinkRevocationSchema } from './index';

describe('DeliveryLinkCreateRequestSchema', () => {
  it('fills maxViews 1 and expiresInMinutes 60 when left out', () => {
    expect(DeliveryLinkCreateRequestSchema.parse({})).toEqual({ maxViews: 1, expiresInMinutes: 60 });
  });

  it('keeps given values', () => {
    expect(DeliveryLinkCreateRequestSchema.parse({ maxViews: 5 })).toEqual({
      maxViews: 5,
      expiresInMinutes: 60,
    });
    expect(DeliveryLinkCreateRequestSchema.parse(fixture('delivery-link-create-request'))).toEqual({
      maxViews: 2,
      expiresInMinutes: 120,
    });
  });

  it('does not accept null for a defaulted field', () => {
    expect(issuesOf(DeliveryLinkCreateRequestSchema, { maxViews: null })).toEqual([
      { path: 'maxViews', code: 'invalid_type' },
    ]);
  });
});

describe('DeliveryLinkRevocationSchema', () => {
  it('needs status revoked and a revokedAt', () => {
    const revocation = fixture('delivery-link-revocation');
    expect(issuesOf(DeliveryLinkRevocationSchema, { ...revocation, status: 'active' })).toEqual([
      { path: 'status', code: 'invalid_value' },
    ]);
    expect(issuesOf(DeliveryLinkRevocationSchema, { ...revocation, revokedAt: null })).toEqual([
      { path: 'revokedAt', code: 'invalid_type' },
    ]);
  });
});
