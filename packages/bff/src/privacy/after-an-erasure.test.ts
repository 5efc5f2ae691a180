/**
 * What stands after an erasure, over HTTP against the real sandbox on a clock the test moves:
 * - the tab that bought the erased sale (its client secret) is refused the eSIM's installation data, a delivery link
 *   and a new manage link with `erased` (410), as the sale's manage links are; the partner's server still reads it;
 * - the receipt is the partner's proof that it was done, kept as long as the eSIM and its seller are: the configured
 *   `retention.esimDays`, not that setting's default — a receipt of a BFF keeping eSIMs 365 days still reads on day
 *   364 and is gone on day 366 (the default, 730 days, would keep it a year longer).
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import {
  CHECKOUT_SECRET_HEADER,
  PARTNER_SECRET_HEADER,
  PrivacyErasureResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buyEsim } from '../../testing/after-sale-flow';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  startBff,
  type TestClock,
  testClock,
  testConfig,
} from '../../testing/stack';
import { checkoutOnPage } from '../../testing/traveller-checkout';
import { createMemoryStore } from '../store/memory-store';

const DAY_MS = 24 * 60 * 60 * 1000;

let sandbox: RunningSandbox;
let running: RunningBff;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock();
  sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
  running = await startBff(sandbox.url, {
    sessionSecret: randomBytes(32),
    store: createMemoryStore({ now: clock.now }),
    config: (url) => ({ ...testConfig(url), retention: { esimDays: 365 } }),
    bffOptions: { now: clock.now },
  });
});
afterAll(async () => {
  await running?.server.close();
  await sandbox?.close();
});

const partner = (path: string, init: { method?: string; body?: unknown } = {}) =>
  call(running.server.url, path, {
    ...init,
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
  });

/** Erase the traveller of `checkoutId` and wait until it is done; the receipt's id. */
async function erase(checkoutId: string): Promise<string> {
  const asked = await partner('/v1/partner/privacy/erasures', { method: 'POST', body: { checkoutId } });
  expect(asked.status, asked.text).toBe(202);
  const receipt = PrivacyErasureResponseSchema.parse(asked.body).data;
  await running.bff.privacyErasures.runDue();
  await eventually(async () => {
    const read = await partner(`/v1/partner/privacy/erasures/${receipt.id}`);
    return read.body?.data?.status === 'completed' ? true : undefined;
  });
  return receipt.id;
}

it('refuses the tab that bought an erased sale its eSIM, as its manage links are; the partner still reads it', async () => {
  const page = await openWidget(running.server.url, 'shop');
  const bought = await buyEsim(page);
  const secret = { [CHECKOUT_SECRET_HEADER]: bought.clientSecret };
  const before = await page.get(`/v1/checkouts/${bought.checkoutId}/installation`, secret);
  expect(before.status, before.text).toBe(200);

  await erase(bought.checkoutId);
  const installation = await page.get(`/v1/checkouts/${bought.checkoutId}/installation`, secret);
  expect(installation.status, installation.text).toBe(410);
  expect(installation.body.error.code).toBe('erased');
  const link = await page.post(`/v1/checkouts/${bought.checkoutId}/manage-link`, {}, secret);
  expect(link.status, link.text).toBe(410);
  expect(link.body.error.code).toBe('erased');
  const deliveryLink = await page.post(
    `/v1/checkouts/${bought.checkoutId}/delivery-links`,
    {},
    { ...secret, 'Idempotency-Key': newKey() },
  );
  expect(deliveryLink.status, deliveryLink.text).toBe(410);
  const partnerRead = await partner(`/v1/partner/checkouts/${bought.checkoutId}/installation`);
  expect(partnerRead.status, partnerRead.text).toBe(200);
});

it('keeps an erasure receipt the configured eSIM period, not the default', async () => {
  const checkoutId = await checkoutOnPage(await openWidget(running.server.url, 'shop'), {
    email: 'kept-receipt@example.com',
  });
  const receiptId = await erase(checkoutId);

  clock.advance(364 * DAY_MS);
  const beforeItsEnd = await partner(`/v1/partner/privacy/erasures/${receiptId}`);
  expect(beforeItsEnd.status, beforeItsEnd.text).toBe(200);
  clock.advance(2 * DAY_MS);
  const afterItsEnd = await partner(`/v1/partner/privacy/erasures/${receiptId}`);
  expect(afterItsEnd.status, afterItsEnd.text).toBe(404);
  expect(afterItsEnd.body.error.code).toBeDefined();
});
