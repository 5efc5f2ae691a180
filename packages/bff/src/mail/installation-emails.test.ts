/**
 * The installation email over real HTTP and real SMTP: a widget with `mail`, the BFF in front of the real sandbox,
 * and an SMTP server started here on loopback. A purchase in German delivers one email — parsed: the partner's
 * brand and sender, the plan, the QR code decoding to the eSIM's activation string, the install links, the manage
 * link opening "my eSIM" of that eSIM — recorded on the checkout, in the partner's list and (pending) in the
 * `esim.ready` webhook's checkout, and never a second one,
 * with the address and the activation code in no log line. An SMTP server that refuses (5xx) and then accepts gets
 * one email, sent after the backoff (the BFF's clock moved), even with the BFF restarted on the same embedded store
 * in between.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHECKOUT_SECRET_HEADER,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
  type PartnerCheckout,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topUpablePlan, untilReady } from '../../testing/after-sale-flow';
import { qrTextOf, type SmtpReceiver, startSmtpReceiver } from '../../testing/smtp-receiver';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  SHOP_ORIGIN,
  type Stack,
  startBff,
  startStack,
  type TestClock,
  testClock,
  testConfig,
} from '../../testing/stack';
import {
  postingWebhooksTo,
  startReceiver as startWebhookReceiver,
  type WebhookReceiver,
} from '../../testing/webhook-receiver';
import type { BffConfigInput } from '../config/config-schema';
import { openSqliteStore } from '../store/sqlite-store';
import { QR_CONTENT_ID } from './installation-email';
import { INSTALLATION_EMAIL_BACKOFF } from './installation-email-sender';
import { INSTALLATION_EMAIL_WORDS } from './installation-email-words';

const MANAGE_PAGE = 'https://shop.example/esim';

/** The test config with the `shop` widget sending the installation email itself. */
const mailingConfig = (sandboxUrl: string): BffConfigInput => {
  const config = testConfig(sandboxUrl);
  return {
    ...config,
    widgets: config.widgets.map((widget) =>
      widget.id === 'shop'
        ? {
            ...widget,
            mail: {
              from: 'Test Shop <esim@shop.example>',
              replyTo: 'help@shop.example',
              manageUrl: MANAGE_PAGE,
            },
          }
        : widget,
    ),
  };
};

/** A traveller buys an eSIM in the `shop` widget, in `locale`, giving `email`; answers the ready checkout. */
async function buy(bffUrl: string, locale: 'de' | 'fr', email: string) {
  const page = await openWidget(bffUrl, 'shop');
  const plan = await topUpablePlan(page);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, email, locale, termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  expect(checkout.status, checkout.text).toBe(201);
  const { id, clientSecret } = checkout.body.data;
  await untilReady(page, id, clientSecret);
  return { page, plan, id, clientSecret };
}

/** The checkout as the partner's server reads it. */
async function readAsPartner(bffUrl: string, id: string): Promise<PartnerCheckout> {
  const answer = await call(bffUrl, `/v1/partner/checkouts/${id}`, {
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
  });
  if (answer.status !== 200) throw new Error(`partner read: ${answer.text}`);
  return answer.body.data;
}

describe('a purchase with the BFF’s mail transport', () => {
  let receiver: SmtpReceiver;
  let partnerServer: WebhookReceiver;
  let stack: Stack;
  let clock: TestClock;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
    partnerServer = await startWebhookReceiver();
    clock = testClock();
    stack = await startStack({
      config: (sandboxUrl) => postingWebhooksTo(mailingConfig(sandboxUrl), partnerServer.url),
      env: { ESIM_BFF_SMTP_URL: receiver.url, TEST_WEBHOOK_SECRET: `whsec_${newKey()}` },
      bffOptions: { now: clock.now, mail: { intervalMs: 25 }, webhooks: { intervalMs: 25 } },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
    await partnerServer?.close();
  });

  it('tells the widget that the partner emails the traveller', async () => {
    const start = await call(stack.server.url, '/v1/widgets/shop/start', {
      headers: { Origin: SHOP_ORIGIN },
    });
    expect(start.body.data.widget).toMatchObject({ emailSender: 'partner', emailRequired: false });
  });

  it('delivers one email in the traveller’s language: brand, plan, QR code, install links, a manage link that opens the eSIM', async () => {
    const email = `reisende-${newKey()}@example.com`;
    const { page, plan, id, clientSecret } = await buy(stack.server.url, 'de', email);
    // The brand the widget shows (the upstream account's, over the widget's own overrides).
    const brand = page.session.widget.brand.displayName;
    const [message] = await eventually(async () =>
      receiver.received.length > 0 ? receiver.received : undefined,
    );
    const words = INSTALLATION_EMAIL_WORDS.de;

    expect(message?.to).toMatchObject({ value: [{ address: email }] });
    expect(message?.from?.value).toEqual([{ name: 'Test Shop', address: 'esim@shop.example' }]);
    expect(message?.replyTo?.value).toEqual([{ name: '', address: 'help@shop.example' }]);
    expect(message?.messageId).toBe(`<installation.${id}@shop.example>`);
    expect(message?.subject).toBe(`${brand}: Ihre eSIM für ${plan.destination.name} ist bereit`);
    for (const part of [message?.text ?? '', String(message?.html)]) {
      expect(part).toContain(words.heading);
      expect(part).toContain(brand);
      expect(part).toContain(plan.title);
    }

    // The installation the traveller's own screen shows: its QR code, details and links are the email's.
    const installation = (
      await page.get(`/v1/checkouts/${id}/installation`, { [CHECKOUT_SECRET_HEADER]: clientSecret })
    ).body.data;
    const qr = message?.attachments.find((attachment) => attachment.cid === QR_CONTENT_ID);
    expect(qr?.contentType).toBe('image/png');
    expect(qrTextOf(qr?.content as Buffer)).toBe(installation.lpa);
    expect(String(message?.html)).toContain(`cid:${QR_CONTENT_ID}`);
    for (const value of [
      installation.activationCode,
      installation.smdpAddress,
      installation.ios,
      installation.android,
    ])
      expect(message?.text).toContain(value);

    // The manage link opens "my eSIM" of the eSIM this checkout issued.
    const manageLink = /https:\/\/shop\.example\/esim#esim=shop\.([a-z2-7]{26})/.exec(message?.text ?? '');
    expect(manageLink, message?.text).not.toBeNull();
    const partner = await readAsPartner(stack.server.url, id);
    const mine = await page.get('/v1/my-esim?locale=de', { [MANAGE_TOKEN_HEADER]: manageLink?.[1] ?? '' });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.esimId).toBe(partner.esimId);

    // Recorded on the checkout, and so in the partner's reads and lists.
    expect(partner.installationEmail).toMatchObject({
      status: 'sent',
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(Date.parse(partner.installationEmail?.sentAt ?? '')).toBeGreaterThan(0);
    const listed = await call(stack.server.url, `/v1/partner/checkouts?email=${encodeURIComponent(email)}`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(listed.body.data.map((checkout: PartnerCheckout) => checkout.installationEmail?.status)).toEqual([
      'sent',
    ]);

    // The partner heard of the eSIM with its email on the way.
    const ready = await eventually(async () =>
      partnerServer.received
        .map((delivery) => JSON.parse(delivery.body))
        .find((event) => event.type === 'esim.ready' && event.data.checkout.id === id),
    );
    expect(ready.data.checkout.installationEmail).toMatchObject({ status: 'pending', attempts: 0 });

    // Never a second one, however much later the sender looks again.
    clock.advance(2 * 60 * 60 * 1000);
    await stack.bff.installationEmails?.sendDue();
    expect(receiver.received).toHaveLength(1);

    // Neither the address nor the installation reached a log line.
    const logs = stack.logs.join('\n');
    expect(logs).toContain('installation email sent');
    expect(logs).not.toContain(email);
    expect(logs).not.toContain(installation.activationCode);
  });
});

describe('an SMTP server that refuses, then accepts, across a restart of the BFF', () => {
  const dataRoot = mkdtempSync(join(tmpdir(), 'esim-mail-'));
  let receiver: SmtpReceiver;
  let stack: Stack | undefined;
  let later: RunningBff | undefined;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
  });
  afterAll(async () => {
    await later?.server.close();
    await stack?.sandbox.close();
    await receiver?.close();
    rmSync(dataRoot, { recursive: true, force: true });
  });

  it('sends one email after the backoff, the restart in between', async () => {
    const dataDir = mkdtempSync(join(dataRoot, 'data-'));
    const clock = testClock();
    const env = { ESIM_BFF_SMTP_URL: receiver.url };
    const bffOptions = { now: clock.now, mail: { intervalMs: 25 } };
    stack = await startStack({ store: openSqliteStore({ dataDir }), config: mailingConfig, env, bffOptions });
    receiver.refuseNext(1, 554);
    const email = `voyageur-${newKey()}@example.com`;
    const { id } = await buy(stack.server.url, 'fr', email);

    // Refused once: recorded, and not tried again before its backoff is over.
    const refused = await eventually(async () => {
      const checkout = await readAsPartner(stack?.server.url ?? '', id);
      return checkout.installationEmail?.lastError === 'smtp 554' ? checkout.installationEmail : undefined;
    });
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(
      Date.parse(refused.nextAttemptAt ?? '') - Date.parse(refused.lastAttemptAt ?? ''),
    ).toBeGreaterThanOrEqual(INSTALLATION_EMAIL_BACKOFF.firstMs);
    await stack.bff.installationEmails?.sendDue();
    expect(receiver.refused).toBe(1);
    expect(receiver.received).toHaveLength(0);

    // The BFF stops and starts again on the same data; its clock passes the backoff.
    await stack.server.close();
    later = await startBff(stack.sandbox.url, {
      store: openSqliteStore({ dataDir }),
      config: mailingConfig,
      env,
      sessionSecret: stack.sessionSecret,
      bffOptions,
    });
    clock.advance(INSTALLATION_EMAIL_BACKOFF.firstMs);
    await eventually(async () => (receiver.received.length > 0 ? true : undefined));
    const [message] = receiver.received;
    expect(message?.to).toMatchObject({ value: [{ address: email }] });
    expect(message?.subject).toContain('votre eSIM est prête');

    const sent = await readAsPartner(later.server.url, id);
    expect(sent.installationEmail).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    // Still one, whatever the sender does later.
    clock.advance(2 * 60 * 60 * 1000);
    await later.bff.installationEmails?.sendDue();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.refused).toBe(1);
  }, 30_000);
});
