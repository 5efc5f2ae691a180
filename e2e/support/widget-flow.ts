/**
 * @module
 * A traveller's hands on `<esim-widget>`: find a destination, choose a plan, check out, and read the install
 * screen, through the roles, labels and `part` names the widget exposes (Playwright's locators pierce its open
 * shadow root as a screen reader's tree does). English labels unless a step says otherwise.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The widget's English texts the flow relies on (`packages/widget/src/i18n/en.ts`). */
export const EN = {
  destinationsHeading: 'Where are you going?',
  searchLabel: 'Country, region or code',
  terms: /I accept the terms/,
  buy: /^Buy for /,
  qr: 'QR code that installs the eSIM',
  installHeading: 'Install your eSIM',
  smdp: 'SM-DP+ address',
  activation: 'Activation code',
} as const;

/** One widget on a page. */
export class WidgetFlow {
  readonly root: Locator;

  constructor(page: Page, selector = 'esim-widget') {
    this.root = page.locator(selector);
  }

  /** Waits for the first screen (the destination search). */
  async ready(): Promise<void> {
    await expect(this.root.getByRole('heading', { name: EN.destinationsHeading })).toBeVisible({
      timeout: 20_000,
    });
  }

  /** Types a search and opens the first destination whose name matches. */
  async chooseDestination(query: string, name: string | RegExp): Promise<void> {
    await this.root.getByLabel(EN.searchLabel).fill(query);
    await this.root.locator('[part~="destination"]', { hasText: name }).first().click();
  }

  /** Chooses the plan at `index` in the list (the cheapest first by default) and returns its card. */
  async choosePlan(index = 0): Promise<Locator> {
    const plan = this.root.locator('[part~="plan"]').nth(index);
    await plan.getByRole('button').click();
    return plan;
  }

  /** Ticks the terms and presses buy (checkout with no email). */
  async buy(email?: string): Promise<void> {
    if (email) await this.root.getByLabel('Email').fill(email);
    await this.root.getByRole('checkbox', { name: EN.terms }).check();
    await this.root.getByRole('button', { name: EN.buy }).click();
  }

  /** The whole direct purchase from the first screen to the install screen. */
  async purchase(query = 'France', name: string | RegExp = 'France'): Promise<void> {
    await this.ready();
    await this.chooseDestination(query, name);
    await this.choosePlan();
    await this.buy();
    await this.installed();
  }

  /** Waits for the install screen with its QR code. */
  async installed(timeout = 30_000): Promise<void> {
    await expect(this.root.getByRole('heading', { name: EN.installHeading })).toBeVisible({ timeout });
    await expect(this.qrCode()).toBeVisible();
  }

  /** The installation QR code. */
  qrCode(): Locator {
    return this.root.getByRole('img', { name: EN.qr });
  }

  /** The error notice the widget shows, with its code in `data-code`. */
  errorNotice(): Locator {
    return this.root.locator('[part~="error"]');
  }
}
