/**
 * A checkout's dates follow the BFF's clock, as every lifetime does: a BFF whose clock runs ten days ahead of the
 * machine's (the test's) stamps a checkout's creation and each of its changes on its own clock — a change stamped by
 * the machine's clock would date it before its own creation, and the retention reckoned from it would be wrong.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  call,
  eventually,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  startBff,
  testClock,
  testConfig,
} from '../../testing/stack';
import { checkoutOnPage } from '../../testing/traveller-checkout';
import { createMemoryStore } from '../store/memory-store';

const AHEAD_MS = 10 * 24 * 60 * 60 * 1000;

let sandbox: RunningSandbox;
let running: RunningBff;
const clock = testClock();

beforeAll(async () => {
  clock.advance(AHEAD_MS);
  sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
  await sandbox.control.advanceClock(AHEAD_MS);
  running = await startBff(sandbox.url, {
    sessionSecret: randomBytes(32),
    store: createMemoryStore({ now: clock.now }),
    config: (url) => testConfig(url, { checkoutWatchSeconds: 1 }),
    bffOptions: { now: clock.now },
  });
});
afterAll(async () => {
  await running?.server.close();
  await sandbox?.close();
});

it('stamps a checkout and each change of it on the BFF clock', async () => {
  const checkoutId = await checkoutOnPage(await openWidget(running.server.url, 'shop'));
  const ready = await eventually(async () => {
    const read = await call(running.server.url, `/v1/partner/checkouts/${checkoutId}`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    return read.body?.data?.status === 'ready' ? read.body.data : undefined;
  });
  const createdAt = Date.parse(ready.createdAt);
  const updatedAt = Date.parse(ready.updatedAt);
  expect(createdAt).toBeGreaterThan(Date.now() + AHEAD_MS / 2);
  expect(updatedAt).toBeGreaterThanOrEqual(createdAt);
  expect(updatedAt).toBeLessThanOrEqual(clock.now());
});
