/**
 * What must never leave the BFF, or reach its logs: a full purchase (with installation data and a delivery
 * link) is recorded, then every widget answer is searched for the wholesale price and the server's secrets,
 * and every log line for keys, tokens, secrets, installation data and delivery URLs. Every answer is also
 * parsed with the strict shared schemas.
 */
import {
  CHECKOUT_SECRET_HEADER,
  CheckoutResponseSchema,
  CreatedCheckoutResponseSchema,
  DestinationsResponseSchema,
  InstallationResponseSchema,
  PARTNER_SECRET_HEADER,
  PartnerCheckoutResponseSchema,
  PlansResponseSchema,
  QuoteResponseSchema,
  SessionResponseSchema,
  WidgetDeliveryLinkResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  TEST_ENV,
} from '../../testing/stack';

let stack: Stack;
const widgetAnswers: Answer[] = [];
let token = '';
let clientSecret = '';
let wholesaleMinor = 0;
let installation: { lpa: string; activationCode: string; qrPayload: string } | undefined;
let deliveryUrl = '';
const EMAIL = 'secret-traveller@example.com';

beforeAll(async () => {
  stack = await startStack();
  const page = await openWidget(stack.server.url, 'shop-pay');
  token = page.token;
  const record = async (answer: Promise<Answer>) => {
    const awaited = await answer;
    widgetAnswers.push(awaited);
    return awaited;
  };
  const destinations = await record(page.get('/v1/destinations'));
  DestinationsResponseSchema.parse(destinations.body);
  const code = destinations.body.data[0].code;
  const plans = await record(page.get(`/v1/destinations/${code}/plans?locale=ru`));
  PlansResponseSchema.parse(plans.body);
  const offerId: string = plans.body.data[0].offerId;
  wholesaleMinor =
    (await stack.bff.widgets.get('shop-pay')?.upstream.getOffer(offerId))?.price.amountMinor ?? -1;
  const quote = await record(page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() }));
  QuoteResponseSchema.parse(quote.body);
  const created = await record(
    page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, email: EMAIL, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    ),
  );
  CreatedCheckoutResponseSchema.parse(created.body);
  const id: string = created.body.data.id;
  clientSecret = created.body.data.clientSecret;
  const partner = { [PARTNER_SECRET_HEADER]: PARTNER_SECRET };
  const confirmed = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
    method: 'POST',
    headers: partner,
    body: { paymentReference: 'pay_1' },
  });
  PartnerCheckoutResponseSchema.parse(confirmed.body);
  const secretHeader = { [CHECKOUT_SECRET_HEADER]: clientSecret };
  await eventually(async () => {
    const status = await record(page.get(`/v1/checkouts/${id}`, secretHeader));
    CheckoutResponseSchema.parse(status.body);
    return status.body.data.status === 'ready' ? true : undefined;
  });
  const installed = await record(page.get(`/v1/checkouts/${id}/installation`, secretHeader));
  installation = InstallationResponseSchema.parse(installed.body).data;
  const link = await record(
    page.post(
      `/v1/checkouts/${id}/delivery-links`,
      { maxViews: 2 },
      { ...secretHeader, 'Idempotency-Key': newKey() },
    ),
  );
  deliveryUrl = WidgetDeliveryLinkResponseSchema.parse(link.body).data.url;
  const session = await call(stack.server.url, '/v1/sessions', {
    method: 'POST',
    headers: { Origin: 'https://shop.example' },
    body: { widgetId: 'shop-pay' },
  });
  SessionResponseSchema.parse(session.body);
  widgetAnswers.push(session);
});
afterAll(async () => {
  await stack?.close();
});

describe('secrets', () => {
  it('recorded a whole purchase', () => {
    expect(installation?.lpa).toMatch(/^LPA:1\$/);
    expect(deliveryUrl).toMatch(/^https?:\/\//);
    expect(wholesaleMinor).toBeGreaterThan(0);
  });

  it('never shows a widget the wholesale price or a server secret', () => {
    for (const answer of widgetAnswers) {
      expect(answer.text).not.toMatch(/wholesale|recommendedRetail|"pricingVersion"/);
      expect(answer.text).not.toContain(TEST_ENV.TEST_UPSTREAM_KEY);
      expect(answer.text).not.toContain(PARTNER_SECRET);
      expect(answer.text).not.toContain(stack.sessionSecret.toString('base64url'));
    }
    const sale = widgetAnswers.filter((answer) =>
      /"(quote|checkout)Id"|"clientSecret"|"offerId"/.test(answer.text),
    );
    for (const answer of sale) {
      expect(answer.text).not.toMatch(new RegExp(`"amountMinor":${wholesaleMinor}[,}]`));
    }
  });

  it('marks installation data no-store', () => {
    const answer = widgetAnswers.find((candidate) => candidate.text.includes('"lpa"')) as Answer;
    expect(answer.headers.get('cache-control')).toContain('no-store');
  });

  it('keeps keys, tokens, secrets, installation data, delivery URLs and emails out of the logs', () => {
    const logs = stack.logs.join('\n');
    expect(stack.logs.length).toBeGreaterThan(20);
    expect(logs).toMatch(/"message":"request"/);
    expect(logs).toMatch(/"upstreamRequestId":"/);
    const secrets = {
      apiKey: TEST_ENV.TEST_UPSTREAM_KEY,
      partnerSecret: PARTNER_SECRET,
      sessionToken: token,
      tokenSignature: token.split('.')[2] as string,
      clientSecret,
      lpa: installation?.lpa as string,
      activationCode: installation?.activationCode as string,
      qrPayload: installation?.qrPayload as string,
      deliveryUrl,
      deliveryUrlPath: new URL(deliveryUrl).pathname,
      email: EMAIL,
    };
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(5);
      expect(logs.includes(value), `${name} appears in the logs`).toBe(false);
    }
  });
});
