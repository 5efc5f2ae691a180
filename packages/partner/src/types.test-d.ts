/** The SDK's types as a partner's code meets them: handlers typed per event type, answers typed per route. */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  BalanceLowWebhookEvent,
  CheckoutPaymentOutcome,
  CheckoutWebhookEvent,
  PartnerAccount,
  PartnerCheckout,
  PartnerClient,
  PartnerDeliveryLink,
  PartnerEsimSummary,
  PartnerPage,
  PartnerWebhookDelivery,
  PartnerWebhookDeliveryDetail,
  WebhookDeliveryStatus,
  WebhookEventOf,
  WebhookHandlers,
} from './index';

describe('webhook handler types', () => {
  it('narrows the event to its type, with the data that type carries', () => {
    expectTypeOf<WebhookEventOf<'esim.ready'>['type']>().toEqualTypeOf<'esim.ready'>();
    expectTypeOf<WebhookEventOf<'esim.ready'>['data']>().toEqualTypeOf<CheckoutWebhookEvent['data']>();
    expectTypeOf<WebhookEventOf<'account.balance_low'>>().toEqualTypeOf<
      BalanceLowWebhookEvent & { type: 'account.balance_low' }
    >();
    expectTypeOf<
      Parameters<NonNullable<WebhookHandlers['checkout.failed']>>[0]['data']['checkout']
    >().toEqualTypeOf<PartnerCheckout>();
  });

  it('refuses a handler that reads data its type does not carry', () => {
    const handlers: WebhookHandlers = {
      // @ts-expect-error an account event carries no checkout
      'account.balance_low': (event) => event.data.checkout,
      'checkout.completed': (event) => event.data.checkout.amount,
    };
    expectTypeOf(handlers).toEqualTypeOf<WebhookHandlers>();
  });
});

describe('client answer types', () => {
  it('answers each route with its own schema’s type', () => {
    expectTypeOf<ReturnType<PartnerClient['checkouts']['confirm']>>().toEqualTypeOf<
      Promise<PartnerCheckout>
    >();
    expectTypeOf<ReturnType<PartnerClient['account']['read']>>().toEqualTypeOf<Promise<PartnerAccount>>();
    expectTypeOf<ReturnType<PartnerClient['esims']['createDeliveryLink']>>().toEqualTypeOf<
      Promise<PartnerDeliveryLink>
    >();
    expectTypeOf<ReturnType<PartnerClient['checkouts']['list']>>().toEqualTypeOf<
      Promise<PartnerPage<PartnerCheckout>>
    >();
    expectTypeOf<ReturnType<PartnerClient['esims']['list']>>().toEqualTypeOf<
      Promise<PartnerPage<PartnerEsimSummary>>
    >();
    expectTypeOf<Parameters<PartnerClient['checkouts']['list']>[0]>().toExtend<
      { status?: PartnerCheckout['status']; email?: string; cursor?: string; limit?: number } | undefined
    >();
    expectTypeOf<CheckoutPaymentOutcome['outcome']>().toEqualTypeOf<
      'confirmed' | 'already_paid' | 'not_payable' | 'declined' | 'refunded' | 'unfunded'
    >();
    expectTypeOf<Parameters<PartnerClient['checkouts']['pay']>[2]>().toEqualTypeOf<
      { attempt?: number } | undefined
    >();
  });

  it('answers the support desk’s webhook deliveries typed, and takes only their filters', () => {
    expectTypeOf<ReturnType<PartnerClient['webhookDeliveries']['list']>>().toEqualTypeOf<
      Promise<PartnerPage<PartnerWebhookDelivery>>
    >();
    expectTypeOf<ReturnType<PartnerClient['webhookDeliveries']['resend']>>().toEqualTypeOf<
      Promise<PartnerWebhookDeliveryDetail>
    >();
    expectTypeOf<PartnerWebhookDelivery['status']>().toEqualTypeOf<WebhookDeliveryStatus>();
    expectTypeOf<WebhookDeliveryStatus>().toEqualTypeOf<'pending' | 'paused' | 'delivered' | 'failed'>();
    const client = {} as PartnerClient;
    // @ts-expect-error a delivery's status is one of four
    void client.webhookDeliveries.list({ status: 'sent' });
  });
});
