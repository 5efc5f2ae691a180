/**
 * The words on a traveller's screens, on a 360 px Android phone in the five languages: the checkout step is
 * headed as a checkout (not "Your eSIM"), the one-tap install comes before the QR code and the QR code is offered
 * for another phone or tablet; after a declined payment no spinner turns and exactly one next step is offered —
 * the widget's "Try another card" while the partner page's payment form is closed, or, with
 * `payment-retry="page"`, the page's own form and no button of the widget's.
 */
import { LocaleSchema } from '@esim-embed/shared';
import { de, en, es, fr, ru } from '@esim-embed/widget-testing';
import type { Locator } from '@playwright/test';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import {
  ANDROID_USER_AGENT,
  busySignals,
  buyOnPhone,
  declinePayment,
  PHONE_SCREEN,
} from '../support/traveller-words';

const TABLES = { en, ru, es, de, fr } as const;

/** The checkout step's heading before this release: it named an eSIM the traveller did not have yet. */
const YOUR_ESIM = {
  en: 'Your eSIM',
  de: 'Ihre eSIM',
  es: 'Tu eSIM',
  fr: 'Votre eSIM',
  ru: 'Ваша eSIM',
} as const;

test.use({ viewport: PHONE_SCREEN, isMobile: true, hasTouch: true, userAgent: ANDROID_USER_AGENT });

/** The texts of the widget's visible main actions (`part="primary-button"`). */
async function visiblePrimaryActions(widget: Locator): Promise<string[]> {
  const actions = widget.locator('[part~="primary-button"]');
  const texts: string[] = [];
  for (const action of await actions.all()) {
    if (await action.isVisible()) texts.push((await action.textContent())?.trim() ?? '');
  }
  return texts;
}

for (const locale of LocaleSchema.options) {
  const table = TABLES[locale];

  test(`${locale}: the checkout says what it is; on a phone the install button comes first and the QR code is for another device`, async ({
    page,
    stack,
  }) => {
    const widget = await buyOnPhone(page, stack, locale, async (checkout) => {
      const heading = checkout.getByRole('heading', { level: 2 });
      await expect(heading).toHaveText(table.checkoutHeading);
      expect(table.checkoutHeading).not.toBe(YOUR_ESIM[locale]);
    });
    await expect(widget.getByRole('heading', { level: 2 })).toHaveText(table.installHeading);

    const install = widget.getByRole('link', { name: table.installAndroid });
    const qr = widget.locator('[part~="qr-code"]');
    await expect(install).toBeVisible();
    expect(await install.getAttribute('part')).toContain('primary-button');
    const order = await widget.evaluate((host) => {
      const root = host.shadowRoot as ShadowRoot;
      const qrCode = root.querySelector('[part~="qr-code"]') as Element;
      const before = (element: Element) =>
        Boolean(element.compareDocumentPosition(qrCode) & Node.DOCUMENT_POSITION_FOLLOWING);
      return {
        // The first install link and the last heading the traveller reads before the QR code.
        firstAction: root.querySelector('a[part~="primary-button"]')?.textContent ?? null,
        actionBeforeQr: before(root.querySelector('a[part~="primary-button"]') as Element),
        qrHeading: [...root.querySelectorAll('h2, h3')].filter(before).pop()?.textContent ?? null,
      };
    });
    expect(order).toEqual({
      firstAction: table.installAndroid,
      actionBeforeQr: true,
      qrHeading: table.qrOtherDeviceHeading,
    });
    // Laid out so too: the button above the code.
    const installBox = await install.boundingBox();
    const qrBox = await qr.boundingBox();
    expect((installBox?.y ?? Number.POSITIVE_INFINITY) + (installBox?.height ?? 0)).toBeLessThanOrEqual(
      qrBox?.y ?? 0,
    );
    await expect(widget.getByText(table.qrIntro)).toHaveCount(0);
  });

  test(`${locale}: after a decline no spinner turns and the widget’s “try another card” is the one next step`, async ({
    page,
    request,
    stack,
    widgetEvents,
  }) => {
    const { widget, payForm } = await declinePayment(page, request, stack, {
      locale,
      retry: 'widget',
      declinedHeading: table.headingDeclined,
      // The probe sees the spinner of a payment awaited: its zero after the decline means something.
      whileAwaiting: async (payment) => {
        await expect(payment.widget.getByRole('heading', { name: table.paymentHeading })).toBeVisible();
        expect(await busySignals(payment.widget)).toBeGreaterThan(0);
      },
    });
    expect(await busySignals(widget)).toBe(0);
    // The page closed its form on `esim-payment-declined`: the widget's button is the only way to pay again.
    await expect(payForm).toBeHidden();
    expect(await visiblePrimaryActions(widget)).toEqual([table.tryAnotherCard]);

    await widget.getByRole('button', { name: table.tryAnotherCard }).click();
    await expect(payForm).toBeVisible();
    expect(await visiblePrimaryActions(widget)).toEqual([]);
    await expect
      .poll(async () =>
        (await widgetEvents())
          .filter((event) => event.type === 'esim-checkout')
          .map((event) => event.detail.attempt),
      )
      .toEqual([1, 2]);
  });

  test(`${locale}: with payment-retry="page" no spinner turns and the page’s own form is the one next step`, async ({
    page,
    request,
    stack,
  }) => {
    const { widget, payForm } = await declinePayment(page, request, stack, {
      locale,
      retry: 'page',
      declinedHeading: table.headingDeclined,
    });
    expect(await busySignals(widget)).toBe(0);
    await expect(widget.getByRole('alert')).toHaveText(table.paymentDeclined);
    await expect(widget.getByRole('button', { name: table.tryAnotherCard })).toHaveCount(0);
    expect(await visiblePrimaryActions(widget)).toEqual([]);
    await expect(payForm).toBeVisible();
    await expect(payForm.getByRole('alert')).toHaveText(/declined.*attempt 2/);
    expect((await waitForWidgetEvent(page, 'esim-payment-declined')).detail.nextAttempt).toBe(2);
  });
}
