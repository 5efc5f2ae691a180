/**
 * The partner quickstart as a partner runs it: `server.ts` (at most 30 lines) started as its own process, configured
 * by its environment, against the real sandbox and BFF. A traveller's `partner_confirm` checkout is paid through
 * its `/pay` (charged once, confirmed, nothing charged again), and the BFF's signed webhooks reach it verified
 * while a forged one is refused, and the refusal is logged. Its text is the SDK README's, character for character.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkoutAsTraveller,
  eventually,
  freePort,
  PARTNER_SECRET,
  quickstartServerOf,
  type Stack,
  startStack,
  testConfig,
} from '@esim-embed/bff/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('server.ts', import.meta.url));
const WEBHOOK_SECRET = `whsec_${crypto.randomUUID()}`;

let stack: Stack;
let quickstart: ChildProcess;
let url: string;
let output = '';
/** The checkout the quickstart was paid for (`GET /v1/partner/checkouts/{id}`). */
let paidCheckout: { id: string; paymentReference: string | null };

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  stack = await startStack({
    config: (sandboxUrl) => {
      const base = testConfig(sandboxUrl, { checkoutWatchSeconds: 1 });
      return {
        ...base,
        widgets: base.widgets.map((widget) =>
          widget.id === 'shop-pay'
            ? { ...widget, webhookUrl: `${url}/webhooks/esim`, webhookSecretEnv: 'TEST_WEBHOOK_SECRET' }
            : widget,
        ),
      };
    },
    env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
    bffOptions: { webhooks: { intervalMs: 25 } },
  });
  quickstart = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    env: {
      ...process.env,
      ESIM_BFF_URL: stack.server.url,
      ESIM_PARTNER_SECRET: PARTNER_SECRET,
      ESIM_WEBHOOK_SECRET: `whsec_old_one,${WEBHOOK_SECRET}`,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  quickstart.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  quickstart.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await eventually(async () => {
    const page = await fetch(url).catch(() => undefined);
    return page?.ok ? true : undefined;
  }, 20_000);
});
afterAll(async () => {
  quickstart?.kill();
  await stack?.close();
});

const pay = async (checkoutId: string) => {
  const response = await fetch(`${url}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ checkoutId }),
  });
  return { status: response.status, body: await response.json() };
};

describe('the partner quickstart', () => {
  it('is at most 30 lines', () => {
    const lines = readFileSync(SERVER, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(30);
  });

  it('is the server the SDK’s README shows in full (the one the release’s tests run from the tarball)', () => {
    const sdk = dirname(createRequire(import.meta.url).resolve('@esim-embed/partner/package.json'));
    const readme = readFileSync(join(sdk, 'README.md'), 'utf8');
    expect(quickstartServerOf(readme)).toBe(readFileSync(SERVER, 'utf8'));
  });

  it('serves its page with the BFF’s widget script', async () => {
    const page = await (await fetch(url)).text();
    expect(page).toContain(`<script type="module" src="${stack.server.url}/widget.js"></script>`);
  });

  it('pays and confirms a partner_confirm checkout once, and receives the verified webhooks', async () => {
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const paid = await pay(checkoutId);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ outcome: 'confirmed', paymentReference: `pay_${checkoutId}` });
    // Pressed twice: nothing charged again.
    expect((await pay(checkoutId)).body).toMatchObject({ outcome: 'already_paid' });

    const read = await fetch(`${stack.server.url}/v1/partner/checkouts/${checkoutId}`, {
      headers: { 'X-Partner-Secret': PARTNER_SECRET },
    });
    paidCheckout = ((await read.json()) as { data: typeof paidCheckout }).data;
    expect(paidCheckout.paymentReference).toBe(`pay_${checkoutId}`);
    const delivered = (type: string) =>
      eventually(async () => (output.includes(`webhook ${type} evt_`) ? true : undefined));
    await delivered('checkout.awaiting_payment');
    await delivered('checkout.completed');
    await delivered('esim.ready');
  });

  it('refuses a webhook that is not the BFF’s, and answers a checkout that is over without charging', async () => {
    // A checkout.failed for the paid checkout, well-formed but signed with a guessed secret: were it taken, the
    // quickstart would refund a sale that went through.
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'checkout.failed',
      createdAt: new Date().toISOString(),
      widgetId: 'shop-pay',
      environment: 'test',
      data: { checkout: { ...paidCheckout, status: 'failed' }, esimId: null },
    });
    const t = Math.floor(Date.now() / 1000);
    const guessed = createHmac('sha256', 'whsec_guessed').update(`${t}.${body}`).digest('hex');
    const forged = await fetch(`${url}/webhooks/esim`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Esim-Signature': `t=${t},v1=${guessed}` },
      body,
    });
    expect(forged.status).toBe(400);
    expect(output).not.toContain(`refunded ${paidCheckout.id}`);
    expect(output).not.toContain('evt_forged');
    // Logged without a line of the partner's own: the SDK warns of a refused delivery by default.
    await eventually(async () =>
      output.includes('eSIM Embed webhook refused with 400: signature_mismatch') ? true : undefined,
    );
    expect(output).not.toContain('whsec_');

    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    const cancel = await fetch(`${stack.server.url}/v1/partner/checkouts/${checkoutId}/cancel`, {
      method: 'POST',
      headers: { 'X-Partner-Secret': PARTNER_SECRET },
    });
    expect(cancel.status).toBe(200);
    expect((await pay(checkoutId)).body).toMatchObject({ outcome: 'not_payable', paymentReference: null });
    expect(output).not.toContain(`refunded ${checkoutId}`);
  });
});
