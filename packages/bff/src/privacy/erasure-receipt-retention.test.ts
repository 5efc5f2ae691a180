/**
 * An erasure's receipt is the partner's proof that it was done, kept as long as the eSIM and its seller are: the
 * configured `retention.esimDays`, not that setting's default. Over HTTP against the real sandbox, on a clock the
 * test moves: a receipt of a BFF keeping eSIMs 365 days still reads on day 364 and is gone on day 366 (the default,
 * 730 days, would keep it a year longer).
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { PARTNER_SECRET_HEADER, PrivacyErasureResponseSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

it('keeps an erasure receipt the configured eSIM period, not the default', async () => {
  const checkoutId = await checkoutOnPage(await openWidget(running.server.url, 'shop'), {
    email: 'kept-receipt@example.com',
  });
  const asked = await partner('/v1/partner/privacy/erasures', { method: 'POST', body: { checkoutId } });
  expect(asked.status, asked.text).toBe(202);
  const receipt = PrivacyErasureResponseSchema.parse(asked.body).data;
  await running.bff.privacyErasures.runDue();
  await eventually(async () => {
    const read = await partner(`/v1/partner/privacy/erasures/${receipt.id}`);
    return read.body?.data?.status === 'completed' ? true : undefined;
  });

  clock.advance(364 * DAY_MS);
  const beforeItsEnd = await partner(`/v1/partner/privacy/erasures/${receipt.id}`);
  expect(beforeItsEnd.status, beforeItsEnd.text).toBe(200);
  clock.advance(2 * DAY_MS);
  const afterItsEnd = await partner(`/v1/partner/privacy/erasures/${receipt.id}`);
  expect(afterItsEnd.status, afterItsEnd.text).toBe(404);
  expect(afterItsEnd.body.error.code).toBeDefined();
});
