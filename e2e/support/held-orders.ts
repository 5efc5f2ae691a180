/**
 * @module
 * Orders that finish when the test says so, so that a test looks at the progress screen as long as it needs and
 * then goes on at once instead of waiting out a provisioning delay in real time. The `held` and `tour` sandboxes
 * take {@link HELD_DELIVERY_MS} of their own time to deliver an eSIM; {@link holdProgress} keeps the widget's
 * status reads in the browser from then on, and its `release` moves the sandbox's clock past the delivery and lets
 * the held read through, which then answers `ready` ({@link deliverHeldOrders} alone when the widget may just poll
 * again). Moving the clock delivers every order of that sandbox: tests of one held sandbox run one after another.
 */
import type { Page, Route } from '@playwright/test';
import { SandboxControl } from './sandbox-control';
import type { SandboxHandle } from './stack-urls';

/** How long a held sandbox takes to deliver an eSIM, in its own time (far longer than any test looks). */
export const HELD_DELIVERY_MS = 60_000;

/** A checkout's status read (`GET /v1/checkouts/{id}`), not its installation or any other path below it. */
const STATUS_READ = /\/v1\/checkouts\/[^/?#]+(?:\?[^#]*)?$/;

/**
 * From now on the page's status reads wait in the browser (the widget stays on the progress screen whatever the
 * sandbox says); the returned `release` finishes the held sandbox's orders and lets the reads through.
 */
export async function holdProgress(page: Page, sandbox: SandboxHandle): Promise<() => Promise<void>> {
  let open: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    open = resolve;
  });
  const hold = async (route: Route) => {
    if (route.request().method() === 'GET') await released;
    await route.fallback();
  };
  await page.route(STATUS_READ, hold);
  return async () => {
    await deliverHeldOrders(sandbox);
    open();
    await page.unroute(STATUS_READ, hold);
  };
}

/** Delivers the orders a held sandbox has in hand: its clock moves past {@link HELD_DELIVERY_MS}. */
export async function deliverHeldOrders(sandbox: SandboxHandle): Promise<void> {
  await new SandboxControl(sandbox).advanceClock(HELD_DELIVERY_MS);
}
