/**
 * What must never leave the BFF: every widget answer of full purchases with three widgets (direct, direct with a
 * markup in RUB, partner_confirm), in several locales, with installation data and delivery links, is searched
 * for the wholesale price of every offer it shows; installation and delivery-link answers are `no-store`; and
 * the BFF's logs of all of it hold no API key, token, partner or session secret, client secret, LPA,
 * activation code, QR payload or delivery URL.
 */
import { randomBytes } from 'node:crypto';
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import {
  CHECKOUT_SECRET_HEADER,
  InstallationResponseSchema,
  PARTNER_SECRET_HEADER,
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
  type WidgetPage,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { findSecrets, type SecretBook } from '../harness/secret-scan';

let stack: Stack;
const answers: Array<{ what: string; answer: Answer; wholesale: number[] }> = [];
const secrets: SecretBook = new Map();
const figures: Figure[] = [];
let installations = 0;

beforeAll(async () => {
  stack = await startStack();
  secrets.set('upstream API key (USD)', SANDBOX_KEYS.globetrotter);
  secrets.set('upstream API key (RUB)', SANDBOX_KEYS.aurora);
  secrets.set('partner secret', PARTNER_SECRET);
  secrets.set('session-signing secret (base64url)', stack.sessionSecret.toString('base64url'));
  secrets.set('session-signing secret (hex)', stack.sessionSecret.toString('hex'));
  secrets.set('session-signing secret (base64)', stack.sessionSecret.toString('base64'));
});
afterAll(async () => {
  recordFigures('secrets and prices', figures);
  await stack?.close();
});

/** The upstream (wholesale) price of an offer, read with the BFF's own upstream client. */
async function wholesaleOf(widgetId: string, offerId: string): Promise<number> {
  const offer = await stack.bff.widgets.get(widgetId)?.upstream.getOffer(offerId);
  if (offer === undefined) throw new Error(`no offer ${offerId}`);
  return offer.price.amountMinor;
}

async function purchase(widgetId: string, origin: string, locale: 'en' | 'ru' | 'de') {
  const page: WidgetPage = await openWidget(stack.server.url, widgetId, origin);
  secrets.set(`session token of ${widgetId}`, page.token);
  const record = (what: string, answer: Answer, wholesale: number[] = []) => {
    answers.push({ what: `${widgetId} ${what}`, answer, wholesale });
    return answer;
  };
  const destinations = record('destinations', await page.get(`/v1/destinations?locale=${locale}`));
  expect(destinations.status).toBe(200);
  let bought: { offerId: string; wholesale: number } | undefined;
  for (const destination of destinations.body.data.slice(0, 3)) {
    const plans = await page.get(`/v1/destinations/${destination.code}/plans?locale=${locale}`);
    const offers: string[] = plans.body.data.slice(0, 8).map((plan: { offerId: string }) => plan.offerId);
    const wholesale = await Promise.all(offers.map((offerId) => wholesaleOf(widgetId, offerId)));
    record(`plans of ${destination.code}`, plans, wholesale);
    bought ??= { offerId: offers[0] as string, wholesale: wholesale[0] as number };
  }
  if (bought === undefined) throw new Error('no plan to buy');
  const w = [bought.wholesale];
  const quote = record(
    'quote',
    await page.post('/v1/quotes', { offerId: bought.offerId, locale }, { 'Idempotency-Key': newKey() }),
    w,
  );
  expect(quote.status).toBe(201);
  const email = `traveller-${randomBytes(4).toString('hex')}@example.com`;
  const created = record(
    'checkout',
    await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale, termsAccepted: true, email },
      { 'Idempotency-Key': newKey() },
    ),
    w,
  );
  expect(created.status).toBe(201);
  const { id, clientSecret } = created.body.data as { id: string; clientSecret: string };
  secrets.set(`client secret of ${widgetId}`, clientSecret);
  if (created.body.data.status === 'awaiting_payment') {
    const confirmed = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(confirmed.status).toBe(200);
  }
  const withSecret = { [CHECKOUT_SECRET_HEADER]: clientSecret };
  const ready = await eventually(async () => {
    const answer = await page.get(`/v1/checkouts/${id}`, withSecret);
    return answer.body.data.status === 'ready' ? answer : undefined;
  });
  record('status', ready, w);
  for (let round = 0; round < 2; round += 1) {
    const installation = record(
      'installation',
      await page.get(`/v1/checkouts/${id}/installation`, withSecret),
      w,
    );
    expect(installation.status).toBe(200);
    expect(installation.headers.get('cache-control')).toMatch(/no-store/);
    installations += 1;
    const data = InstallationResponseSchema.parse(installation.body).data;
    secrets.set(`LPA of ${widgetId}`, data.lpa);
    secrets.set(`activation code of ${widgetId}`, data.activationCode);
    secrets.set(`QR payload of ${widgetId}`, data.qrPayload);
  }
  const linkKey = newKey();
  for (let round = 0; round < 2; round += 1) {
    // The same key twice: the idempotent replay carries the secret URL again, and must be no-store too.
    const link = record(
      'delivery link',
      await page.post(
        `/v1/checkouts/${id}/delivery-links`,
        { maxViews: 2 },
        { ...withSecret, 'Idempotency-Key': linkKey },
      ),
      w,
    );
    expect(link.status).toBe(201);
    expect(link.headers.get('cache-control')).toMatch(/no-store/);
    secrets.set(`delivery URL of ${widgetId}`, link.body.data.url);
  }
}

describe('secrets and wholesale prices', () => {
  it('never shows a wholesale price in a widget answer, and answers installation data no-store', async () => {
    await purchase('shop', 'https://shop.example', 'en');
    await purchase('shop-rub', 'https://rub.example', 'ru');
    await purchase('shop-pay', 'https://shop.example', 'de');
    const leaks: string[] = [];
    let prices = 0;
    for (const { what, answer, wholesale } of answers) {
      const amounts = new Set<number>();
      JSON.stringify(answer.body, (key, value) => {
        if (key === 'amountMinor' && typeof value === 'number') amounts.add(value);
        return value;
      });
      prices += wholesale.length;
      for (const price of wholesale) {
        // A wholesale amount equal to the retail one shown would not tell them apart: none such here.
        if (amounts.has(price)) leaks.push(`${what}: ${price}`);
      }
      expect(answer.text).not.toMatch(/wholesale/i);
    }
    expect(prices).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
    figures.push(
      [
        'widget answers searched for wholesale prices',
        `${answers.length} answers, ${prices} offer prices, 0 found`,
      ],
      ['installation and delivery-link answers no-store', `${installations} + 6, all no-store`],
    );
  });

  it('wrote none of the run’s secrets to the logs', () => {
    expect(stack.logs.length).toBeGreaterThan(30);
    expect(findSecrets(stack.logs, secrets)).toEqual([]);
    figures.push(['BFF log lines searched', `${stack.logs.length} lines, ${secrets.size} secrets, 0 found`]);
  });
});
