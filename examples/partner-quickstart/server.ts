// A partner_confirm server on @esim-embed/partner: its page, a pretend charge, confirm, refunds, webhooks.
import { readFileSync } from 'node:fs';
import { type CheckoutWebhookEvent, createPartnerClient, type PartnerCheckout } from '@esim-embed/partner';
import { webhookHandler } from '@esim-embed/partner/hono';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';

const { ESIM_BFF_URL: bff = 'http://localhost:8787', ESIM_WEBHOOK_SECRET = '', PORT = '8790' } = process.env;
const esim = createPartnerClient({ baseUrl: bff, partnerSecret: process.env.ESIM_PARTNER_SECRET ?? '' });
const charges = new Map<string, PartnerCheckout['amount']>(); // your payment provider (pretend), by key
const payments = {
  charge: async ({ amount }: PartnerCheckout, key: string) => {
    charges.set(key, charges.get(key) ?? amount); // charge the BFF's amount once per key (the checkout id)
    return `pay_${key}`;
  },
  refund: async ({ id }: Pick<PartnerCheckout, 'id'>) => charges.delete(id) && console.log(`refunded ${id}`),
};
const unsold = (event: CheckoutWebhookEvent) => payments.refund(event.data.checkout); // no eSIM: refund
const handlers = { 'checkout.failed': unsold, 'checkout.expired': unsold, 'checkout.cancelled': unsold };
const log = (event: { type: string; id: string }) => console.log(`webhook ${event.type} ${event.id}`);
const webhooks = webhookHandler({ secret: ESIM_WEBHOOK_SECRET.split(','), onEvent: log, handlers });
const page = readFileSync(process.env.PAGE ?? new URL('index.html', import.meta.url), 'utf8'); // your page
const app = new Hono().use(csrf()); // a real server also authenticates its customer, owner of the checkout

app.get('/', (c) => c.html(page.replaceAll('{{BFF}}', bff)));
app.post('/pay', async (c) => c.json(await esim.checkouts.pay((await c.req.json()).checkoutId, payments)));
app.post('/webhooks/esim', webhooks);
app.onError((error, c) => c.json({ error: 'code' in error ? error.code : 'internal' }, 502));
serve({ fetch: app.fetch, port: Number(PORT), hostname: '127.0.0.1' });
