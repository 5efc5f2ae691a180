/**
 * The demo partner server refuses forged payments: a page of another site that makes the traveller's browser
 * post a real checkout id (`text/plain` or a form, which need no CORS preflight) charges nothing and confirms
 * nothing; the partner's own page may not send anything but JSON either; a request that says it comes from
 * another site is refused whatever its `Origin`. The checkout stays awaiting payment and the partner's ledger
 * stays empty.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import type { StackUrls } from '../support/stack-urls';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

async function partnerStatus(request: APIRequestContext, stack: StackUrls, checkoutId: string) {
  const answer = await request.get(`${stack.bff}/v1/partner/checkouts/${checkoutId}`, {
    headers: { 'X-Partner-Secret': stack.partnerSecret },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()).data.status as string;
}

test('a cross-site text/plain or form POST with a real checkout id neither charges nor confirms', async ({
  page,
  stack,
  request,
}) => {
  // A checkout awaiting payment, its id handed to the page (any page of the trip can learn one).
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.confirm}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Spain', 'Spain');
  await widget.choosePlan();
  await widget.buy();
  const checkoutId = String((await waitForWidgetEvent(page, 'esim-checkout')).detail.checkoutId);

  // A page of another site than the partner server's forges what the partner's page would send (in a tab of
  // its own: the browser logs the answers it hides from that page).
  const target = `${stack.bff}/demo-partner/payments`;
  const body = JSON.stringify({ checkoutId, paymentMethod: 'pm_card_visa' });
  const attacker = await page.context().newPage();
  await attacker.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.confirm}`);
  await attacker.evaluate(
    async ({ target, body, checkoutId }) => {
      // The answers are hidden from this page (or fail to load here): the requests leave all the same.
      const send = (url: string, init: RequestInit) =>
        fetch(url, { ...init, method: 'POST', mode: 'no-cors' }).catch(() => null);
      await send(target, { headers: { 'Content-Type': 'text/plain' }, body });
      await send(`${target}/${checkoutId}/cancel`, { body: '{}' });
      await send(target, { body: new URLSearchParams({ checkoutId, paymentMethod: 'pm_card_visa' }) });
    },
    { target, body, checkoutId },
  );

  // The same body from the partner's own origin, but as text: refused too.
  const asText = await request.post(target, {
    headers: { Origin: stack.bff, 'Content-Type': 'text/plain' },
    data: body,
  });
  expect(asText.status()).toBe(415);
  // JSON that says it comes from another site, whatever Origin it claims.
  const crossSite = await request.post(target, {
    headers: { Origin: stack.bff, 'Sec-Fetch-Site': 'cross-site' },
    data: { checkoutId, paymentMethod: 'pm_card_visa' },
  });
  expect(crossSite.status()).toBe(403);
  const noOrigin = await request.post(target, { data: { checkoutId, paymentMethod: 'pm_card_visa' } });
  expect(noOrigin.status()).toBe(403);

  expect(await partnerStatus(request, stack, checkoutId)).toBe('awaiting_payment');
  const ledger = await request.get(`${stack.bff}/demo-partner/ledger?checkoutId=${checkoutId}`);
  const { charges, events } = (await ledger.json()).data as {
    charges: unknown[];
    events: { kind: string }[];
  };
  expect(charges).toEqual([]);
  expect(events.filter((event) => event.kind === 'confirm' || event.kind === 'cancel')).toEqual([]);

  // The partner's own page, in JSON, still pays: the refusals were about where the request came from.
  const paid = await request.post(target, {
    headers: { Origin: stack.bff },
    data: { checkoutId, paymentMethod: 'pm_card_visa' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  await expect.poll(() => partnerStatus(request, stack, checkoutId)).not.toBe('awaiting_payment');
});
