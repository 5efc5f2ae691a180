/**
 * The widget's start tells it who emails the traveller the installation details, so that it promises only what
 * happens: the partner's name when the BFF sends the email itself (`mail` and an SMTP server) or when the partner
 * says it sends one (`partnerSendsEmail: true`); nobody otherwise — then the widget asks for no email unless the
 * partner requires one, and promises none. (`platform` delivery: `checkout/platform-delivery.test.ts`.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, SHOP_ORIGIN, type Stack, startStack, testConfig } from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    config: (sandboxUrl) => {
      const config = testConfig(sandboxUrl);
      const shop = config.widgets[0] as (typeof config.widgets)[number];
      return {
        ...config,
        widgets: [
          ...config.widgets,
          { ...shop, id: 'shop-required', emailRequired: true },
          { ...shop, id: 'shop-partner-sends', partnerSendsEmail: true },
          { ...shop, id: 'shop-mail', mail: { from: 'esim@shop.example' } },
        ],
      };
    },
    // Read at start; the start answers nothing about it and nothing is sent here.
    env: { ESIM_BFF_SMTP_URL: 'smtp://127.0.0.1:25' },
  });
});
afterAll(async () => {
  await stack?.close();
});

const startOf = async (widgetId: string) =>
  (await call(stack.server.url, `/v1/widgets/${widgetId}/start`, { headers: { Origin: SHOP_ORIGIN } })).body
    .data.widget;

describe('who sends the email', () => {
  it('is nobody where nothing sends it: no transport, no word from the partner', async () => {
    expect(await startOf('shop')).toMatchObject({ emailSender: 'none', emailRequired: false });
    expect(await startOf('shop-required')).toMatchObject({ emailSender: 'none', emailRequired: true });
  });

  it('is the partner where the BFF sends it in the partner’s name, or the partner says it does', async () => {
    expect(await startOf('shop-mail')).toMatchObject({ emailSender: 'partner', emailRequired: false });
    expect(await startOf('shop-partner-sends')).toMatchObject({ emailSender: 'partner' });
  });
});
