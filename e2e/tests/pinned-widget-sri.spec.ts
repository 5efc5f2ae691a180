/**
 * A partner page on another origin pins a version of the widget with Subresource Integrity, as the widget's
 * README documents (`pages/pinned-widget.html`): `/widget@<version>/widget.js` with its `integrity`, and the chunks through the import map's
 * `integrity` section. With the published hashes the widget renders and sells; with a wrong hash for the loader,
 * or for the app chunk, Chromium refuses the script and the widget never runs.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WidgetIntegritySchema } from '@esim-embed/shared';
import { WIDGET_DIST } from '@esim-embed/widget-testing';
import { expect, type Page, test } from '@playwright/test';
import { stackUrls } from '../support/stack-urls';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

/** The pinned version's base URL (the version the suite's widget build names), on the BFF. */
function pinnedBase(): string {
  const { version } = WidgetIntegritySchema.parse(
    JSON.parse(readFileSync(join(WIDGET_DIST, 'integrity.json'), 'utf8')),
  );
  return `${stackUrls().bff}/widget@${version}/`;
}

/** The integrity the BFF publishes for the pinned version, and the chunk `widget.js` loads the app from. */
async function published(): Promise<{ files: Record<string, string>; appChunk: string }> {
  const base = pinnedBase();
  const integrity = WidgetIntegritySchema.parse(await (await fetch(`${base}integrity.json`)).json());
  const loader = await (await fetch(`${base}widget.js`)).text();
  const appChunk = /\.\/(widget-chunks\/[^"'`]+\.js)/.exec(loader)?.[1];
  if (appChunk === undefined) throw new Error('widget.js imports no chunk');
  return { files: integrity.files, appChunk };
}

/** Opens the partner page (`pages/pinned-widget.html`) embedding the pinned version with these hashes. */
async function openPinnedPage(page: Page, files: Record<string, string>): Promise<void> {
  const base = pinnedBase();
  const { 'widget.js': loader = '', ...chunks } = files;
  const importMap = {
    integrity: Object.fromEntries(Object.entries(chunks).map(([file, hash]) => [`${base}${file}`, hash])),
  };
  const query = new URLSearchParams({
    widget: TEST_WIDGETS.direct,
    src: `${base}widget.js`,
    integrity: loader,
    importmap: JSON.stringify(importMap),
  });
  await page.goto(`${stackUrls().pages}/pinned-widget.html?${query}`);
}

/** Console errors of the page, as they come. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('the pinned widget with the published integrity renders and sells, its scripts sent compressed', async ({
  page,
}) => {
  const errors = consoleErrors(page);
  const { files } = await published();
  // The coding each of the pinned version's scripts came in: the integrity holds of the decoded bytes.
  const codings = new Map<string, string | undefined>();
  let catalogCoding: string | undefined;
  page.on('response', (response) => {
    const url = response.url();
    if (url.startsWith(pinnedBase()) && url.endsWith('.js'))
      codings.set(url.slice(pinnedBase().length), response.headers()['content-encoding']);
    if (url.includes('/v1/catalog/') && url.endsWith('/destinations'))
      catalogCoding = response.headers()['content-encoding'];
  });
  await openPinnedPage(page, files);
  const widget = new WidgetFlow(page);
  // The purchase loads the lazy chunks too (install screen, QR code), each checked against the import map.
  await widget.purchase();
  await widget.installed();
  expect(errors).toEqual([]);
  // Brotli for every script of 1 KB or more (the loader, the app chunk, …); the tiny ones as they are.
  expect([...codings.keys()]).toContain('widget.js');
  expect([...codings.keys()].some((file) => file.includes('widget-app-'))).toBe(true);
  // The destinations, kept by the BFF compressed once, decode with the reader's own request id inside.
  expect(catalogCoding).toBe('br');
  for (const [file, coding] of codings) {
    expect(coding, file).toBe(statSync(join(WIDGET_DIST, file)).size >= 1_024 ? 'br' : undefined);
  }
});

test('a wrong integrity for the loader: the widget never runs', async ({ page }) => {
  const errors = consoleErrors(page);
  const { files, appChunk } = await published();
  await openPinnedPage(page, { ...files, 'widget.js': files[appChunk] ?? '' });
  await expect.poll(() => errors.join('\n')).toMatch(/integrity/i);
  expect(await page.evaluate(() => customElements.get('esim-widget') === undefined)).toBe(true);
  await expect(
    page.locator('esim-widget').getByRole('heading', { name: EN.destinationsHeading }),
  ).toHaveCount(0);
});

test('a wrong integrity for a chunk in the import map: the widget app never loads', async ({ page }) => {
  const errors = consoleErrors(page);
  const { files, appChunk } = await published();
  await openPinnedPage(page, { ...files, [appChunk]: files['widget.js'] ?? '' });
  await expect.poll(() => errors.join('\n')).toMatch(/the widget app failed to load/);
  expect(errors.join('\n')).toMatch(/integrity/i);
  // The loader itself was intact: the element is defined, but nothing renders in it.
  expect(await page.evaluate(() => customElements.get('esim-widget') !== undefined)).toBe(true);
  await expect(
    page.locator('esim-widget').getByRole('heading', { name: EN.destinationsHeading }),
  ).toHaveCount(0);
});
