/**
 * `platform` delivery over HTTP: a widget configured `deliveryMode: 'platform'` asks for the traveller's email,
 * passes it on the upstream order with the checkout id as `recipient.reference`, and the sandbox's outbox holds
 * the email the service would send (brand-aware presentation), whose link opens the installation page.
 * A `partner` delivery widget passes the reference too, and no email is sent: nor does the address go upstream
 * (the order the sandbox keeps holds none), since nothing upstream uses it.
 */
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topUpablePlan, untilReady } from '../../testing/after-sale-flow';
import { newKey, openWidget, type Stack, startStack, testConfig } from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    config: (sandboxUrl) => {
      const base = testConfig(sandboxUrl);
      const widgets = base.widgets.flatMap((widget) =>
        widget.id === 'shop'
          ? [widget, { ...widget, id: 'shop-email', deliveryMode: 'platform' as const }]
          : [widget],
      );
      return { ...base, widgets };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

async function buy(widgetId: string, email?: string) {
  const page = await openWidget(stack.server.url, widgetId);
  const plan = await topUpablePlan(page);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'de', termsAccepted: true, ...(email ? { email } : {}) },
    { 'Idempotency-Key': newKey() },
  );
  return { page, checkout };
}

/** The recipient of the upstream order of checkout `checkoutId`, as the sandbox keeps it. */
async function upstreamRecipient(checkoutId: string): Promise<Record<string, unknown>> {
  const answer = await fetch(`${stack.sandbox.url}/orders?externalRef=${encodeURIComponent(checkoutId)}`, {
    headers: { 'X-Api-Key': SANDBOX_KEYS.globetrotter },
  });
  const body = (await answer.json()) as {
    data: { externalRef: string; recipient: Record<string, unknown> }[];
  };
  const [order, ...others] = body.data.filter((found) => found.externalRef === checkoutId);
  expect(others).toEqual([]);
  return order?.recipient ?? {};
}

describe('platform delivery', () => {
  it('needs the traveller’s email', async () => {
    const { page, checkout } = await buy('shop-email');
    expect(page.session.widget.emailRequired).toBe(true);
    // The widget tells the traveller the upstream sends it.
    expect(page.session.widget.emailSender).toBe('upstream');
    expect(checkout.status).toBe(422);
    expect(checkout.body.error.params).toMatchObject({ field: 'email' });
  });

  it('the service’s email reaches the outbox with the checkout id as reference', async () => {
    const email = `traveller-${newKey()}@example.com`;
    const { page, checkout } = await buy('shop-email', email);
    expect(checkout.status, checkout.text).toBe(201);
    const { id, clientSecret } = checkout.body.data;
    await untilReady(page, id, clientSecret);
    const [sent, ...more] = await stack.sandbox.control.outbox({ to: email });
    expect(more).toEqual([]);
    expect(sent).toMatchObject({
      to: email,
      reference: id,
      locale: 'de',
      presentation: 'brand_aware',
      senderName: 'Globetrotter',
      replyTo: 'help@globetrotter.example',
    });
    expect(sent?.text).toContain(sent?.attribution ?? '-');
    // The upstream sends it, so its order holds the address.
    expect(await upstreamRecipient(id)).toMatchObject({ email, reference: id });
    const installation = await page.get(`/v1/checkouts/${id}/installation`, {
      [CHECKOUT_SECRET_HEADER]: clientSecret,
    });
    const pageText = await (await fetch(sent?.deliveryUrl ?? '')).text();
    expect(pageText).toContain(installation.body.data.activationCode);
  });

  it('partner delivery sends no email', async () => {
    const email = `partner-${newKey()}@example.com`;
    const { page, checkout } = await buy('shop', email);
    await untilReady(page, checkout.body.data.id, checkout.body.data.clientSecret);
    expect(await stack.sandbox.control.outbox({ to: email })).toEqual([]);
    // Nothing upstream sends it: the order carries the checkout id as its reference, and no address.
    const recipient = await upstreamRecipient(checkout.body.data.id);
    expect(recipient).toMatchObject({ email: null, reference: checkout.body.data.id, locale: 'de' });
    expect(JSON.stringify(recipient)).not.toContain(email);
  });
});
