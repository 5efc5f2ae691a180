import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { errorFromUpstreamAnswer, safeUpstreamParams } from './upstream-error';

const meta = { requestId: 'req_up_1', apiVersion: '2.0.0' };

describe('safeUpstreamParams', () => {
  it('keeps primitive context and drops anything that may carry a secret or a link', () => {
    expect(
      safeUpstreamParams({
        field: 'Idempotency-Key',
        limit: 5,
        offerIds: ['a', 'b'],
        retryable: false,
        url: 'https://d.example/secret',
        deliveryUrl: 'x',
        apiKey: 'sk_live_x',
        lpa: 'LPA:1$x',
        detail: 'https://somewhere.example/x',
        nested: { token: 'x' },
        mixed: ['a', { b: 1 }],
      }),
    ).toEqual({ field: 'Idempotency-Key', limit: 5, offerIds: ['a', 'b'], retryable: false });
  });
});

describe('errorFromUpstreamAnswer', () => {
  it('passes contract codes through with safe params and the upstream request id', () => {
    const error = errorFromUpstreamAnswer(
      409,
      { error: { code: 'price_changed', params: { offerId: 'off_1', url: 'https://x' } }, meta },
      {},
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'price_changed',
      status: 409,
      params: { offerId: 'off_1' },
      upstreamRequestId: 'req_up_1',
      upstreamStatus: 409,
      upstreamCode: 'price_changed',
    });
  });

  it('hides credential problems as internal 502 and outages as upstream_unavailable', () => {
    for (const code of ['unauthorized', 'forbidden', 'scope_missing'] as const) {
      expect(errorFromUpstreamAnswer(403, { error: { code, params: {} }, meta }, {})).toMatchObject({
        code: 'internal',
        status: 502,
        upstreamCode: code,
      });
    }
    expect(
      errorFromUpstreamAnswer(
        429,
        { error: { code: 'rate_limited', params: {} }, meta },
        { retryAfterSeconds: 30 },
      ),
    ).toMatchObject({ code: 'upstream_unavailable', status: 503, retryAfterSeconds: 30 });
    expect(
      errorFromUpstreamAnswer(502, '<html>bad gateway</html>', { upstreamRequestId: 'hdr_1' }),
    ).toMatchObject({
      code: 'upstream_unavailable',
      upstreamRequestId: 'hdr_1',
    });
    expect(errorFromUpstreamAnswer(404, { message: 'not json envelope' }, {})).toMatchObject({
      code: 'internal',
      status: 502,
    });
  });
});
