/**
 * The page reloads while the checkout's create is unanswered, and the traveller buys again: one checkout, one
 * upstream order, and the page shows that checkout (the widget keeps a create in `sessionStorage` before it sends
 * it and settles it first after a reload: `packages/widget/src/steps/pending-create.ts`).
 *
 * - `direct`: the upstream is slow to place the order (the `faults` sandbox holds `POST /orders` 12 s), so the
 *   create is still running at the BFF when the page reloads, its checkout written and its order on the way.
 * - `partner_confirm`, on the demo with its partner server and payment form: its create asks the upstream
 *   nothing once the checkout is written, so it is its answer that goes missing — made at the BFF, held in the
 *   browser, never seen by the page.
 *
 * - `direct` again, the create's answer lost, and the session ended before the reload (its BFF's clock and the
 *   page's moved past its 60 s): the ended session's token still reads back that one create within the BFF's
 *   grace, so the widget shows the checkout it made rather than saying an earlier order went unconfirmed.
 *
 * After the reload the widget opens on that purchase and sends the same create again; the traveller, impatient,
 * goes back and buys the plan again while it settles (its request held in the browser until then, so that the
 * second press meets an unsettled create every time). Every create the page sends carries the first one's key,
 * body and session.
 */
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { SandboxControl } from '../support/sandbox-control';
import type { SandboxHandle, StackUrls } from '../support/stack-urls';
import { CLOCK_PATH } from '../support/test-bff';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

const PLACING = 'Placing your order…';

/** An address no other test uses: the partner's checkouts are looked up by it. */
function travellerEmail(mode: string): string {
  return `reload-${mode}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The checkouts the partner's widgets made for `email` on `bff`, as the partner API lists them. */
async function checkoutsOf(
  request: APIRequestContext,
  stack: StackUrls,
  email: string,
  bff = stack.bff,
): Promise<{ id: string; status: string }[]> {
  const answer = await request.get(`${bff}/v1/partner/checkouts?email=${encodeURIComponent(email)}`, {
    headers: { 'X-Partner-Secret': stack.partnerSecret },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()).data;
}

/** The orders the upstream holds for a checkout (its `externalRef`), read with the account's own key. */
async function upstreamOrdersOf(
  sandbox: SandboxHandle,
  apiKey: string,
  checkoutId: string,
): Promise<unknown[]> {
  const answer = await fetch(`${sandbox.url}/orders?externalRef=${encodeURIComponent(checkoutId)}`, {
    headers: { 'X-Api-Key': apiKey },
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: unknown[] }).data;
}

/** Every create of a checkout the page sends (across reloads): its key, session and body. */
function recordCreates(page: Page, bff: string): () => Promise<string[]> {
  const creates: Promise<string>[] = [];
  const isCreate = (request: Request) =>
    request.method() === 'POST' && request.url() === `${bff}/v1/checkouts`;
  page.on('request', (request) => {
    if (!isCreate(request)) return;
    creates.push(
      request.allHeaders().then((headers) =>
        JSON.stringify({
          key: headers['idempotency-key'],
          session: headers.authorization,
          body: request.postDataJSON(),
        }),
      ),
    );
  });
  return () => Promise.all(creates);
}

/**
 * From now on the creates the page sends wait in the browser until `release()`; `held()` counts them. With
 * `loseFirst`, the first one goes to the BFF but its answer never reaches the page (`answerLost` resolves once
 * the BFF has answered it); the page waits for it until it reloads.
 */
async function holdCreates(page: Page, bff: string, loseFirst = false) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let markLost = () => {};
  const answerLost = new Promise<void>((resolve) => {
    markLost = resolve;
  });
  let losing = loseFirst;
  let held = 0;
  await page.route(`${bff}/v1/checkouts`, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    if (losing) {
      losing = false;
      await route.fetch();
      // Neither fulfilled nor continued: the page waits for an answer that does not come, until it reloads.
      markLost();
      return;
    }
    held += 1;
    await released;
    await route.continue();
  });
  return { release, answerLost, held: () => held };
}

/**
 * After the reload: the widget is back on the purchase, settling its create (held); the traveller goes back,
 * chooses the plan again and presses buy — which sends nothing new — and then the create is let through.
 */
async function buyAgainWhileSettling(widget: WidgetFlow, hold: { release: () => void; held: () => number }) {
  await expect(widget.root.getByRole('heading', { name: 'Checkout' })).toBeVisible({ timeout: 20_000 });
  await expect(widget.root.getByRole('button', { name: PLACING })).toBeVisible();
  await expect.poll(hold.held).toBe(1);
  await widget.root.getByRole('button', { name: /Back/ }).click();
  await widget.choosePlan();
  await widget.root.getByRole('button', { name: EN.buy }).click();
  await expect(widget.root.getByRole('button', { name: PLACING })).toBeVisible();
  expect(hold.held()).toBe(1);
  hold.release();
}

/** Every create the page sent was the first one again: one key, one session, one body. */
async function expectOneCreate(creates: () => Promise<string[]>) {
  const sent = await creates();
  expect(sent.length).toBeGreaterThanOrEqual(2);
  expect(new Set(sent).size, sent.join('\n')).toBe(1);
}

test('direct: a reload while the upstream is slow to place the order, then buying again, sells one eSIM', async ({
  page,
  stack,
  request,
  expectHttpErrors,
}) => {
  // The create repeated while the first one still runs at the BFF: 409 in_progress, and again after Retry-After.
  expectHttpErrors(409);
  const sandbox = new SandboxControl(stack.sandboxes.faults);
  await sandbox.setFaults([
    { kind: 'latency', method: 'POST', path: '/orders', latencyMs: 12_000, times: 1 },
  ]);
  try {
    const email = travellerEmail('direct');
    const creates = recordCreates(page, stack.bff);
    await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.reloadDirect}`);
    const widget = new WidgetFlow(page);
    await widget.ready();
    await widget.chooseDestination('Italy', 'Italy');
    await widget.choosePlan();
    await widget.buy(email);
    await expect(widget.root.getByRole('button', { name: PLACING })).toBeVisible();
    // The create runs at the BFF: its checkout is written, its order waits on the upstream.
    await expect.poll(async () => (await checkoutsOf(request, stack, email)).length).toBe(1);

    const hold = await holdCreates(page, stack.bff);
    await page.reload();
    await buyAgainWhileSettling(widget, hold);

    await widget.installed(60_000);
    const purchase = await waitForWidgetEvent(page, 'esim-purchase');
    const checkouts = await checkoutsOf(request, stack, email);
    expect(checkouts.map((checkout) => checkout.id)).toEqual([purchase.detail.checkoutId]);
    const [checkout] = checkouts;
    expect(checkout?.status).toBe('ready');
    expect(
      await upstreamOrdersOf(stack.sandboxes.faults, SANDBOX_KEYS.globetrotter, checkout?.id ?? ''),
    ).toHaveLength(1);
    await expectOneCreate(creates);
  } finally {
    await sandbox.clearFaults();
  }
});

test('direct: a reload after the session ended, the create’s answer lost, shows the checkout it made and sells one eSIM', async ({
  page,
  stack,
  request,
}) => {
  const bff = stack.bffLateReload;
  const email = travellerEmail('late');
  const creates = recordCreates(page, bff);
  // The page's clock runs as the real one until the test moves it (on this page and the reloaded one).
  await page.clock.install();
  await page.goto(
    `${stack.pages}/embed.html?widget=${TEST_WIDGETS.reloadLate}&bff=${encodeURIComponent(bff)}`,
  );
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Italy', 'Italy');
  await widget.choosePlan();
  const hold = await holdCreates(page, bff, true);
  await widget.buy(email);
  await hold.answerLost;
  const [made, ...others] = await checkoutsOf(request, stack, email, bff);
  expect(others).toEqual([]);

  // The session's 60 s pass, for the BFF and for the page, before the reload.
  expect((await request.post(`${bff}${CLOCK_PATH}`, { data: { ms: 62_000 } })).ok()).toBe(true);
  await page.clock.fastForward(62_000);
  await page.reload();
  await buyAgainWhileSettling(widget, hold);

  await widget.installed(60_000);
  expect((await waitForWidgetEvent(page, 'esim-purchase')).detail.checkoutId).toBe(made?.id);
  await expect(widget.root.getByText(/could not be confirmed/)).toHaveCount(0);
  const checkouts = await checkoutsOf(request, stack, email, bff);
  expect(checkouts.map((checkout) => [checkout.id, checkout.status])).toEqual([[made?.id, 'ready']]);
  expect(
    await upstreamOrdersOf(stack.sandboxes.main, SANDBOX_KEYS.globetrotter, made?.id ?? ''),
  ).toHaveLength(1);
  await expectOneCreate(creates);
});

test('partner_confirm: a reload after the create’s answer was lost, then buying again, makes one checkout, paid once', async ({
  page,
  stack,
  request,
  widgetEvents,
}) => {
  const email = travellerEmail('confirm');
  const creates = recordCreates(page, stack.bff);
  await page.goto(`${stack.bff}/?partner=lagoon&mode=partner_confirm&locale=en&theme=light`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Spain', 'Spain');
  await widget.choosePlan();
  const hold = await holdCreates(page, stack.bff, true);
  await widget.buy(email);
  await hold.answerLost;
  // The checkout exists and holds the partner's funds, but the page never heard of it.
  const [made, ...others] = await checkoutsOf(request, stack, email);
  expect(others).toEqual([]);
  expect(made?.status).toBe('awaiting_payment');
  expect((await widgetEvents()).filter((event) => event.type === 'esim-checkout')).toEqual([]);

  // The reload cancels the request whose answer the page still waits for.
  await page.reload();
  await buyAgainWhileSettling(widget, hold);

  // The page hears of that checkout as of a fresh one, and the partner's payment form opens for it.
  const announced = await waitForWidgetEvent(page, 'esim-checkout');
  expect(announced.detail).toMatchObject({ checkoutId: made?.id, mode: 'partner_confirm', resumed: false });
  const dialog = page.getByRole('dialog', { name: /^Pay / });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /^Pay / }).click();
  await expect(dialog).toBeHidden();
  await widget.installed();
  expect((await waitForWidgetEvent(page, 'esim-purchase')).detail.checkoutId).toBe(made?.id);

  const checkouts = await checkoutsOf(request, stack, email);
  expect(checkouts.map((checkout) => [checkout.id, checkout.status])).toEqual([[made?.id, 'ready']]);
  expect(await upstreamOrdersOf(stack.sandboxes.main, SANDBOX_KEYS.lagoon, made?.id ?? '')).toHaveLength(1);
  expect((await widgetEvents()).filter((event) => event.type === 'esim-checkout')).toHaveLength(1);
  await expectOneCreate(creates);
});
