/**
 * "My eSIM" against the real sandbox over HTTP: the usage the traveller sees as it moves, the dates, the
 * installation again only while not installed, and every top-up status of the contract.
 */
import {
  EsimInstallationViewResponseSchema,
  EsimViewResponseSchema,
  MANAGE_TOKEN_HEADER,
  TopUpStatusSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoughtEsim, buyEsim, myEsim } from '../../testing/after-sale-flow';
import {
  call,
  newKey,
  openWidget,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  type WidgetPage,
} from '../../testing/stack';

let stack: Stack;
let page: WidgetPage;
beforeAll(async () => {
  stack = await startStack();
  page = await openWidget(stack.server.url, 'shop');
});
afterAll(async () => {
  await stack?.close();
});
/** Each purchase in its own session (a session may create only a few checkouts); the view works across them. */
const buyInNewSession = async () => await buyEsim(await openWidget(stack.server.url, 'shop'));

describe('my eSIM', () => {
  let bought: BoughtEsim;
  beforeAll(async () => {
    bought = await buyInNewSession();
  });

  it('shows the plan, the usage with its status and observation time, and top-up offers at retail', async () => {
    const answer = await myEsim(page, bought.manageToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    const view = EsimViewResponseSchema.parse(answer.body).data;
    expect(view.esimId).toBe(bought.esimId);
    expect(view.plan?.offerId).toBe(bought.plan.offerId);
    expect(view.plan?.price).toEqual(bought.plan.price);
    expect(view.usage).toMatchObject({
      totalMb: bought.plan.dataMb,
      usedMb: 0,
      remainingMb: bought.plan.dataMb,
      status: 'fresh',
    });
    expect(view.usage.observedAt).not.toBeNull();
    expect(view.installed).toBe(false);
    expect(view.activation.activatedAt).toBeNull();
    expect(view.topUp.status).toBe('available');
    expect(view.topUp.offers.length).toBeGreaterThan(0);
    // Retail only: each offer's price is what the same plan costs in the catalog, never the wholesale price.
    const offer = view.topUp.offers[0];
    const wholesale = await stack.bff.widgets.get('shop')?.upstream.getOffer(offer?.offerId ?? '');
    expect(offer?.price).toEqual(wholesale?.recommendedRetail);
    expect(JSON.stringify(view)).not.toContain('"wholesale"');
    expect(view.actions.find((action) => action.type === 'top_up')?.availability).toBe('available');
  });

  it('gives the installation again while the eSIM is not installed, never cached', async () => {
    const answer = await page.get('/v1/my-esim/installation', { [MANAGE_TOKEN_HEADER]: bought.manageToken });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    const installation = EsimInstallationViewResponseSchema.parse(answer.body).data;
    expect(installation.esimId).toBe(bought.esimId);
    expect(installation.lpa).toMatch(/^LPA:1\$/);
  });

  it('follows the usage as the traveller installs and uses the eSIM', async () => {
    const other = await buyInNewSession();
    await stack.sandbox.control.setEsim(other.esimId, { install: true });
    const installed = EsimViewResponseSchema.parse((await myEsim(page, other.manageToken)).body).data;
    expect(installed.installed).toBe(true);
    expect(installed.state).toBe('installed');
    const refused = await page.get('/v1/my-esim/installation', { [MANAGE_TOKEN_HEADER]: other.manageToken });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_transition');

    await stack.sandbox.control.setEsim(other.esimId, { activate: true, usedMb: 300 });
    const used = EsimViewResponseSchema.parse((await myEsim(page, other.manageToken)).body).data;
    const total = other.plan.dataMb ?? 0;
    expect(used.usage).toMatchObject({
      totalMb: total,
      usedMb: 300,
      remainingMb: total - 300,
      status: 'fresh',
    });
    expect(used.activation.activatedAt).not.toBeNull();
    expect(used.activation.serviceExpiresAt).not.toBeNull();
    expect(used.state).toBe('active');

    await stack.sandbox.control.setEsim(other.esimId, { usageStatus: 'stale' });
    const stale = EsimViewResponseSchema.parse((await myEsim(page, other.manageToken)).body).data;
    expect(stale.usage.status).toBe('stale');
    expect(stale.usage.usedMb).toBe(300);
    await stack.sandbox.control.setEsim(other.esimId, { usageStatus: 'unavailable' });
    const unavailable = EsimViewResponseSchema.parse((await myEsim(page, other.manageToken)).body).data;
    expect(unavailable.usage.status).toBe('unavailable');
  });

  it.each(TopUpStatusSchema.options.filter((status) => status !== 'available'))(
    'maps the top-up status %s, with no offers and no top-up quote',
    async (status) => {
      const esim = await buyInNewSession();
      await stack.sandbox.control.setEsim(esim.esimId, { topUpStatus: status });
      const view = EsimViewResponseSchema.parse((await myEsim(page, esim.manageToken)).body).data;
      expect(view.topUp.status).toBe(status);
      expect(view.topUp.offers).toEqual([]);
      expect(view.actions.find((action) => action.type === 'top_up')?.availability).not.toBe('available');
      const quote = await page.post(
        '/v1/quotes',
        { offerId: esim.plan.offerId, esimId: esim.esimId },
        { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: esim.manageToken },
      );
      expect(quote.status).toBe(409);
      expect(quote.body.error.code).toBe('action_not_available');
    },
  );

  it('lets the widget send its manage token cross-origin (preflight)', async () => {
    const preflight = await call(stack.server.url, '/v1/my-esim', {
      method: 'OPTIONS',
      headers: {
        Origin: SHOP_ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, x-manage-token',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/X-Manage-Token/);
  });

  it('answers a bad locale with the error envelope', async () => {
    const answer = await myEsim(page, bought.manageToken, '?locale=xx');
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('validation_failed');
  });
});
