/**
 * @module
 * A reseller's backend for `partner_confirm`, runnable in the test environment: the demo's "partner server". It
 * shows the whole payment lifecycle a partner implements (docs/payments.md) around a pretend payment provider:
 * charge once per checkout, confirm, refund when the confirm comes too late or the order fails, cancel when the
 * traveller gives up, and a payment the bank approves later (3-D Secure).
 *
 * The partner secret and the webhook secret live only here, on the server: the browser never sees them, so a
 * browser alone can never spend the partner's balance. The page's routes take JSON only, from the page's own
 * origin (no other site can make a traveller's browser pay or cancel here), and the server listens on loopback
 * unless `HOST` says otherwise.
 *
 * It is a demo: it has no users. A real partner server authenticates its own customer, protects its forms
 * against cross-site requests, and ties each checkout id to that customer's session or cart before it charges
 * (docs/payments.md, "What a real partner server adds").
 *
 * Run on its own: `ESIM_DEMO_BFF_URL=http://localhost:8787 ESIM_DEMO_PARTNER_SECRET=… tsx demo/partner-server.ts`
 * (`HOST`, `PORT`, `ESIM_DEMO_PAGE_ORIGINS`),
 * or mount `partnerServer(…)` into another Hono app (the demo's start script mounts it beside the BFF).
 */
import { webhookHandler } from '@esim-embed/partner/hono';
import { serve } from '@hono/node-server';
import { type Context, type Env, Hono } from 'hono';
import { createEventDeduplicator } from './partner/esim-webhook';
import { fromOwnPage, jsonOnly } from './partner/page-requests';
import { createPartnerApiClient } from './partner/partner-api-client';
import { createPaymentLifecycle, type PaymentOutcome } from './partner/payment-lifecycle';
import { createPretendProvider, isTestPaymentMethod, TEST_PAYMENT_METHODS } from './partner/pretend-provider';

/** What the partner server needs to know. */
export interface PartnerServerOptions {
  /** The BFF's base URL, e.g. `http://localhost:8787`. */
  bffUrl: string;
  /** The widget's partner secret (the BFF config names its env variable in `partnerSecretEnv`). */
  partnerSecret: string;
  /** The secret the BFF signs webhooks with (the widget's `webhookSecretEnv`); without it no webhook is accepted. */
  webhookSecret?: string | undefined;
  /** This server's own base URL, where the pretend provider sends its webhook (default: `bffUrl`, mounted beside). */
  ownUrl?: string;
  /** Serve `GET /demo-partner/ledger`: what the partner charged, refunded and received. Test environment only. */
  exposeLedger?: boolean;
  /** How long the pretend provider waits after the bank's answer before its webhook leaves. */
  providerWebhookDelayMs?: number;
  /**
   * The origins of the pages that may call the page's routes (pay, cancel, the bank's answer); default: the
   * origins of `ownUrl` and `bffUrl` (the demo's pages are served beside it).
   */
  pageOrigins?: readonly string[];
}

const CHECKOUT_ID = /^[\w-]{1,128}$/;

/** Reads a JSON body, or null when it is not JSON. */
async function jsonBody(c: Context): Promise<Record<string, unknown> | null> {
  const body: unknown = await c.req.json().catch(() => null);
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
}

const invalid = (c: Context, field: string) =>
  c.json({ error: { code: 'validation_failed', params: { field } } }, 422);

/** A payment outcome as the partner's page reads it: `data` on success, the error envelope otherwise. */
function answerOutcome(c: Context, result: PaymentOutcome): Response {
  switch (result.outcome) {
    case 'confirmed':
      return c.json({
        data: { outcome: result.outcome, chargeId: result.chargeId, status: result.checkout.status },
      });
    case 'cancelled':
      return c.json({ data: { outcome: result.outcome, status: result.checkout.status } });
    case 'requires_action':
      // The bank's page (3-D Secure) is the provider's; the page shows it and the provider tells us the answer.
      return c.json(
        {
          data: {
            outcome: result.outcome,
            chargeId: result.chargeId,
            challengeUrl: `/demo-partner/provider/charges/${result.chargeId}/challenge`,
          },
        },
        202,
      );
    case 'confirm_pending':
      return c.json({ data: { outcome: result.outcome, chargeId: result.chargeId } }, 202);
    case 'declined':
      return c.json({ error: { code: 'card_declined', params: { chargeId: result.chargeId } } }, 402);
    case 'refunded':
      return c.json(
        { error: { code: 'payment_refunded', params: { reason: result.reason, refundId: result.refundId } } },
        409,
      );
    case 'refused':
      return c.json(
        { error: { code: result.code, params: result.params } },
        result.status >= 400 && result.status < 600 ? (result.status as 409) : 502,
      );
  }
}

/**
 * The partner server's routes, under `/demo-partner/`. Generic over the host app's Hono environment so that
 * it mounts into any app.
 */
export function partnerServer<E extends Env = Env>(options: PartnerServerOptions): Hono<E> {
  const ownUrl = options.ownUrl ?? options.bffUrl;
  const provider = createPretendProvider({
    webhookDelayMs: options.providerWebhookDelayMs,
    async notifyMerchant(chargeId) {
      await fetch(`${ownUrl}/demo-partner/provider-webhooks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ chargeId }),
      });
    },
  });
  const lifecycle = createPaymentLifecycle({ provider, bff: createPartnerApiClient(options) });
  const firstTime = createEventDeduplicator();
  const ownPage = fromOwnPage(options.pageOrigins ?? [ownUrl, options.bffUrl]);
  const app = new Hono<E>();

  // The page: "Pay" with a tokenised test card. Pressing it twice charges once.
  app.post('/demo-partner/payments', ownPage, async function takePayment(c) {
    const body = await jsonBody(c);
    const checkoutId = body?.checkoutId;
    const paymentMethod = body?.paymentMethod ?? TEST_PAYMENT_METHODS.visa;
    if (typeof checkoutId !== 'string' || !CHECKOUT_ID.test(checkoutId)) return invalid(c, 'checkoutId');
    if (!isTestPaymentMethod(paymentMethod)) return invalid(c, 'paymentMethod');
    return answerOutcome(c, await lifecycle.pay(checkoutId, paymentMethod));
  });

  // The page: the traveller closed the payment form without paying.
  app.post('/demo-partner/payments/:checkoutId/cancel', ownPage, async function abandonPayment(c) {
    const checkoutId = c.req.param('checkoutId');
    if (!CHECKOUT_ID.test(checkoutId)) return invalid(c, 'checkoutId');
    return answerOutcome(c, await lifecycle.abandon(checkoutId));
  });

  // The pretend provider's hosted bank page: the traveller approves or declines (3-D Secure).
  app.post('/demo-partner/provider/charges/:chargeId/challenge', ownPage, async function answerChallenge(c) {
    const approved = (await jsonBody(c))?.approved;
    if (typeof approved !== 'boolean') return invalid(c, 'approved');
    const charge = provider.answerChallenge(c.req.param('chargeId'), approved);
    if (charge === undefined) return c.json({ error: { code: 'not_found', params: {} } }, 404);
    return c.json({ data: { chargeId: charge.id, status: charge.status } });
  });

  // The pretend provider's webhook to the partner: a charge settled. Only its id is taken from the request.
  app.post('/demo-partner/provider-webhooks', jsonOnly(), async function providerWebhook(c) {
    const chargeId = (await jsonBody(c))?.chargeId;
    if (typeof chargeId !== 'string') return invalid(c, 'chargeId');
    await lifecycle.chargeSettled(chargeId);
    return c.body(null, 204);
  });

  // The BFF's signed webhooks, verified by the partner SDK over the raw body; each event handled once, answered
  // before the work.
  const esimWebhooks =
    options.webhookSecret === undefined
      ? (c: Context) => c.json({ error: { code: 'not_found', params: {} } }, 404)
      : webhookHandler({
          secret: options.webhookSecret,
          onEvent(event) {
            if (!firstTime(event.id)) return;
            lifecycle.checkoutEvent(event).catch((error: unknown) => {
              console.error(
                JSON.stringify({
                  level: 'error',
                  msg: 'webhook handling failed',
                  eventId: event.id,
                  error: String(error),
                }),
              );
            });
          },
        });
  app.post('/demo-partner/webhooks', esimWebhooks);

  if (options.exposeLedger) {
    app.get('/demo-partner/ledger', function readLedger(c) {
      return c.json({ data: lifecycle.ledger(c.req.query('checkoutId')) }, 200, {
        'Cache-Control': 'no-store',
      });
    });
  }

  return app;
}

/** The server's settings from the environment, failing clearly when one is missing. */
function optionsFromEnvironment(): PartnerServerOptions & { port: number; hostname: string } {
  const bffUrl = process.env.ESIM_DEMO_BFF_URL ?? 'http://localhost:8787';
  const partnerSecret = process.env.ESIM_DEMO_PARTNER_SECRET;
  if (!partnerSecret) {
    throw new Error(
      'Set ESIM_DEMO_PARTNER_SECRET to the partner secret of the demo widgets (see the BFF config).',
    );
  }
  const port = Number(process.env.PORT ?? 8789);
  const pageOrigins = process.env.ESIM_DEMO_PAGE_ORIGINS?.split(',').map((origin) => origin.trim());
  return {
    bffUrl,
    pageOrigins: pageOrigins ?? [bffUrl, `http://127.0.0.1:${port}`, `http://localhost:${port}`],
    partnerSecret,
    webhookSecret: process.env.ESIM_DEMO_WEBHOOK_SECRET || undefined,
    ownUrl: `http://127.0.0.1:${port}`,
    exposeLedger: process.env.ESIM_DEMO_EXPOSE_LEDGER === '1',
    port,
    // Loopback unless told otherwise: a demo with no users of its own is not for other machines to reach.
    hostname: process.env.HOST ?? '127.0.0.1',
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port, hostname, ...options } = optionsFromEnvironment();
  serve({ fetch: partnerServer(options).fetch, port, hostname }, (info) => {
    console.log(`demo partner server on http://${hostname}:${info.port} — a demo, not a partner's server`);
  });
}
