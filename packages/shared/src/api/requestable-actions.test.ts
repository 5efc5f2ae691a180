/**
 * The one rule of which post-sale actions the partner's server can request: availability alone is not enough,
 * `manual_review` through `api` or `assisted` is, a top-up never is.
 */
import { describe, expect, it } from 'vitest';
import { isActionRequestable, requestableActionTypes } from './requestable-actions';

describe('requestable actions', () => {
  it('takes available and manual_review actions reached over the API, directly or assisted', () => {
    expect(isActionRequestable({ type: 'cancellation', availability: 'available', access: 'api' })).toBe(
      true,
    );
    expect(isActionRequestable({ type: 'refund', availability: 'manual_review', access: 'assisted' })).toBe(
      true,
    );
    expect(isActionRequestable({ type: 'reissue', availability: 'manual_review', access: 'api' })).toBe(true);
  });

  it('refuses an action without a channel, one not taken now, and a top-up', () => {
    expect(isActionRequestable({ type: 'cancellation', availability: 'available', access: 'none' })).toBe(
      false,
    );
    expect(isActionRequestable({ type: 'refund', availability: 'unavailable', access: 'none' })).toBe(false);
    expect(isActionRequestable({ type: 'refund', availability: 'unknown', access: 'api' })).toBe(false);
    expect(isActionRequestable({ type: 'top_up', availability: 'available', access: 'api' })).toBe(false);
  });

  it('lists the requestable types in the order given', () => {
    expect(
      requestableActionTypes([
        { type: 'top_up', availability: 'available', access: 'api' },
        { type: 'reissue', availability: 'manual_review', access: 'assisted' },
        { type: 'cancellation', availability: 'available', access: 'none' },
        { type: 'refund', availability: 'available', access: 'api' },
      ]),
    ).toEqual(['reissue', 'refund']);
  });
});
