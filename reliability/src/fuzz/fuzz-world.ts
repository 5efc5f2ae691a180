/**
 * @module
 * The world the route fuzzer attacks: the sandbox and one BFF on a store that lists what it holds, every
 * widget's webhooks going to one local receiver, a second partner on the same upstream key, and the real
 * resources a request needs to get past the lookups (sessions of three widgets, a checkout awaiting payment, a
 * ready one, eSIMs with manage and delivery links, a help request). Background workers are off, so that every
 * change of the store and every webhook comes from a request; the fuzzer delivers due webhooks itself.
 */
import { randomBytes } from 'node:crypto';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import {
  type BoughtEsim,
  buyEsim,
  call,
  createRecordingStore,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RecordingStore,
  type Stack,
  startStack,
  startWebhookReceiver,
  testConfig,
  untilReady,
  type WebhookReceiver,
  type WidgetPage,
} from '../harness/bff-testing';

/** The second partner's secret: its widget shares the first partner's upstream key. */
export const OTHER_PARTNER_SECRET = `partner-secret-other-${randomBytes(12).toString('hex')}`;
/** The origin of the third widget (its own upstream key and currency). */
export const RUB_ORIGIN = 'https://rub.example';

/** A checkout as its page holds it. */
export interface HeldCheckout {
  id: string;
  clientSecret: string;
}

/** Everything a fuzzed request may use to look genuine. */
export interface FuzzWorld {
  stack: Stack;
  store: RecordingStore;
  receiver: WebhookReceiver;
  /** A session of the `direct` widget `shop` (the widget of the ready checkout and the eSIMs). */
  page: WidgetPage;
  /** Sessions of other widgets: their tokens are valid, just not for `shop`'s resources. */
  otherPages: { shopPay: WidgetPage; rub: WidgetPage; otherPartner: WidgetPage };
  /** `shop-pay`'s checkouts awaiting the partner's payment: one to confirm, one to cancel. */
  waiting: HeldCheckout;
  waitingToCancel: HeldCheckout;
  /** `shop`'s ready checkout. */
  ready: HeldCheckout;
  /**
   * eSIMs of `shop` with their manage links: one for the links and views, one with a help request to read, one
   * to ask help for (a cancellation ends it, so it is no other route's).
   */
  esim: BoughtEsim;
  helpEsim: BoughtEsim;
  spareEsim: BoughtEsim;
  deliveryLinkId: string;
  actionRequestId: string;
  /** A webhook delivery of `shop-pay` (its event id), queued for the receiver. */
  webhookDeliveryId: string;
  /** An erasure the partner asked for (of an address that bought nothing: it erases none of the world). */
  privacyErasureId: string;
  /** A live offer and quote of `shop`. */
  offerId: string;
  quoteId: string;
  destinationCode: string;
  catalogVersion: string;
  logoHash: string;
  close(): Promise<void>;
}

/**
 * The highest limits a widget may have, so that the fuzzer's own volume is seldom what refuses it (rate limits
 * are tested apart; a refusal by one is checked like any other).
 */
const GENEROUS_LIMITS = {
  sessionsPerIpPerMinute: 10_000,
  requestsPerSessionPerMinute: 100_000,
  quotesPerSession: 1_000,
  checkoutsPerSession: 100,
  partnerWritesPerMinute: 100_000,
};

/** Start the sandbox, the BFF and the receiver, and make the real resources. */
export async function createFuzzWorld(): Promise<FuzzWorld> {
  const store = createRecordingStore();
  const receiver = await startWebhookReceiver();
  const stack = await startStack({
    store,
    env: {
      FUZZ_WEBHOOK_SECRET: `whsec_${randomBytes(16).toString('hex')}`,
      FUZZ_OTHER_PARTNER: OTHER_PARTNER_SECRET,
    },
    bffOptions: { startWorkers: false },
    config: (url) => {
      const config = testConfig(url);
      const shopPay = config.widgets.find((widget) => widget.id === 'shop-pay');
      if (shopPay === undefined) throw new Error('the test config lost shop-pay');
      const widgets = [
        ...config.widgets,
        { ...shopPay, id: 'other-pay', partnerSecretEnv: 'FUZZ_OTHER_PARTNER' },
      ];
      return {
        ...config,
        // Each request comes through a pretend proxy from an address of its own, so that hostile partner
        // secrets do not spend the genuine one's failure budget (that budget is tested in the two-process suite).
        trustedProxyHops: 1,
        widgets: widgets.map((widget) => ({
          ...widget,
          limits: GENEROUS_LIMITS,
          webhookUrl: receiver.url,
          webhookSecretEnv: 'FUZZ_WEBHOOK_SECRET',
        })),
      };
    },
  });
  try {
    const page = await openWidget(stack.server.url, 'shop');
    const otherPages = {
      shopPay: await openWidget(stack.server.url, 'shop-pay'),
      rub: await openWidget(stack.server.url, 'shop-rub', RUB_ORIGIN),
      otherPartner: await openWidget(stack.server.url, 'other-pay'),
    };
    const destinations = await page.get('/v1/destinations?locale=en');
    const destinationCode: string = destinations.body.data[0].code;
    const plans = await page.get(`/v1/destinations/${destinationCode}/plans`);
    const offerId: string = plans.body.data[0].offerId;
    const buy = async (widget: WidgetPage): Promise<HeldCheckout> => {
      const quote = await widget.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
      const created = await widget.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      );
      if (created.status !== 201) throw new Error(`checkout refused: ${created.text}`);
      return { id: created.body.data.id, clientSecret: created.body.data.clientSecret };
    };
    const waiting = await buy(otherPages.shopPay);
    const waitingToCancel = await buy(otherPages.shopPay);
    const ready = await buy(page);
    await untilReady(page, ready.id, ready.clientSecret);
    const esim = await buyEsim(page);
    const helpEsim = await buyEsim(page);
    const spareEsim = await buyEsim(page);
    const partner = (path: string, body: unknown) =>
      call(stack.server.url, path, {
        method: 'POST',
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
        body,
      });
    const link = await partner(`/v1/partner/esims/${esim.esimId}/delivery-links`, { maxViews: 5 });
    if (link.status !== 201) throw new Error(`delivery link refused: ${link.text}`);
    const help = await partner(`/v1/partner/esims/${helpEsim.esimId}/action-requests`, {
      reasonCode: 'unused_profile',
      reasonDetail: 'trip cancelled',
    });
    if (help.status !== 201) throw new Error(`help request refused: ${help.text}`);
    const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
    const current = await call(stack.server.url, '/v1/catalog/shop');
    const start = await call(stack.server.url, '/v1/widgets/shop/start', {
      headers: { Origin: 'https://shop.example' },
    });
    // The installation step of the ready checkout, as the page reads it (so the eSIM's seller is recorded).
    await page.get(`/v1/checkouts/${ready.id}/installation`, {
      [CHECKOUT_SECRET_HEADER]: ready.clientSecret,
    });
    const deliveries = await call(stack.server.url, '/v1/partner/webhook-deliveries?limit=1', {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    const webhookDeliveryId: string | undefined = deliveries.body?.data?.[0]?.id;
    if (webhookDeliveryId === undefined) throw new Error(`no webhook delivery listed: ${deliveries.text}`);
    const erasure = await partner('/v1/partner/privacy/erasures', { email: 'fuzz.nobody@example.org' });
    if (erasure.status !== 202) throw new Error(`erasure refused: ${erasure.text}`);
    return {
      stack,
      store,
      receiver,
      page,
      otherPages,
      waiting,
      waitingToCancel,
      ready,
      esim,
      helpEsim,
      spareEsim,
      deliveryLinkId: link.body.data.id,
      actionRequestId: help.body.data.id,
      webhookDeliveryId,
      privacyErasureId: erasure.body.data.id,
      offerId,
      quoteId: quote.body.data.id,
      destinationCode,
      catalogVersion: String(current.body?.data?.version ?? '1'),
      logoHash: /\/v1\/brand\/[^/]+\/logo\/([^/?"]+)/.exec(start.text)?.[1] ?? 'no-logo',
      async close() {
        await stack.close();
        await receiver.close();
      },
    };
  } catch (error) {
    await stack.close();
    await receiver.close();
    throw error;
  }
}
