import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { errorFromUpstreamAnswer, safeUpstreamParams } from './upstream-error';

const meta = { requestId: 'req_up_1', apiVersion: '2.0.0' };

describe('safeUpstreamParams', () => {
  it('passes only the names allowed for the code, as primitives that are not links', () => {
    expect(
      safeUpstreamParams('idempotency_conflict', {
        field: 'Idempotency-Key',
        reason: 'in_progress',
        url: 'https://d.example/secret',
        apiKey: 'sk_live_x',
        nested: { token: 'x' },
      }),
    ).toEqual({ field: 'Idempotency-Key', reason: 'in_progress' });
    expect(
      safeUpstreamParams('validation_failed', {
        field: 'lpa',
        reason: 'LPA:1$smdp.example$SECRET',
        maxLength: 5,
        detail: 'x',
      }),
    ).toEqual({ field: 'lpa', maxLength: 5 });
    expect(safeUpstreamParams('offer_not_found', { offerId: 'off_1', offerIds: ['a', 'b'] })).toEqual({
      offerId: 'off_1',
    });
  });

  it('passes no amount: a balance, a limit or a price is the partner’s business, as plain numbers too', () => {
    const money = { amountMinor: 1_000, currency: 'USD' };
    expect(
      safeUpstreamParams('insufficient_balance', { required: money, availableBalance: 1_234, limit: 5 }),
    ).toEqual({});
    expect(safeUpstreamParams('order_limit_exceeded', { limit: 500, price: money })).toEqual({});
    expect(safeUpstreamParams('monthly_limit_exceeded', { limit: 500, spent: 499 })).toEqual({});
    // A code without an allowlist, or a parameter the upstream adds one day, passes nothing.
    expect(safeUpstreamParams('recipient_conflict', { recipientId: 'rcp_1' })).toEqual({});
    expect(safeUpstreamParams('price_changed', { offerId: 'off_1', newPrice: 999 })).toEqual({
      offerId: 'off_1',
    });
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

  it('hides credential problems as widget_misconfigured (503) and outages as upstream_unavailable; a 429 stays rate_limited', () => {
    for (const code of ['unauthorized', 'forbidden', 'scope_missing'] as const) {
      expect(errorFromUpstreamAnswer(403, { error: { code, params: {} }, meta }, {})).toMatchObject({
        code: 'widget_misconfigured',
        status: 503,
        params: {},
        upstreamCode: code,
      });
    }
    expect(
      errorFromUpstreamAnswer(
        429,
        { error: { code: 'rate_limited', params: { limitPerMinute: 600 } }, meta },
        { retryAfterSeconds: 30 },
      ),
    ).toMatchObject({ code: 'rate_limited', status: 429, params: {}, retryAfterSeconds: 30 });
    expect(errorFromUpstreamAnswer(429, 'slow down', { retryAfterSeconds: 5 })).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfterSeconds: 5,
    });
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

describe('codes this release does not know, and refusals of the credential', () => {
  it('reads an unknown code as upstream_refused (422) carrying the upstream request id, an outage stays one', () => {
    const refused = errorFromUpstreamAnswer(
      422,
      { error: { code: 'quote_embargoed', params: { region: 'x' } }, meta },
      {},
    );
    expect(refused).toMatchObject({
      code: 'upstream_refused',
      status: 422,
      params: { upstreamRequestId: 'req_up_1' },
      upstreamCode: 'quote_embargoed',
    });
    expect(
      errorFromUpstreamAnswer(503, { error: { code: 'maintenance_window', params: {} }, meta }, {}),
    ).toMatchObject({ code: 'upstream_unavailable', status: 503 });
  });

  it('names what an operator must fix for mTLS, CIDR and scope refusals', () => {
    const problem = (code: string, params: Record<string, unknown> = {}) =>
      errorFromUpstreamAnswer(403, { error: { code, params }, meta }, {}).configurationProblem;
    expect(problem('enterprise_auth_required')).toMatch(/client certificate \(mTLS\).*clientCertificateEnv/);
    expect(problem('forbidden', { reason: 'cidr_not_allowed' })).toMatch(/CIDR allowlist/);
    expect(problem('forbidden')).toMatch(/forbidden/);
    expect(problem('scope_missing')).toMatch(/scope/);
    expect(problem('price_changed')).toBeNull();
  });
});
