/**
 * @module
 * A reseller's backend, in the few lines it takes: the demo's "partner server" for `partner_confirm`.
 *
 * The widget fires `esim-checkout`; the partner's page takes the payment its own way and tells its own server,
 * which confirms the checkout with the BFF using the partner secret. The secret lives only here, on the
 * server: the browser never sees it, so a browser alone can never spend the partner's balance.
 *
 * Run on its own: `ESIM_DEMO_BFF_URL=http://localhost:8787 ESIM_DEMO_PARTNER_SECRET=… tsx demo/partner-server.ts`,
 * or mount `partnerServer(…)` into another Hono app (the demo's start script mounts it beside the BFF).
 */
import { serve } from '@hono/node-server';
import { type Env, Hono } from 'hono';

/** What the partner server needs to know. */
export interface PartnerServerOptions {
  /** The BFF's base URL, e.g. `http://localhost:8787`. */
  bffUrl: string;
  /** The widget's partner secret (the BFF config names its env variable in `partnerSecretEnv`). */
  partnerSecret: string;
}

/** The payment the page posts after its (pretend) payment form succeeded. */
interface PaymentRequest {
  checkoutId: string;
}

function isPaymentRequest(body: unknown): body is PaymentRequest {
  const checkoutId = (body as { checkoutId?: unknown } | null)?.checkoutId;
  return typeof checkoutId === 'string' && /^[\w-]{1,128}$/.test(checkoutId);
}

/**
 * The partner server's routes: `POST /demo-partner/payments` takes `{ checkoutId }`. Generic over the host
 * app's Hono environment so that it mounts into any app.
 */
export function partnerServer<E extends Env = Env>({ bffUrl, partnerSecret }: PartnerServerOptions): Hono<E> {
  const app = new Hono<E>();

  app.post('/demo-partner/payments', async function takePayment(c) {
    const body: unknown = await c.req.json().catch(() => null);
    if (!isPaymentRequest(body)) {
      return c.json({ error: { code: 'validation_failed', params: { field: 'checkoutId' } } }, 422);
    }
    const checkoutUrl = `${bffUrl}/v1/partner/checkouts/${encodeURIComponent(body.checkoutId)}`;
    const headers = { 'Content-Type': 'application/json', 'X-Partner-Secret': partnerSecret };

    // 1. Read the checkout from the BFF: charge exactly the amount it holds, never one the browser sent.
    const checkout = await fetch(checkoutUrl, { headers });
    if (!checkout.ok) return c.json(await checkout.json(), checkout.status as 400);

    // 2. Charge the traveller with your payment provider here. The demo pretends that it succeeded.
    const paymentReference = `demo-payment-${crypto.randomUUID()}`;

    // 3. Confirm: only now does the BFF place the order upstream. Safe to retry: a confirmed checkout stays so.
    const confirmed = await fetch(`${checkoutUrl}/confirm`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ paymentReference }),
    });
    return c.json(await confirmed.json(), confirmed.status as 200);
  });

  return app;
}

/** The server's settings from the environment, failing clearly when one is missing. */
function optionsFromEnvironment(): PartnerServerOptions & { port: number } {
  const bffUrl = process.env.ESIM_DEMO_BFF_URL ?? 'http://localhost:8787';
  const partnerSecret = process.env.ESIM_DEMO_PARTNER_SECRET;
  if (!partnerSecret) {
    throw new Error(
      'Set ESIM_DEMO_PARTNER_SECRET to the partner secret of the demo widgets (see the BFF config).',
    );
  }
  return { bffUrl, partnerSecret, port: Number(process.env.PORT ?? 8789) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port, ...options } = optionsFromEnvironment();
  serve({ fetch: partnerServer(options).fetch, port, hostname: '127.0.0.1' }, (info) => {
    console.log(`demo partner server on http://127.0.0.1:${info.port}`);
  });
}
