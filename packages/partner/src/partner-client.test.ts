/**
 * The partner client against the real BFF and sandbox over HTTP: it reads and confirms a `partner_confirm`
 * checkout (one order however often it confirms), reads the account, follows the eSIM after the sale (manage and
 * delivery links under one idempotency key), and throws the envelope's code, status and request id as a
 * `PartnerApiError`. Its routes are the partner routes of the API's one description, and `call` reaches any of them by id.
 */
import {
  checkoutAsTraveller,
  eventually,
  PARTNER_SECRET,
  ROUTES,
  type RouteSpec,
  type Stack,
  startStack,
  testConfig,
} from '@esim-embed/bff/testing';
import { SANDBOX_ACCOUNTS } from '@esim-embed/sandbox';
import { type PartnerCheckout, SALE_CSV_COLUMNS } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentDeclinedError } from './checkout-payment';
import { PartnerApiError } from './partner-api-error';
import { createPartnerClient, type PartnerClient } from './partner-client';
import { PARTNER_ROUTES } from './partner-routes';

let stack: Stack;
let esim: PartnerClient;
beforeAll(async () => {
  // The account is read afresh on every check: a test moves the balance under an open checkout.
  stack = await startStack({ config: (url) => testConfig(url, { accountCacheMs: 0 }) });
  esim = createPartnerClient({ baseUrl: stack.server.url, partnerSecret: PARTNER_SECRET });
});
afterAll(async () => {
  await stack?.close();
});

describe('the partner client', () => {
  it('calls every /v1/partner/* route of the API description, and only those', () => {
    const described = (ROUTES as readonly RouteSpec[])
      .filter((route) => route.path.startsWith('/v1/partner/'))
      .map((route) => route.id);
    expect(Object.keys(PARTNER_ROUTES).sort()).toEqual(described.sort());
    for (const route of Object.values(PARTNER_ROUTES)) expect(route.auth).toBe('partner');
  });

  it('reaches a route by its id with call(), as the grouped methods do', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const called = await esim.call('readPartnerCheckout', { params: { id: checkoutId } });
    expect(called).toEqual(await esim.checkouts.read(checkoutId));
    expect(called.status).toBe('awaiting_payment');
    const missing = await esim
      .call('readPartnerCheckout', { params: { id: 'chk_0000000000000000' } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(PartnerApiError);
    expect((missing as PartnerApiError).code).toBe('checkout_not_found');
  });

  it('confirms a partner_confirm checkout: the amount to charge, then one order for a repeated confirm', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const awaiting = await esim.checkouts.read(checkoutId);
    expect(awaiting).toMatchObject({ id: checkoutId, status: 'awaiting_payment', mode: 'partner_confirm' });
    expect(awaiting.amount.amountMinor).toBeGreaterThan(0);

    const first = await esim.checkouts.confirm(checkoutId, { paymentReference: 'pay_sdk_1' });
    const again = await esim.checkouts.confirm(checkoutId, { paymentReference: 'pay_sdk_1' });
    expect(['placing', 'provisioning', 'ready']).toContain(first.status);
    expect(first.order?.id).toBeDefined();
    expect(again.order?.id).toBe(first.order?.id);
    expect(first.paymentReference).toBe('pay_sdk_1');

    const ready = await eventually(async () => {
      const read = await esim.checkouts.read(checkoutId);
      return read.status === 'ready' ? read : undefined;
    });
    const installation = await esim.checkouts.installation(checkoutId);
    expect(installation).toMatchObject({ checkoutId, lpa: expect.stringMatching(/^LPA:1\$/) });
    expect(ready.esimId).toEqual(expect.any(String));
  });

  it("pays: charges the BFF's amount once under the checkout id, confirms, and charges nothing after", async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const charges: { amountMinor: number; key: string }[] = [];
    const payment = {
      charge: async (checkout: PartnerCheckout, key: string) => {
        charges.push({ amountMinor: checkout.amount.amountMinor, key });
        return `pay_${key}`;
      },
      refund: async () => {
        throw new Error('nothing to refund');
      },
    };
    const paid = await esim.checkouts.pay(checkoutId, payment);
    expect(paid).toMatchObject({ outcome: 'confirmed', paymentReference: `pay_${checkoutId}` });
    expect(['placing', 'provisioning', 'ready']).toContain(paid.checkout.status);
    const again = await esim.checkouts.pay(checkoutId, payment);
    expect(again).toMatchObject({ outcome: 'already_paid', paymentReference: `pay_${checkoutId}` });
    const { amount } = await esim.checkouts.read(checkoutId);
    expect(charges).toEqual([{ amountMinor: amount.amountMinor, key: checkoutId }]);
  });

  it('pays: refunds at once when the checkout ended while the charge ran, charges nothing when it is over', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const refunds: string[] = [];
    const payment = {
      // The traveller gives up in the widget while the bank answers: the checkout is cancelled under the charge.
      charge: async (checkout: PartnerCheckout) => {
        await esim.checkouts.cancel(checkout.id);
        return 'pay_late';
      },
      refund: async (checkout: PartnerCheckout, reference: string) => {
        refunds.push(`${checkout.id}:${reference}`);
      },
    };
    const late = await esim.checkouts.pay(checkoutId, payment);
    expect(late).toMatchObject({ outcome: 'refunded', paymentReference: 'pay_late' });
    expect(late.checkout.status).toBe('cancelled');
    expect(refunds).toEqual([`${checkoutId}:pay_late`]);
    const over = await esim.checkouts.pay(checkoutId, payment);
    expect(over).toMatchObject({ outcome: 'not_payable', paymentReference: null });
    expect(refunds).toHaveLength(1);
  });

  it('pays after a decline under the next attempt key: the decline is reported and the checkout awaits another card', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const keys: string[] = [];
    const declining = {
      charge: async (_checkout: PartnerCheckout, key: string): Promise<string> => {
        keys.push(key);
        throw new PaymentDeclinedError('insufficient_funds');
      },
      refund: () => undefined,
    };
    const declined = await esim.checkouts.pay(checkoutId, declining);
    expect(declined).toMatchObject({ outcome: 'declined', attempt: 1, paymentReference: null });
    expect(declined.checkout).toMatchObject({ status: 'awaiting_payment', declinedAttempts: 1 });
    // The partner's own decline errors count too, through isDeclined.
    const cardRefused = Object.assign(new Error('card_declined'), { type: 'card_error' });
    const again = await esim.checkouts.pay(checkoutId, {
      charge: (_checkout, key) => {
        keys.push(key);
        throw cardRefused;
      },
      refund: () => undefined,
      isDeclined: (error) => error === cardRefused,
    });
    expect(again).toMatchObject({ outcome: 'declined', attempt: 2, error: cardRefused });
    expect((await esim.checkouts.read(checkoutId)).declinedAttempts).toBe(2);

    const paid = await esim.checkouts.pay(checkoutId, {
      charge: (_checkout, key) => {
        keys.push(key);
        return `pay_${key}`;
      },
      refund: () => undefined,
    });
    expect(paid).toMatchObject({ outcome: 'confirmed', paymentReference: `pay_${checkoutId}:attempt-3` });
    expect(keys).toEqual([checkoutId, `${checkoutId}:attempt-2`, `${checkoutId}:attempt-3`]);
  });

  it('pays: a second charge under another attempt key, confirmed after the first, is refunded, not kept', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const refunded: string[] = [];
    let secondCharging!: () => void;
    const secondInCharge = new Promise<void>((resolve) => {
      secondCharging = resolve;
    });
    let firstDone!: () => void;
    const firstSettled = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    const payment = (reference: string, before: () => Promise<void>) => ({
      charge: async () => {
        await before();
        return reference;
      },
      refund: (_checkout: PartnerCheckout, paymentReference: string) => {
        refunded.push(paymentReference);
      },
    });
    // Two pays of one checkout under different attempts (a page that sent the attempt twice): both charge.
    const first = esim.checkouts
      .pay(
        checkoutId,
        payment('pay_first', () => secondInCharge),
        { attempt: 1 },
      )
      .finally(firstDone);
    const second = esim.checkouts.pay(
      checkoutId,
      payment('pay_second', async () => {
        secondCharging();
        await firstSettled;
      }),
      { attempt: 2 },
    );
    expect(await first).toMatchObject({ outcome: 'confirmed', paymentReference: 'pay_first' });
    expect(await second).toMatchObject({ outcome: 'refunded', paymentReference: 'pay_second' });
    expect(refunded).toEqual(['pay_second']);
    expect((await esim.checkouts.read(checkoutId)).paymentReference).toBe('pay_first');
  });

  it('pays: a charge that fails without a decline is thrown, nothing reported, and retried under its key', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const keys: string[] = [];
    const timeout = new Error('provider timed out');
    const failed = await esim.checkouts
      .pay(checkoutId, {
        charge: (_checkout, key) => {
          keys.push(key);
          throw timeout;
        },
        refund: () => undefined,
      })
      .catch((error: unknown) => error);
    expect(failed).toBe(timeout);
    expect(await esim.checkouts.read(checkoutId)).toMatchObject({
      status: 'awaiting_payment',
      declinedAttempts: 0,
    });
    // An explicit attempt is charged under its own key.
    const paid = await esim.checkouts.pay(
      checkoutId,
      {
        charge: (_checkout, key) => {
          keys.push(key);
          return 'pay_explicit';
        },
        refund: () => undefined,
      },
      { attempt: 2 },
    );
    expect(paid.outcome).toBe('confirmed');
    expect(keys).toEqual([checkoutId, `${checkoutId}:attempt-2`]);
  });

  it('pays: charges nothing when the account can no longer fund the order, and tells why', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const { availableBalance } = await esim.account.read({ widgetId: 'shop-pay' });
    const charges: string[] = [];
    const payment = {
      charge: async (_checkout: PartnerCheckout, key: string) => {
        charges.push(key);
        return `pay_${key}`;
      },
      refund: async () => {
        throw new Error('nothing to refund');
      },
    };
    // The balance went to other sales since the checkout was made (its unpaid hold did not keep it).
    await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, { balanceMinor: 0 });
    try {
      const unfunded = await esim.checkouts.pay(checkoutId, payment);
      expect(unfunded).toMatchObject({
        outcome: 'unfunded',
        code: 'insufficient_balance',
        paymentReference: null,
      });
      expect(unfunded.checkout.status).toBe('awaiting_payment');
      expect(charges).toEqual([]);
    } finally {
      await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, {
        balanceMinor: availableBalance.amountMinor,
      });
    }
    // Funded again, the same checkout pays: started (its hold firm), charged once, confirmed.
    const paid = await esim.checkouts.pay(checkoutId, payment);
    expect(paid).toMatchObject({ outcome: 'confirmed', paymentReference: `pay_${checkoutId}` });
    expect(charges).toEqual([checkoutId]);
  });

  it('lists and searches checkouts and the eSIMs sold, typed, a page or every page', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    await esim.checkouts.confirm(checkoutId, { paymentReference: 'pay_sdk_desk' });
    const ready = await eventually(async () => {
      const read = await esim.checkouts.read(checkoutId);
      return read.status === 'ready' ? read : undefined;
    });
    const byReference = await esim.checkouts.list({ paymentReference: 'pay_sdk_desk' });
    expect(byReference).toEqual({ data: [expect.objectContaining({ id: checkoutId })], nextCursor: null });
    expect(byReference.data[0]?.order?.billing?.status).toBe('captured');
    const byEsim = await esim.checkouts.list({ esimId: ready.esimId ?? '', status: 'ready' });
    expect(byEsim.data.map((checkout) => checkout.id)).toEqual([checkoutId]);

    const first = await esim.checkouts.list({ limit: 1 });
    expect(first.data.map((checkout) => checkout.id)).toEqual([checkoutId]);
    const second = await esim.checkouts.list({ limit: 1, cursor: first.nextCursor ?? '' });
    expect(second.data).toHaveLength(1);
    expect(second.data[0]?.id).not.toBe(checkoutId);
    const every: string[] = [];
    for await (const checkout of esim.checkouts.all({}, { pageSize: 2 })) every.push(checkout.id);
    expect(every[0]).toBe(checkoutId);
    expect(every[1]).toBe(second.data[0]?.id);
    expect(new Set(every).size).toBe(every.length);
    expect(every.length).toBeGreaterThan(2);

    const sold = await esim.esims.list();
    expect(sold.data[0]).toMatchObject({ esimId: ready.esimId, checkoutId, widgetId: 'shop-pay' });
    const allSold: string[] = [];
    for await (const item of esim.esims.all({ pageSize: 1 })) allSold.push(item.esimId);
    expect(allSold).toEqual(expect.arrayContaining(sold.data.map((item) => item.esimId)));

    await expect(esim.checkouts.list({ cursor: 'forged.cursor' })).rejects.toMatchObject({
      code: 'validation_failed',
      status: 400,
      params: expect.objectContaining({ field: 'cursor' }),
    });
  });

  it('reads the sales ledger: a sale by id, a search, every page and the CSV of a period as a stream', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    await esim.checkouts.confirm(checkoutId, { paymentReference: 'pay_sdk_ledger' });
    // Reading the checkout brings it up to date with its order, and its sale with it.
    await eventually(async () =>
      (await esim.checkouts.read(checkoutId)).status === 'ready' ? true : undefined,
    );
    const sale = await esim.sales.read(checkoutId);
    expect(sale).toMatchObject({
      checkoutId,
      widgetId: 'shop-pay',
      status: 'ready',
      paymentReference: 'pay_sdk_ledger',
    });
    expect(sale.esimId).not.toBeNull();
    const byReference = await esim.sales.list({ paymentReference: 'pay_sdk_ledger' });
    expect(byReference).toEqual({ data: [sale], nextCursor: null });
    expect((await esim.sales.list({ esimId: sale.esimId ?? '' })).data).toEqual([sale]);
    const every: string[] = [];
    for await (const each of esim.sales.all({ from: sale.paidAt }, { pageSize: 1 }))
      every.push(each.checkoutId);
    expect(every).toEqual([checkoutId]);

    const stream = await esim.sales.exportCsv({ from: sale.paidAt, to: '2100-01-01' });
    const csv = await new Response(stream).text();
    const [header, line, end] = csv.split('\r\n');
    expect(header).toBe(SALE_CSV_COLUMNS.join(','));
    expect(line?.startsWith(`${checkoutId},shop-pay,issue,ready,`)).toBe(true);
    expect(end).toBe('');
    await expect(esim.sales.read('chk_unknown_sale_00')).rejects.toMatchObject({
      code: 'checkout_not_found',
      status: 404,
    });
    await expect(esim.sales.exportCsv({ from: '2026-11-01', to: '2026-10-01' })).rejects.toMatchObject({
      code: 'validation_failed',
      status: 400,
      params: expect.objectContaining({ field: 'to' }),
    });
  });

  it('reads the account of one of the widgets the secret opens', async () => {
    const account = await esim.account.read({ widgetId: 'shop-pay' });
    expect(account.status).toBe('active');
    expect(account.spendable.amountMinor).toBeGreaterThan(0);
    // The test secret opens two widgets: without a widget id the BFF cannot tell which account is meant.
    const refused = await esim.account.read().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PartnerApiError);
    expect(refused).toMatchObject({ code: 'validation_failed', status: 422, params: { field: 'widgetId' } });
  });

  it('follows the eSIM after the sale: its view, a manage link, delivery links under one key, revocations', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop');
    const ready = await eventually(async () => {
      const read = await esim.checkouts.read(checkoutId);
      return read.status === 'ready' ? read : undefined;
    });
    const esimId = ready.esimId as string;
    expect((await esim.esims.read(esimId)).esimId).toBe(esimId);

    const manageLink = await esim.esims.createManageLink(esimId, { widgetId: 'shop' });
    expect(manageLink.esimId).toBe(esimId);
    expect((await esim.manageLinks.revoke(manageLink.id)).id).toBe(manageLink.id);
    expect((await esim.esims.revokeAllManageLinks(esimId)).esimId).toBe(esimId);

    const key = `sdk-test-${checkoutId}`;
    const link = await esim.esims.createDeliveryLink(esimId, { maxViews: 2 }, { idempotencyKey: key });
    const replay = await esim.esims.createDeliveryLink(esimId, { maxViews: 2 }, { idempotencyKey: key });
    expect(replay.id).toBe(link.id);
    // Without a key each call is a new create.
    const another = await esim.esims.createDeliveryLink(esimId);
    expect(another.id).not.toBe(link.id);
    expect(await esim.deliveryLinks.revoke(link.id)).toMatchObject({ id: link.id, status: 'revoked' });
  });

  it('throws the envelope as a PartnerApiError: code, status, params and request id', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    expect((await esim.checkouts.cancel(checkoutId)).status).toBe('cancelled');
    const late = await esim.checkouts.confirm(checkoutId).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(PartnerApiError);
    expect(late).toMatchObject({ code: 'invalid_transition', status: 409, params: { status: 'cancelled' } });
    expect((late as PartnerApiError).requestId).toMatch(/\S/);

    const stranger = createPartnerClient({ baseUrl: stack.server.url, partnerSecret: 'not-the-secret' });
    await expect(stranger.checkouts.read(checkoutId)).rejects.toMatchObject({
      code: 'unauthorized',
      status: 401,
    });
    const unknown = await esim.checkouts.read('chk_doesnotexist00').catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'checkout_not_found', status: 404 });
  });

  it('tells a request that got no answer from a refusal', async () => {
    const nowhere = createPartnerClient({
      baseUrl: 'http://127.0.0.1:9',
      partnerSecret: PARTNER_SECRET,
      maxRetries: 0,
    });
    await expect(nowhere.checkouts.read('chk_whatever000')).rejects.toMatchObject({
      code: 'network_error',
      status: 0,
    });
  });
});
