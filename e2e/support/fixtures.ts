/**
 * @module
 * The suite's `test`: Playwright's, plus the running stack's URLs, the widget's events recorded on the page
 * (every event of the widget's manifest, `event-recorder.ts`), and a console watch that fails any test whose
 * page logged an error it did not expect. Browsers log every 4xx/5xx response as a console error, so a test
 * that provokes one (a refused origin, an expired quote) names the statuses it expects with `expectHttpErrors`.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { eventRecorderScript } from './event-recorder';
import { type StackUrls, stackUrls } from './stack-urls';

/** A widget event as the page received it. */
export interface RecordedEvent {
  type: string;
  detail: Record<string, unknown>;
  /** The `widget-id` of the element that fired it. */
  widgetId: string | null;
}

interface Fixtures {
  stack: StackUrls;
  /** Declares the HTTP statuses this test provokes on purpose (their console lines are not failures). */
  expectHttpErrors: (...statuses: number[]) => void;
  /** Every widget event fired so far on the current page (re-armed after each navigation). */
  widgetEvents: () => Promise<RecordedEvent[]>;
}

const RECORDER = eventRecorderScript();

const HTTP_ERROR = /Failed to load resource: the server responded with a status of (\d{3})/;

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  stack: async ({}, use) => {
    await use(stackUrls());
  },

  expectHttpErrors: [
    async ({ page }, use) => {
      const allowed = new Set<number>();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const status = HTTP_ERROR.exec(message.text())?.[1];
        if (status && allowed.has(Number(status))) return;
        problems.push(`console.error: ${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.stack ?? error.message}`));
      await use((...statuses) => {
        for (const status of statuses) allowed.add(status);
      });
      expect(problems, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],

  widgetEvents: [
    async ({ page }, use) => {
      await page.addInitScript({ content: RECORDER });
      await use(() =>
        page.evaluate(() => (window as unknown as { __esimEvents?: RecordedEvent[] }).__esimEvents ?? []),
      );
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until the page has received a widget event of `type` (optionally from one widget) and returns it. */
export async function waitForWidgetEvent(
  page: Page,
  type: string,
  widgetId?: string,
): Promise<RecordedEvent> {
  const handle = await page.waitForFunction(
    ([wanted, id]) =>
      (window as unknown as { __esimEvents?: RecordedEvent[] }).__esimEvents?.find(
        (event) => event.type === wanted && (!id || event.widgetId === id),
      ),
    [type, widgetId] as const,
    { timeout: 30_000 },
  );
  return (await handle.jsonValue()) as RecordedEvent;
}

/** The minor units of an event's `amount` (`{ amountMinor, currency }`); fails the test when it is not one. */
export function amountOf(amount: unknown): number {
  const minor = (amount as { amountMinor?: unknown } | null | undefined)?.amountMinor;
  expect(typeof minor, 'an amount in minor units').toBe('number');
  return minor as number;
}
