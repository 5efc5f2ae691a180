/**
 * The session tells the widget who emails the traveller the installation details, so that it promises only
 * what happens: the partner (`partner` delivery, the default), or nobody when the partner's config says it sends
 * none — then the widget asks for no email. (`platform` delivery: `checkout/platform-delivery.test.ts`.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWidget, type Stack, startStack, testConfig } from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    config: (sandboxUrl) => {
      const config = testConfig(sandboxUrl);
      return {
        ...config,
        widgets: config.widgets.map((widget) =>
          widget.id === 'shop-pay' ? { ...widget, partnerSendsEmail: false } : widget,
        ),
      };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

describe('who sends the email', () => {
  it('is the partner in partner delivery, and nobody where the partner sends none', async () => {
    expect((await openWidget(stack.server.url, 'shop')).session.widget).toMatchObject({
      emailSender: 'partner',
      emailRequired: false,
    });
    expect((await openWidget(stack.server.url, 'shop-pay')).session.widget).toMatchObject({
      emailSender: 'none',
      emailRequired: false,
    });
  });
});
