/**
 * @module
 * What a traveller does in the widget, as test steps: open a destination's plans, choose a plan, fill in
 * the checkout, follow the order's status reads, buy until the installation shows. Also the per-test cleanup of
 * the page.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { expect, vi } from 'vitest';
import { POLL_DELAYS } from '../src/steps/progress-step';
import type { FakeBff, RecordedRequest } from './fake-bff';
import { type MountedWidget, mountWidget, QUERY_INTERVAL_MS } from './mount-widget';
import { passTimeUntil } from './test-clock';

/** Empties the page, the tab's storage and the stubs between tests. */
export function cleanUpPage(): void {
  document.body.replaceChildren();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}

/**
 * Waits for the whole destination list. The popular destinations come in the first frame, regions and
 * countries in later tasks (a slice per task), so Turkey is shown twice only once the countries are in.
 */
export async function waitForAllDestinations({ view }: Pick<MountedWidget, 'view'>): Promise<void> {
  // Above testing-library's 1 s default: the slices are timer tasks, late on a loaded CI machine.
  await waitFor(() => expect(view.getAllByRole('button', { name: /Turkey/ })).toHaveLength(2), {
    timeout: 3000,
    interval: QUERY_INTERVAL_MS,
  });
}

/** Opens Turkey's plans from the destination list. */
export async function openPlans({ view }: MountedWidget): Promise<void> {
  fireEvent.click((await view.findAllByRole('button', { name: /Turkey/ }))[0] as HTMLElement);
  await view.findByRole('heading', { name: /eSIM plans for Turkey/ });
  await view.findAllByRole('button', { name: /^Choose / });
}

/** Opens the checkout of a plan of Turkey and waits for its held price. */
export async function openCheckout(widget: MountedWidget, planLabel = /1 GB, 7 days/): Promise<void> {
  await openPlans(widget);
  fireEvent.click(widget.view.getByRole('button', { name: planLabel }));
  await widget.view.findByRole('heading', { name: 'Checkout' });
  await widget.view.findByRole('timer');
}

/** Types an email and accepts the terms. */
export function fillCheckout({ view }: MountedWidget, email = 'traveller@example.com'): void {
  fireEvent.input(view.getByLabelText('Email'), { target: { value: email } });
  fireEvent.click(view.getByLabelText(/I accept the terms/));
}

/** The status reads of checkouts the fake has seen, oldest first. */
export function statusReads(bff: FakeBff): RecordedRequest[] {
  return bff.requestsTo('GET', /^\/v1\/checkouts\/[^/]+$/);
}

/** The status poll's own delays before the `reads`-th read of one checkout (the first comes at once). */
function pollDelaysBefore(reads: number): number {
  let total = 0;
  for (let read = 1; read < reads; read++)
    total += POLL_DELAYS[Math.min(read - 1, POLL_DELAYS.length - 1)] ?? 0;
  return total;
}

/**
 * Follows the order until the fake has seen `reads` status reads in all (by default one per status of its
 * journey). The first read comes as soon as the progress step shows, which is waited for in real time (its code
 * may still be loading); every later one comes after the status poll's delay, which the test clock lets pass at
 * once (`runOnTestClock`). Fails when the reads take more of the widget's time than the poll's delays and 10 s.
 */
export async function followOrder(bff: FakeBff, reads = bff.journey.length): Promise<void> {
  await waitFor(() => expect(statusReads(bff).length).toBeGreaterThan(0), {
    timeout: 8000,
    interval: QUERY_INTERVAL_MS,
  });
  await passTimeUntil(() => statusReads(bff).length >= reads, pollDelaysBefore(reads) + 10_000);
}

/** Buys the cheapest plan of Turkey and waits for the installation (on the test clock: `runOnTestClock`). */
export async function buyAndInstall(bff: FakeBff): Promise<MountedWidget> {
  const widget = await mountWidget(bff);
  await openCheckout(widget);
  fillCheckout(widget);
  fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
  await followOrder(bff);
  await widget.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 });
  return widget;
}
