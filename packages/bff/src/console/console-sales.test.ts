/**
 * The console's reads and writes of sales, over HTTP against the real BFF and sandbox: Jane's sale found by her
 * e-mail address and shown with its timeline, deliveries and the eSIM's usage; a failing webhook endpoint seen in
 * the webhooks' health, its failed delivery resent and delivered; a refund asked by support and seen completed;
 * links made; an erasure by an admin only; each role's writes refused to the roles below it; and a user of
 * partner B shown nothing of partner A's — on every read. Money, the charts, the funnel's counters and the CSV
 * show the sale.
 */
import { randomBytes } from 'node:crypto';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import {
  ConsoleFunnelChartSchema,
  ConsoleMoneySchema,
  ConsoleSalePageSchema,
  ConsoleSalesChartSchema,
  ConsoleWebhooksHealthSchema,
} from '@esim-embed/shared/console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addConsoleUser,
  type ConsoleBrowser,
  consoleBrowser,
  type TestConsoleUser,
} from '../../testing/console-client';
import {
  call,
  eventually,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testClock,
  testConfig,
} from '../../testing/stack';
import { checkoutAsTraveller, checkoutOnPage } from '../../testing/traveller-checkout';
import { postingWebhooksTo, startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';

const JANE = `jane-${randomBytes(4).toString('hex')}@example.com`;
const clock = testClock();
let receiver: WebhookReceiver;
let stack: Stack;
const users: Record<'viewer' | 'support' | 'admin' | 'rival', TestConsoleUser> = {} as never;
let checkoutId: string;
let esimId: string;

/** A browser signed in as `user` (again after the clock passed its session's end). */
async function as(user: TestConsoleUser): Promise<ConsoleBrowser> {
  const browser = consoleBrowser(stack.server.url);
  const answer = await browser.signIn(user.username, user.password);
  if (answer.status !== 200) throw new Error(`sign-in of ${user.username}: ${answer.text}`);
  return browser;
}

beforeAll(async () => {
  receiver = await startReceiver(Number.POSITIVE_INFINITY);
  stack = await startStack({
    env: { TEST_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}` },
    config: (url) => ({ ...postingWebhooksTo(testConfig(url), receiver.url), console: { enabled: true } }),
    // The test sends the webhooks due itself, on the clock it moves.
    bffOptions: { startWorkers: false, now: clock.now, webhooks: { now: clock.now } },
  });
  for (const [name, role, widgetId] of [
    ['viewer', 'viewer', 'shop'],
    ['support', 'support', 'shop-pay'],
    ['admin', 'admin', 'shop'],
    ['rival', 'admin', 'shop-rub'],
  ] as const) {
    users[name] = await addConsoleUser(
      stack.bff,
      stack.sessionSecret,
      { username: `${name}@console.example`, role, widgetId },
      clock.now,
    );
  }
  const page = await openWidget(stack.server.url, 'shop');
  checkoutId = await checkoutOnPage(page, { email: JANE });
  const ready = await eventually(async () => {
    const read = await call(stack.server.url, `/v1/partner/checkouts/${checkoutId}`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    return read.body?.data?.status === 'ready' ? read.body.data : undefined;
  });
  esimId = ready.esimId;
  // A partner's payment started on a widget of a secret that opens two: counted for the checkout's widget, from
  // its answer, compressed or not.
  const unpaid = await checkoutAsTraveller(stack.server.url, 'shop-pay', {
    email: 'someone-else@example.com',
  });
  const started = await call(stack.server.url, `/v1/partner/checkouts/${unpaid}/payment-started`, {
    method: 'POST',
    body: {},
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Accept-Encoding': 'br' },
  });
  if (started.status !== 200) throw new Error(`payment-started: ${started.text}`);
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

describe('the console’s sales', () => {
  it('finds Jane’s sale by her e-mail address, newest first, and shows its page', async () => {
    const support = await as(users.support);
    const found = await support.get(`/console/api/sales?q=${encodeURIComponent(JANE.toUpperCase())}`);
    expect(found.status, found.text).toBe(200);
    expect(found.body.data.map((checkout: { id: string }) => checkout.id)).toEqual([checkoutId]);
    expect(found.body.data[0]).toMatchObject({ email: JANE, status: 'ready', widgetId: 'shop' });
    for (const query of [
      `q=${checkoutId}`,
      `checkoutId=${checkoutId}`,
      `q=${esimId}`,
      `esimId=${esimId}&widgetId=shop`,
    ]) {
      const byId = await support.get(`/console/api/sales?${query}`);
      expect(
        byId.body.data.map((checkout: { id: string }) => checkout.id),
        query,
      ).toEqual([checkoutId]);
    }
    const sale = await support.get(`/console/api/sales/${checkoutId}`);
    expect(sale.status, sale.text).toBe(200);
    const page = ConsoleSalePageSchema.parse(sale.body.data);
    expect(page.checkout.id).toBe(checkoutId);
    expect(page.esim).toMatchObject({ esimId, usage: { usedMb: expect.any(Number) } });
    expect(page.sale).toMatchObject({ checkoutId, status: 'ready' });
    const kinds = page.timeline.map((entry) => entry.kind);
    expect(kinds.slice(0, 3)).toEqual(['checkout_created', 'order_placed', 'esim_ready']);
    const bad = await support.get('/console/api/sales?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect((await support.get('/console/api/sales?widgetId=shop-rub')).status).toBe(422);
  });

  it('shows partner B none of partner A’s sales, on any read', async () => {
    const rival = await as(users.rival);
    for (const query of [`q=${encodeURIComponent(JANE)}`, `q=${checkoutId}`, `esimId=${esimId}`, '']) {
      const search = await rival.get(`/console/api/sales?${query}`);
      expect(search.status).toBe(200);
      expect(search.text, query).not.toContain(checkoutId);
    }
    const read = await rival.get(`/console/api/sales/${checkoutId}`);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('checkout_not_found');
    for (const path of [
      '/console/api/webhooks',
      '/console/api/money',
      '/console/api/charts/sales',
      '/console/api/charts/funnel',
      '/console/api/audit',
    ]) {
      const answer = await rival.get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).not.toMatch(/"shop"|"shop-pay"|chk_/);
    }
    const csv = await rival.get('/console/api/sales.csv?from=2000-01-01&to=2100-01-01');
    // An export that answered (an error would not contain the sale either), of the header alone.
    expect(csv.status, csv.text).toBe(200);
    expect(csv.text).toMatch(/^checkout_id,widget_id,[^\n]*\r\n$/);
    for (const [method, path] of [
      ['POST', `/console/api/sales/${checkoutId}/help-requests`],
      ['POST', `/console/api/sales/${checkoutId}/manage-links`],
      ['POST', `/console/api/sales/${checkoutId}/erasure`],
    ] as const) {
      const refused = await rival.send(
        method,
        path,
        path.endsWith('help-requests') ? { reasonCode: 'other' } : {},
      );
      expect(refused.status, path).toBe(404);
    }
  });

  it('shows a failing endpoint, and resends its failed delivery once it answers again', async () => {
    await stack.bff.webhookSender.deliverDue();
    const viewer = await as(users.viewer);
    const health = ConsoleWebhooksHealthSchema.parse((await viewer.get('/console/api/webhooks')).body.data);
    const shop = health.widgets.find((widget) => widget.widgetId === 'shop');
    expect(shop).toMatchObject({ endpoint: receiver.url, circuit: { state: 'open' } });
    expect(shop?.failing.some((delivery) => delivery.checkoutId === checkoutId)).toBe(true);

    // Past the retry span the endpoint still fails: the deliveries are given up.
    const since = new Date(clock.now() - 60_000).toISOString();
    for (let step = 0; step < 40; step += 1) {
      clock.advance(60 * 60_000);
      await stack.bff.webhookSender.deliverDue();
    }
    const support = await as(users.support);
    const failed = ConsoleSalePageSchema.parse(
      (await support.get(`/console/api/sales/${checkoutId}`)).body.data,
    );
    expect(failed.webhookDeliveries.length).toBeGreaterThan(0);
    expect(failed.webhookDeliveries.every((delivery) => delivery.status === 'failed')).toBe(true);
    expect(
      (await viewer.send('POST', '/console/api/webhook-deliveries/resend-failed', { since })).status,
    ).toBe(401);
    const viewerAgain = await as(users.viewer);
    const refused = await viewerAgain.send('POST', '/console/api/webhook-deliveries/resend-failed', {
      since,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.params).toEqual({ reason: 'role', needed: 'support' });

    receiver.failFirst = 0;
    const resent = await support.send('POST', '/console/api/webhook-deliveries/resend-failed', { since });
    expect(resent.status, resent.text).toBe(200);
    // Jane's, and those of the other checkout of the partner that failed meanwhile.
    expect(resent.body.data.resent).toBeGreaterThanOrEqual(failed.webhookDeliveries.length);
    await stack.bff.webhookSender.deliverDue();
    const delivered = ConsoleSalePageSchema.parse(
      (await support.get(`/console/api/sales/${checkoutId}`)).body.data,
    );
    expect(delivered.webhookDeliveries.every((delivery) => delivery.status === 'delivered')).toBe(true);
    expect(
      delivered.timeline.some((entry) => entry.kind === 'webhook_attempt' && entry.detail.httpStatus === 200),
    ).toBe(true);
    // One more, by its id.
    const one = delivered.webhookDeliveries[0]?.id ?? '';
    const again = await support.send('POST', `/console/api/webhook-deliveries/${one}/resend`);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({ id: one, status: 'pending' });
    expect(again.text).not.toContain(JANE);
  });

  it('makes delivery and manage links for support, and leaves erasure to an admin', async () => {
    const support = await as(users.support);
    const link = await support.send('POST', `/console/api/sales/${checkoutId}/delivery-links`, {
      maxViews: 2,
    });
    expect(link.status, link.text).toBe(201);
    expect(link.body.data).toMatchObject({ esimId, maxViews: 2 });
    const manage = await support.send('POST', `/console/api/sales/${checkoutId}/manage-links`);
    expect(manage.status, manage.text).toBe(201);
    expect(manage.body.data.esimId).toBe(esimId);
    const erase = `/console/api/sales/${checkoutId}/erasure`;
    expect((await support.send('POST', erase)).status).toBe(403);
    const admin = await as(users.admin);
    const erased = await admin.send('POST', erase);
    expect(erased.status, erased.text).toBe(202);
    expect(erased.body.data).toMatchObject({
      status: 'pending',
      subject: { kind: 'checkout', id: checkoutId },
    });
    const audit = await admin.get('/console/api/audit?limit=100');
    const actions = audit.body.data.map((entry: { action: string }) => entry.action);
    for (const action of [
      'delivery_link_made',
      'manage_link_made',
      'traveller_erased',
      'failed_webhook_deliveries_resent',
    ]) {
      expect(actions).toContain(action);
    }
    // Ids only: never the link's secret url, the manage token or the traveller's address.
    expect(audit.text).not.toContain(link.body.data.url);
    expect(audit.text).not.toContain(manage.body.data.manageToken);
    expect(audit.text).not.toContain(JANE);
  });

  it('lets support ask for a refund and see it completed; a viewer cannot', async () => {
    const viewer = await as(users.viewer);
    const path = `/console/api/sales/${checkoutId}/help-requests`;
    const refused = await viewer.send('POST', path, { reasonCode: 'service_not_delivered' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.params.reason).toBe('role');
    const support = await as(users.support);
    expect((await support.send('POST', path, { reasonCode: 'service_not_delivered' }, false)).status).toBe(
      403,
    );
    expect((await support.send('POST', path, { reasonCode: 'no_such_reason' })).status).toBe(422);
    const asked = await support.send('POST', path, { reasonCode: 'service_not_delivered' });
    expect(asked.status, asked.text).toBe(201);
    expect(asked.body.data).toMatchObject({ esimId, type: 'refund', status: 'requested' });
    await stack.sandbox.control.resolveActionRequest(asked.body.data.id, { outcome: 'completed' });
    // The help request read afresh (as the watch or the partner's read would).
    await call(stack.server.url, `/v1/partner/action-requests/${asked.body.data.id}`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    const page = ConsoleSalePageSchema.parse(
      (await support.get(`/console/api/sales/${checkoutId}`)).body.data,
    );
    expect(page.helpRequests[0]).toMatchObject({
      id: asked.body.data.id,
      type: 'refund',
      status: 'completed',
    });
    expect(page.timeline.some((entry) => entry.kind === 'help_request_completed')).toBe(true);
  });

  it('writes the traveller’s address into no log line, whatever the console did with it', async () => {
    // Every test before searched by it, showed it, resent, linked, refunded and erased its sale.
    const support = await as(users.support);
    expect((await support.get(`/console/api/sales?email=${encodeURIComponent(JANE)}`)).status).toBe(200);
    expect(stack.logs.length).toBeGreaterThan(0);
    const logged = stack.logs.join('\n').toLowerCase();
    expect(logged).not.toContain(JANE.toLowerCase());
    expect(logged).not.toContain(encodeURIComponent(JANE).toLowerCase());
  });

  it('shows the money, the sales per day, the funnel and the CSV of the sale', async () => {
    const viewer = await as(users.viewer);
    const money = ConsoleMoneySchema.parse((await viewer.get('/console/api/money')).body.data);
    expect(money.widgets.map((widget) => widget.widgetId).sort()).toEqual(['shop', 'shop-pay']);
    expect(money.widgets[0]?.account?.balance.currency).toBeDefined();
    const sales = ConsoleSalesChartSchema.parse(
      (await viewer.get('/console/api/charts/sales?widgetId=shop')).body.data,
    );
    expect(sales.days.reduce((sum, day) => sum + day.count, 0)).toBe(1);
    const funnel = ConsoleFunnelChartSchema.parse(
      (await viewer.get('/console/api/charts/funnel?widgetId=shop')).body.data,
    );
    const counted = funnel.days.reduce(
      (sum, day) => ({
        planChosen: sum.planChosen + day.steps.planChosen,
        quoted: sum.quoted + day.steps.quoted,
        checkout: sum.checkout + day.steps.checkout,
        paid: sum.paid + day.steps.paid,
      }),
      { planChosen: 0, quoted: 0, checkout: 0, paid: 0 },
    );
    expect(counted).toEqual({ planChosen: 1, quoted: 1, checkout: 1, paid: 1 });
    const payFunnel = ConsoleFunnelChartSchema.parse(
      (await viewer.get('/console/api/charts/funnel?widgetId=shop-pay')).body.data,
    );
    expect(payFunnel.days.reduce((sum, day) => sum + day.steps.paymentStarted, 0)).toBe(1);
    const csv = await viewer.get('/console/api/sales.csv?from=2000-01-01&to=2100-01-01&widgetId=shop');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toMatch(/^checkout_id,widget_id,/);
    expect(csv.text).toContain(checkoutId);
    expect((await viewer.get('/console/api/charts/funnel?from=2020-01-01&to=2021-01-01')).status).toBe(400);
  });
});
