/**
 * The one API client: a start without a session, the session opened at the first call that needs it, headers,
 * retries that are safe, one session renewal, aborts, and schema checks.
 */

import { MANAGE_TOKEN_HEADER } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { destinations, esimView, FakeBff, plans, topUpOffer } from '../../testing/fake-bff';
import { passTimeUntilSettled, runOnTestClock } from '../../testing/test-clock';
import { ApiClient } from './api-client';
import { WidgetApiError } from './api-error';

function client(bff: FakeBff, delays: number[] = [1, 1, 1]) {
  return new ApiClient({
    apiBase: 'https://bff.test/',
    widgetId: 'acme',
    fetch: bff.fetch,
    networkRetryDelays: delays,
  });
}

describe('ApiClient', () => {
  it('starts without a session; the first call that needs one opens it, once, and sends its token', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    const [started] = await Promise.all([api.start(), api.destinations('en'), api.plans('TR', 'de')]);
    expect(started).toEqual({ widget: bff.config, catalog: { path: '/v1/catalog/acme/7-0123456789abcdef' } });
    expect(bff.requestsTo('GET', /^\/v1\/widgets\/acme\/start$/)).toHaveLength(1);
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(0);
    await Promise.all([api.createQuote('off_small', 'en', 'k1'), api.createQuote('off_big', 'en', 'k2')]);
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(1);
    for (const request of bff.requestsTo('POST', /^\/v1\/quotes$/)) {
      expect(request.headers.authorization).toBe('Bearer token-1');
    }
  });

  it('hands a destinations read started ahead to the next caller: one request, sent before it was asked for', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    api.prefetchDestinations('de');
    await api.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const reads = () => bff.requestsTo('GET', /\/de\/destinations$/);
    expect(reads()).toHaveLength(1);
    expect(await api.destinations('de')).toEqual(destinations);
    expect(reads()).toHaveLength(1);
    // Taken once: a later read is a new one.
    await api.destinations('de');
    expect(reads()).toHaveLength(2);
  });

  it('hands a plans read started ahead to the next caller of the same destination and language', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    api.prefetchPlans('TR', 'de');
    await api.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const reads = () => bff.requestsTo('GET', /\/de\/plans\/TR$/);
    expect(reads()).toHaveLength(1);
    expect((await api.plans('TR', 'de')).plans).toEqual(plans);
    expect(reads()).toHaveLength(1);
    // Another language is another read; taken once, a later read is a new one.
    await api.plans('TR', 'en');
    await api.plans('TR', 'de');
    expect(reads()).toHaveLength(2);
  });

  it('asks for the start again after it failed', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    bff.failNext('GET', /\/start$/, 'upstream_unavailable', 503);
    await expect(api.start()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    await expect(api.start()).resolves.toMatchObject({ widget: { widgetId: 'acme' } });
    expect(bff.requestsTo('GET', /\/start$/)).toHaveLength(2);
  });

  it('reads the catalog from the public address the start names, without a token, and follows it when it moved', async () => {
    const bff = new FakeBff({ publicCatalogVersion: '7-0123456789abcdef' });
    const api = client(bff);
    expect(await api.destinations('de')).toEqual(destinations);
    expect((await api.plans('TR', 'de')).plans).toEqual(plans);
    const open = bff.requests.filter((request) => request.path.startsWith('/v1/catalog/'));
    expect(open.map((request) => request.path)).toEqual([
      '/v1/catalog/acme/7-0123456789abcdef/de/destinations',
      '/v1/catalog/acme/7-0123456789abcdef/de/plans/TR',
    ]);
    // Nothing of the traveller's goes to an address any cache may keep.
    for (const request of open) expect(request.headers.authorization).toBeUndefined();
    // A catalog refresh replaced the version: the read goes to the one the refusal names, and so do later ones.
    bff.publicCatalogVersion = '8-fedcba9876543210';
    expect(await api.destinations('en')).toEqual(destinations);
    await api.plans('TR', 'en');
    expect(bff.requests.slice(-3).map((request) => request.path)).toEqual([
      '/v1/catalog/acme/7-0123456789abcdef/en/destinations',
      '/v1/catalog/acme/8-fedcba9876543210/en/destinations',
      '/v1/catalog/acme/8-fedcba9876543210/en/plans/TR',
    ]);
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(0);
  });

  it('renews an invalid session once, then gives up with the error', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    await api.session();
    bff.failNext('POST', /^\/v1\/quotes$/, 'widget_session_invalid', 401);
    bff.failNext('POST', /^\/v1\/quotes$/, 'widget_session_invalid', 401);
    const failure = await api.createQuote('off_small', 'en', 'k').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WidgetApiError);
    expect((failure as WidgetApiError).code).toBe('widget_session_invalid');
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(2);
  });

  it('repeats a create after a network failure with the same idempotency key', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    bff.failNext('POST', /^\/v1\/quotes$/, 'network');
    const quote = await api.createQuote('off_small', 'en', 'quote-key-1');
    expect(quote.offerId).toBe('off_small');
    const sent = bff.requestsTo('POST', /^\/v1\/quotes$/);
    expect(sent.map((request) => request.headers['idempotency-key'])).toEqual(['quote-key-1', 'quote-key-1']);
    expect(sent[0]?.body).toEqual({ offerId: 'off_small', locale: 'en' });
  });

  it('reports network_error when the network stays down', async () => {
    const bff = new FakeBff();
    const api = client(bff, [1, 1]);
    for (let i = 0; i < 3; i++) bff.failNext('POST', /^\/v1\/sessions$/, 'network');
    await expect(api.session()).rejects.toMatchObject({ code: 'network_error' });
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(3);
    // The failed session is forgotten: the next call opens a new one.
    await expect(api.session()).resolves.toMatchObject({ token: 'token-1' });
  });

  it('turns an error envelope into a WidgetApiError with code, params and request id', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    bff.failNext('POST', /^\/v1\/quotes$/, 'price_changed', 409, { offerId: 'off_small' });
    await expect(api.createQuote('off_small', 'en', 'k')).rejects.toMatchObject({
      code: 'price_changed',
      params: { offerId: 'off_small' },
      requestId: 'req_test',
    });
  });

  it('rejects an answer that does not match the shared schema (development and tests)', async () => {
    const api = new ApiClient({
      apiBase: 'https://bff.test',
      widgetId: 'acme',
      fetch: async () =>
        new Response(
          JSON.stringify({ data: { token: 'x' }, meta: { requestId: 'r', apiVersion: '2.0.0' } }),
          {
            status: 201,
          },
        ),
    });
    await expect(api.session()).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('rejects an error answer that is not the error envelope', async () => {
    const api = new ApiClient({
      apiBase: 'https://bff.test',
      widgetId: 'acme',
      fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    await expect(api.session()).rejects.toMatchObject({ code: 'invalid_response', params: { status: 502 } });
  });

  it('aborts what is in flight on close(), including a wait between retries', async () => {
    const bff = new FakeBff();
    bff.hanging.push(/\/destinations$/);
    const api = client(bff, [60_000]);
    const pending = api.destinations('en');
    await new Promise((resolve) => setTimeout(resolve, 20));
    api.close();
    await expect(pending).rejects.toBeDefined();
    expect(bff.requestsTo('GET', /\/destinations$/)[0]?.signal?.aborted).toBe(true);

    const bffDown = new FakeBff();
    bffDown.failNext('POST', /^\/v1\/sessions$/, 'network');
    const retrying = client(bffDown, [60_000]);
    const session = retrying.session();
    await new Promise((resolve) => setTimeout(resolve, 20));
    retrying.close();
    // Without the abort this would wait a minute before its retry.
    await expect(session).rejects.toBeDefined();
  });

  it('sends the client secret on checkout reads and never caches them', async () => {
    const bff = new FakeBff();
    const api = client(bff);
    const quote = await api.createQuote('off_small', 'en', 'k1');
    const created = await api.createCheckout(
      { quoteId: quote.id, locale: 'en', termsAccepted: true },
      `checkout-${quote.id}`,
    );
    await api.checkout(created.id, created.clientSecret);
    const read = bff.requestsTo('GET', /^\/v1\/checkouts\//)[0];
    expect(read?.headers['x-checkout-secret']).toBe(created.clientSecret);
    expect(read?.cache).toBe('no-store');
    await expect(api.checkout(created.id, 'wrong-secret-0123456789')).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  describe('"not yet" answers', () => {
    // The pauses between repeats pass on the test clock, at once; the gaps are measured on it.
    runOnTestClock();
    const inProgress = { field: 'Idempotency-Key', reason: 'in_progress' };
    const budgeted = (bff: FakeBff, notYetBudgetMs: number) =>
      new ApiClient({ apiBase: 'https://bff.test', widgetId: 'acme', fetch: bff.fetch, notYetBudgetMs });

    it('repeats a create still running elsewhere with the same key, after its Retry-After', async () => {
      const bff = new FakeBff();
      const api = client(bff);
      const quote = await api.createQuote('off_small', 'en', 'k1');
      bff.failNext('POST', /^\/v1\/checkouts$/, 'idempotency_conflict', 409, inProgress, 1);
      const started = Date.now();
      const created = await passTimeUntilSettled(
        api.createCheckout({ quoteId: quote.id, locale: 'en', termsAccepted: true }, `checkout-${quote.id}`),
        5000,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(created.id).toBe(`chk_${quote.id}`);
      const sent = bff.requestsTo('POST', /^\/v1\/checkouts$/);
      expect(sent.map((request) => request.headers['idempotency-key'])).toEqual([
        `checkout-${quote.id}`,
        `checkout-${quote.id}`,
      ]);
      expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    });

    it('repeats reads and creates while the BFF’s store is down, within its budget, then gives up', async () => {
      const bff = new FakeBff();
      bff.failNext('GET', /\/destinations$/, 'store_unavailable', 503, {}, 0);
      expect(await passTimeUntilSettled(client(bff).destinations('en'), 5000)).toHaveLength(3);
      expect(bff.requestsTo('GET', /\/destinations$/)).toHaveLength(2);

      const down = new FakeBff();
      for (let i = 0; i < 10; i++) down.failNext('GET', /\/destinations$/, 'store_unavailable', 503, {}, 0);
      const started = Date.now();
      const failure = await passTimeUntilSettled(
        budgeted(down, 600)
          .destinations('en')
          .catch((error: unknown) => error),
        5000,
      );
      expect(failure).toMatchObject({ code: 'store_unavailable' });
      // 250 ms apart at least (a Retry-After of 0 is not a busy loop), and not past the budget.
      const sent = down.requestsTo('GET', /\/destinations$/);
      expect(sent).toHaveLength(3);
      const gaps = sent.slice(1).map((request, index) => request.at - (sent[index]?.at ?? 0));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(250);
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it('does not wait past its budget for a long Retry-After', async () => {
      const bff = new FakeBff();
      const api = budgeted(bff, 2000);
      bff.failNext('POST', /^\/v1\/quotes$/, 'idempotency_conflict', 409, inProgress, 30);
      const started = Date.now();
      await expect(api.createQuote('off_small', 'en', 'k')).rejects.toMatchObject({
        code: 'idempotency_conflict',
        params: inProgress,
      });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(bff.requestsTo('POST', /^\/v1\/quotes$/)).toHaveLength(1);
    });

    it('never repeats a key used for another request (422 different_request)', async () => {
      const bff = new FakeBff();
      bff.failNext('POST', /^\/v1\/quotes$/, 'idempotency_conflict', 422, {
        field: 'Idempotency-Key',
        reason: 'different_request',
      });
      await expect(client(bff).createQuote('off_small', 'en', 'k')).rejects.toMatchObject({
        code: 'idempotency_conflict',
      });
      expect(bff.requestsTo('POST', /^\/v1\/quotes$/)).toHaveLength(1);
    });

    it('stops waiting on close()', async () => {
      const bff = new FakeBff();
      const api = client(bff);
      bff.failNext('POST', /^\/v1\/quotes$/, 'idempotency_conflict', 409, inProgress, 20);
      const pending = api.createQuote('off_small', 'en', 'k');
      await new Promise((resolve) => setTimeout(resolve, 50));
      api.close();
      await expect(pending).rejects.toBeDefined();
      expect(bff.requestsTo('POST', /^\/v1\/quotes$/)).toHaveLength(1);
    });
  });

  it('cancels a checkout with its client secret, uncached', async () => {
    const bff = new FakeBff({ config: { checkoutMode: 'partner_confirm' } });
    const api = client(bff);
    const quote = await api.createQuote('off_small', 'en', 'k1');
    const created = await api.createCheckout(
      { quoteId: quote.id, locale: 'en', termsAccepted: true },
      `checkout-${quote.id}`,
    );
    expect((await api.cancelCheckout(created.id, created.clientSecret)).status).toBe('cancelled');
    const [request] = bff.requestsTo('POST', /\/cancel$/);
    expect(request?.path).toBe(`/v1/checkouts/${created.id}/cancel`);
    expect(request?.headers['x-checkout-secret']).toBe(created.clientSecret);
    expect(request?.cache).toBe('no-store');
  });

  describe('after the sale', () => {
    it('sends the manage token in its header (never in the URL), uncached, on my-eSIM reads', async () => {
      const bff = new FakeBff();
      bff.addEsim('mt_0123456789abcdef', esimView({ installed: false }));
      const api = client(bff);
      expect((await api.myEsim('mt_0123456789abcdef', 'fr')).esimId).toBe('esim_1');
      expect((await api.myEsimInstallation('mt_0123456789abcdef')).activationCode).toBe('ACT-CODE-123');
      const reads = bff.requests.filter((request) => request.path.startsWith('/v1/my-esim'));
      expect(reads.map((request) => request.path)).toEqual([
        '/v1/my-esim?locale=fr',
        '/v1/my-esim/installation',
      ]);
      for (const request of reads) {
        expect(request.headers[MANAGE_TOKEN_HEADER.toLowerCase()]).toBe('mt_0123456789abcdef');
        expect(request.path).not.toContain('mt_');
        expect(request.cache).toBe('no-store');
      }
    });

    it('quotes and checks out a top-up with the eSIM id and the manage token; a new eSIM without them', async () => {
      const bff = new FakeBff();
      bff.addEsim('mt_0123456789abcdef');
      const api = client(bff);
      const topUp = { esimId: 'esim_1', manageToken: 'mt_0123456789abcdef' };
      const quote = await api.createQuote(topUpOffer.offerId, 'en', 'quote-key-1', topUp);
      expect(quote).toMatchObject({ kind: 'top_up', esimId: 'esim_1' });
      const created = await api.createCheckout(
        { quoteId: quote.id, locale: 'en', termsAccepted: true },
        `checkout-${quote.id}`,
        topUp.manageToken,
      );
      expect(created).toMatchObject({ kind: 'top_up', esimId: 'esim_1' });
      await api.createQuote('off_small', 'en', 'quote-key-2');
      const [topUpQuote, plainQuote] = bff.requestsTo('POST', /^\/v1\/quotes$/);
      expect(topUpQuote?.body).toEqual({ offerId: topUpOffer.offerId, locale: 'en', esimId: 'esim_1' });
      expect(topUpQuote?.headers['x-manage-token']).toBe('mt_0123456789abcdef');
      expect(plainQuote?.body).toEqual({ offerId: 'off_small', locale: 'en' });
      expect(plainQuote?.headers['x-manage-token']).toBeUndefined();
    });

    it('asks for a manage link with the client secret and a key per checkout', async () => {
      const bff = new FakeBff({ journey: ['ready'] });
      const api = client(bff);
      const quote = await api.createQuote('off_small', 'en', 'quote-key');
      const created = await api.createCheckout(
        { quoteId: quote.id, locale: 'en', termsAccepted: true },
        `checkout-${quote.id}`,
      );
      await api.checkout(created.id, created.clientSecret);
      const link = await api.createManageLink(created.id, created.clientSecret);
      expect(link).toMatchObject({ esimId: 'esim_1', widgetId: 'acme' });
      const [request] = bff.requestsTo('POST', /\/manage-link$/);
      expect(request?.headers['x-checkout-secret']).toBe(created.clientSecret);
      expect(request?.headers['idempotency-key']).toBe(`manage-${created.id}`);
    });
  });
});
