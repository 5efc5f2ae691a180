/**
 * @module
 * The screens whose words a traveller on a phone reads, in any language, reached through `part` names and roles
 * rather than texts: a purchase on an Android phone from the checkout to the install screen, and a payment the
 * partner reports declined on a partner page with its own payment form (`pages/partner-payment.html`, either
 * `payment-retry`). `tests/traveller-words.spec.ts` checks them; the screenshots command pictures them
 * (`tours/traveller-words.tour.ts`).
 */
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { waitForWidgetEvent } from './fixtures';
import type { StackUrls } from './stack-urls';
import { TEST_WIDGETS } from './test-config';

/** A phone's screen, as the traveller held it. */
export const PHONE_SCREEN = { width: 360, height: 740 } as const;

/** An Android phone's Chrome: the widget puts the one-tap install first on it. */
export const ANDROID_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** Who offers the next payment attempt after a decline (the element's `payment-retry`). */
export type PaymentRetry = 'widget' | 'page';

/**
 * From `pageUrl`'s first screen to the checkout of the first plan found for `search`, whole (the device check
 * loads after the plan is chosen). Returns the widget.
 */
export async function openCheckout(page: Page, pageUrl: string, search = 'FR'): Promise<Locator> {
  const widget = page.locator('esim-widget');
  await page.goto(pageUrl);
  await expect(widget.locator('[part~="destination"]').first()).toBeVisible({ timeout: 20_000 });
  await widget.locator('input[part~="input"]').first().fill(search);
  await widget.locator('[part~="destination"]').first().click();
  await widget.locator('[part~="plan"]').first().getByRole('button').click();
  await expect(widget.locator('[part~="device-check"]')).toBeVisible();
  await expect(widget.locator('[part~="primary-button"]')).toBeEnabled();
  return widget;
}

/** Accepts the terms and presses buy on the checkout step. */
export async function buy(widget: Locator): Promise<void> {
  await widget.getByRole('checkbox').check();
  await widget.locator('[part~="primary-button"]').click();
}

/** Buys on a `direct` widget in `locale` up to the install screen with its QR code. Returns the widget. */
export async function buyOnPhone(
  page: Page,
  stack: StackUrls,
  locale: string,
  atCheckout: (widget: Locator) => Promise<void> = async () => {},
): Promise<Locator> {
  const widget = await openCheckout(
    page,
    `${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}&locale=${locale}`,
  );
  await atCheckout(widget);
  await buy(widget);
  await expect(widget.locator('[part~="qr-code"]')).toBeVisible({ timeout: 30_000 });
  return widget;
}

/** The partner page after the widget said that the first payment attempt was declined. */
export interface DeclinedPayment {
  widget: Locator;
  /** The partner page's own payment form. */
  payForm: Locator;
  checkoutId: string;
}

/**
 * On the partner page with its own payment form, in `locale` and with `payment-retry` = `retry`: buys on a
 * `partner_confirm` widget, lets the partner's server charge a card that is declined (it reports the decline to
 * the BFF), and waits until the widget heads its step `declinedHeading`. `whileAwaiting` runs on the waiting
 * screen, before the decline.
 */
export async function declinePayment(
  page: Page,
  request: APIRequestContext,
  stack: StackUrls,
  options: {
    locale: string;
    retry: PaymentRetry;
    declinedHeading: string;
    whileAwaiting?: (payment: Omit<DeclinedPayment, 'checkoutId'>) => Promise<void>;
  },
): Promise<DeclinedPayment> {
  const { locale, retry } = options;
  const widget = await openCheckout(
    page,
    `${stack.pages}/partner-payment.html?widget=${TEST_WIDGETS.confirm}&locale=${locale}&retry=${retry}`,
  );
  await buy(widget);
  const checkoutId = String((await waitForWidgetEvent(page, 'esim-checkout')).detail.checkoutId);
  const payForm = page.getByRole('form', { name: 'Payment' });
  await expect(payForm).toBeVisible();
  await options.whileAwaiting?.({ widget, payForm });
  // The partner's server charges and reports the decline (`POST /v1/partner/checkouts/{id}/decline`).
  const declined = await request.post(`${stack.bff}/demo-partner/payments`, {
    headers: { Origin: stack.bff },
    data: { checkoutId, paymentMethod: 'pm_card_declined' },
  });
  expect(declined.status()).toBe(402);
  await expect(widget.getByRole('heading', { name: options.declinedHeading })).toBeVisible({
    timeout: 15_000,
  });
  return { widget, payForm, checkoutId };
}

/**
 * What on the widget's screen says that something is under way: busy or current-step elements, progress bars,
 * and animations that run (the spinner turns). Zero when the traveller has nothing to wait for.
 */
export async function busySignals(widget: Locator): Promise<number> {
  return widget.evaluate((host) => {
    const root = host.shadowRoot;
    if (!root) return 0;
    const marked = root.querySelectorAll('[aria-busy="true"], [role="progressbar"], [aria-current="step"]');
    const turning = root.getAnimations().filter((animation) => animation.playState === 'running');
    return marked.length + turning.length;
  });
}
