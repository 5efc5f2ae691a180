/**
 * Manage links under attack (issue 13, point 3), over HTTP against the real sandbox: the install step reloaded
 * again and again gives one link, not a new year-long token each time; the link fits an SMS; revoke-all refuses
 * every token of the eSIM, whoever minted it and in whichever widget, and a link asked for afterwards is a new
 * one that works; another partner's secret cannot revoke a link by its id. Each refusal has its control.
 */
import { randomBytes } from 'node:crypto';
import { MANAGE_TOKEN_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
  type WidgetPage,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';

/** Another partner: widget `rival`, its own secret, on another upstream account. */
const RIVAL_SECRET = `rival-partner-${randomBytes(18).toString('hex')}`;
/** A typical partner page that hosts the widget. */
const PARTNER_PAGE = 'https://travel.example.com/esim';

let stack: Stack;
const figures: Figure[] = [];

beforeAll(async () => {
  stack = await startStack({
    env: { RIVAL_PARTNER_SECRET: RIVAL_SECRET },
    config: (url) => {
      const base = testConfig(url);
      const limits = { sessionsPerIpPerMinute: 1_000, requestsPerSessionPerMinute: 10_000 };
      const rub = base.widgets.find((widget) => widget.id === 'shop-rub');
      const rival = { ...rub, id: 'rival', partnerSecretEnv: 'RIVAL_PARTNER_SECRET' };
      return {
        ...base,
        widgets: [...base.widgets, rival].map((widget) => ({ ...widget, limits })),
      } as typeof base;
    },
  });
}, 60_000);
afterAll(async () => {
  recordFigures('manage links', figures);
  await stack?.close();
});

interface Sold {
  checkoutId: string;
  clientSecret: string;
}

/** A `direct` purchase in widget `shop`, read until ready. */
async function buy(): Promise<Sold> {
  const page = await openWidget(stack.server.url, 'shop');
  const destinations = await page.get('/v1/destinations?locale=en');
  const country = (destinations.body.data as { code: string; kind: string }[]).find(
    (destination) => destination.kind === 'country',
  );
  const plans = await page.get(`/v1/destinations/${country?.code}/plans`);
  const offerId = (plans.body.data as { offerId: string }[])[0]?.offerId;
  const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  expect(checkout.status, checkout.text).toBe(201);
  const { id, clientSecret } = checkout.body.data as { id: string; clientSecret: string };
  await eventually(async () => {
    const read = await page.get(`/v1/checkouts/${id}`, { 'X-Checkout-Secret': clientSecret });
    return read.body.data?.status === 'ready' ? true : undefined;
  }, 20_000);
  return { checkoutId: id, clientSecret };
}

/** The install step after a reload: a new session of the widget asks for the checkout's manage link. */
async function installStep(sold: Sold) {
  const page = await openWidget(stack.server.url, 'shop');
  const answer = await page.post(
    `/v1/checkouts/${sold.checkoutId}/manage-link`,
    {},
    { 'X-Checkout-Secret': sold.clientSecret },
  );
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data as { id: string; manageToken: string; esimId: string };
}

const partner = (path: string, secret = PARTNER_SECRET, body: unknown = {}) =>
  call(stack.server.url, path, { method: 'POST', headers: { [PARTNER_SECRET_HEADER]: secret }, body });

/** The status `GET /v1/my-esim` answers a token with, on a session of `widgetId`. */
async function opens(token: string, widgetId = 'shop'): Promise<number> {
  const page: WidgetPage = await openWidget(stack.server.url, widgetId);
  return (await page.get('/v1/my-esim', { [MANAGE_TOKEN_HEADER]: token })).status;
}

describe('manage links', () => {
  it('three reloads of the install step give one manage link, short enough for an SMS', async () => {
    const sold = await buy();
    const links = [await installStep(sold), await installStep(sold), await installStep(sold)];
    const tokens = new Set(links.map((link) => link.manageToken));
    expect(tokens.size).toBe(1);
    expect(new Set(links.map((link) => link.id)).size).toBe(1);
    expect(await opens(links[0]?.manageToken ?? '')).toBe(200);
    // The widget writes the page's address with `#esim=<widget id>.<token>`.
    const url = `${PARTNER_PAGE}#esim=shop.${links[0]?.manageToken}`;
    expect(url.length).toBeLessThanOrEqual(80);
    figures.push(['install step shown 3 times', `${tokens.size} manage link`]);
    figures.push([`manage link on ${PARTNER_PAGE}`, `${url.length} characters (limit 80)`]);
  });

  it('revoke-all refuses every token of the eSIM and the client secret’s mint; the partner’s new link works', async () => {
    const sold = await buy();
    const own = await installStep(sold);
    const other = (
      await partner(`/v1/partner/esims/${own.esimId}/manage-links`, PARTNER_SECRET, { widgetId: 'shop-pay' })
    ).body.data as { manageToken: string };
    const control = await installStep(await buy());
    expect(await opens(own.manageToken)).toBe(200);
    expect(await opens(other.manageToken, 'shop-pay')).toBe(200);

    const revoked = await partner(`/v1/partner/esims/${own.esimId}/manage-links/revoke-all`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(await opens(own.manageToken)).toBe(401);
    expect(await opens(other.manageToken, 'shop-pay')).toBe(401);
    expect(await opens(control.manageToken)).toBe(200);
    const page = await openWidget(stack.server.url, 'shop');
    const minted = await page.post(
      `/v1/checkouts/${sold.checkoutId}/manage-link`,
      {},
      { 'X-Checkout-Secret': sold.clientSecret },
    );
    expect(minted.status, minted.text).toBe(403);
    const fresh = (
      await partner(`/v1/partner/esims/${own.esimId}/manage-links`, PARTNER_SECRET, { widgetId: 'shop' })
    ).body.data as { manageToken: string };
    expect(fresh.manageToken).not.toBe(own.manageToken);
    expect(await opens(fresh.manageToken)).toBe(200);
    figures.push(['revoke-all: tokens of the eSIM refused', '2 of 2 (another eSIM’s still opens)']);
    figures.push(['revoke-all: the checkout’s client secret mints a link', `${minted.status}`]);
  });

  it('another partner cannot revoke a link of a widget it does not own; the owner can', async () => {
    const link = await installStep(await buy());
    const foreign = await partner(`/v1/partner/manage-links/${link.id}/revoke`, RIVAL_SECRET);
    expect(foreign.status).toBe(404);
    expect(await opens(link.manageToken)).toBe(200);
    const own = await partner(`/v1/partner/manage-links/${link.id}/revoke`);
    expect(own.status, own.text).toBe(200);
    expect(await opens(link.manageToken)).toBe(401);
    figures.push(['revoke by another partner’s secret', `${foreign.status}; the link still opens`]);
  });
});
