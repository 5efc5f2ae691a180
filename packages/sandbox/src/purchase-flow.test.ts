import {
  AccountResponseSchema,
  DeliveryLinkResponseSchema,
  DeliveryLinkRevocationResponseSchema,
  EsimDetailResponseSchema,
  OrderResponseSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCaller, INSTANT_STEPS } from '../testing/sandbox-harness';
import { type RunningSandbox, startSandbox } from './start-sandbox';
import { isLuhnValid } from './state/esim-profile';

const OFFER = 'off_fr_5gb-30d_1';

describe('purchase flow over a real listener', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ stepDelaysMs: INSTANT_STEPS });
  });
  afterAll(() => sandbox.close());

  it('quotes, orders, issues the eSIM, follows its links, and delivers it through a one-view link', async () => {
    const api = httpCaller(sandbox.url);
    const before = await api.get('/account', AccountResponseSchema);

    const quote = await api.create('/quotes', { offerId: OFFER }, UpstreamQuoteResponseSchema);
    expect(quote.data).toMatchObject({
      kind: 'issue',
      offerId: OFFER,
      environment: 'test',
      targetEsimId: null,
    });
    expect(quote.data.recommendedRetail.amountMinor).toBeGreaterThan(quote.data.price.amountMinor);
    expect(Date.parse(quote.data.expiresAt) - Date.parse(quote.data.createdAt)).toBe(900_000);

    const created = await api.create(
      '/orders',
      {
        quoteId: quote.data.id,
        externalRef: 'chk_flow_1',
        recipient: { email: 'ada@example.com', locale: 'en' },
      },
      OrderResponseSchema,
    );
    expect(created.data).toMatchObject({
      status: 'paid',
      stateRevision: 1,
      esim: null,
      billing: { status: 'reserved', reservedAmount: quote.data.price, capturedAmount: null },
      recipient: { email: 'ada@example.com', locale: 'en' },
      deliveryMode: 'partner',
    });

    const reserved = await api.get('/account', AccountResponseSchema);
    // With zero step delays the order already moved on, so the balance is captured by the time we read it.
    expect(reserved.data.balance.balance.amountMinor).toBe(
      before.data.balance.balance.amountMinor - quote.data.price.amountMinor,
    );

    const read = await api.get(`/orders/${created.data.id}`, OrderResponseSchema);
    expect(read.data).toMatchObject({
      status: 'completed',
      stateRevision: 4,
      billing: { status: 'captured' },
    });
    const esimUrl = read.data.esim?.resourceUrl ?? '';
    expect(esimUrl.startsWith(`${sandbox.url}/esims/`)).toBe(true);

    const esim = await api.get(esimUrl, EsimDetailResponseSchema);
    expect(isLuhnValid(esim.data.iccid)).toBe(true);
    expect(esim.data.iccid).toMatch(/^89\d{17,18}$/);
    const install = esim.data.installation;
    expect(install.lpa).toBe(`LPA:1$${install.smdpAddress}$${install.activationCode}`);
    expect(install.qrPayload).toBe(install.lpa);
    expect(install.ios).toBe(
      `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(install.lpa)}`,
    );
    expect(esim.data.usage).toMatchObject({ totalMb: 5120, usedMb: 0, remainingMb: 5120 });
    expect(esim.data.order.resourceUrl).toBe(`${sandbox.url}/orders/${created.data.id}`);
    expect(esim.data.actionsUrl).toBe(`${esimUrl}/actions`);

    const link = await api.create(
      `/orders/${created.data.id}/delivery-links`,
      {},
      DeliveryLinkResponseSchema,
    );
    expect(link.data).toMatchObject({ maxViews: 1, viewCount: 0, revokedAt: null, orderId: created.data.id });
    expect(Date.parse(link.data.expiresAt) - Date.parse(link.data.createdAt)).toBe(60 * 60_000);
    const page = await fetch(link.data.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(install.activationCode);
    expect((await fetch(link.data.url)).status).toBe(410);

    const second = await api.create(
      `/orders/${created.data.id}/delivery-links`,
      { maxViews: 5, expiresInMinutes: 5 },
      DeliveryLinkResponseSchema,
    );
    const revoked = await api.create(
      `/delivery-links/${second.data.id}/revoke`,
      undefined,
      DeliveryLinkRevocationResponseSchema,
      { status: 200 },
    );
    expect(revoked.data.status).toBe('revoked');
    expect((await fetch(second.data.url)).status).toBe(410);
  });
});
