/** The console's API client: the route's method and address, the CSRF token on writes only, errors and sessions. */
import { API_VERSION } from '@esim-embed/shared';
import { describe, expect, it, vi } from 'vitest';
import { ConsoleApiError } from './console-api-error';
import { ConsoleClient, routeUrl } from './console-client';

const META = { requestId: 'req_1', apiVersion: API_VERSION };

function recordingFetch(answer: () => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer();
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('console client', () => {
  it('builds a route’s address from the contract: path parameters encoded, empty query values left out', () => {
    expect(routeUrl('readSale', { params: { checkoutId: 'chk_a/b' } })).toBe('/console/api/sales/chk_a%2Fb');
    expect(routeUrl('searchSales', { query: { q: 'jane@example.com', status: undefined, cursor: '' } })).toBe(
      '/console/api/sales?q=jane%40example.com',
    );
  });

  it('sends the session’s CSRF token with a write and not with a read', async () => {
    const { calls, fetchImpl } = recordingFetch(() => json(200, { data: { resent: 2 }, meta: META }));
    const client = new ConsoleClient(fetchImpl);
    client.csrfToken = 'csrf-token-of-the-session';
    await client.call('resendFailedWebhookDeliveries', { body: { since: '2026-11-28T00:00:00Z' } });
    await client.call('readWebhooksHealth').catch(() => undefined);
    const [write, read] = calls;
    const headers = (call: typeof write) => (call?.init.headers ?? {}) as Record<string, string>;
    expect(write?.init.method).toBe('POST');
    expect(headers(write)['X-CSRF-Token']).toBe('csrf-token-of-the-session');
    expect(write?.init.body).toBe(JSON.stringify({ since: '2026-11-28T00:00:00Z' }));
    expect(read?.init.method).toBe('GET');
    expect(headers(read)['X-CSRF-Token']).toBeUndefined();
    expect(write?.init.credentials).toBe('same-origin');
  });

  it('answers a list page whole and checks an answer against the route’s schema', async () => {
    const { fetchImpl } = recordingFetch(() => json(200, { data: [], nextCursor: null, meta: META }));
    await expect(new ConsoleClient(fetchImpl).call('listAudit')).resolves.toEqual({
      data: [],
      nextCursor: null,
    });
    const wrong = recordingFetch(() => json(200, { data: { unexpected: true }, meta: META }));
    await expect(new ConsoleClient(wrong.fetchImpl).call('readMoney')).rejects.toThrow();
  });

  it('turns the error envelope into a ConsoleApiError and tells of an ended session', async () => {
    const forbidden = recordingFetch(() =>
      json(403, { error: { code: 'forbidden', params: { reason: 'role', needed: 'support' } }, meta: META }),
    );
    const refusal = await new ConsoleClient(forbidden.fetchImpl)
      .call('requestHelp', { params: { checkoutId: 'chk_12345678' }, body: { reasonCode: 'other' } })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConsoleApiError);
    expect(refusal).toMatchObject({ code: 'forbidden', status: 403, params: { reason: 'role' } });

    const ended = recordingFetch(() =>
      json(401, { error: { code: 'unauthorized', params: { reason: 'session' } }, meta: META }),
    );
    const client = new ConsoleClient(ended.fetchImpl);
    client.onSessionEnded = vi.fn();
    await client.call('readMoney').catch(() => undefined);
    expect(client.onSessionEnded).toHaveBeenCalledOnce();
  });
});
