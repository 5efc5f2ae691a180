/**
 * Pictures of the screens whose words `tests/traveller-words.spec.ts` checks, as an Android phone at 360×740 shows
 * them, in each language, written to `e2e/screenshots/<locale>/words-<screen>-phone.png`: the checkout, the install
 * screen (the one-tap install, then the QR code for another phone or tablet), and a declined payment on a partner
 * page with its own payment form, with the widget's retry (`retry-widget`) and the page's (`retry-page`).
 * `SCREENSHOT_LOCALES=en,ru` narrows the languages.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LocaleSchema } from '@esim-embed/shared';
import { de, en, es, fr, ru } from '@esim-embed/widget-testing';
import type { Page } from '@playwright/test';
import { test } from '../support/fixtures';
import {
  ANDROID_USER_AGENT,
  buyOnPhone,
  declinePayment,
  type PaymentRetry,
  PHONE_SCREEN,
} from '../support/traveller-words';

const OUT = fileURLToPath(new URL('../screenshots/', import.meta.url));
const TABLES = { en, ru, es, de, fr } as const;
const LOCALES = (process.env.SCREENSHOT_LOCALES?.split(',').map((locale) => locale.trim()) ??
  LocaleSchema.options) as (keyof typeof TABLES)[];

test.use({ viewport: PHONE_SCREEN, isMobile: true, hasTouch: true, userAgent: ANDROID_USER_AGENT });

async function picture(page: Page, locale: string, screen: string): Promise<void> {
  await page.screenshot({
    path: `${OUT}${locale}/words-${screen}-phone.png`,
    fullPage: true,
    animations: 'disabled',
  });
}

for (const locale of LOCALES) {
  test(`the traveller's words on a phone in ${locale}: checkout and install`, async ({ page, stack }) => {
    mkdirSync(`${OUT}${locale}`, { recursive: true });
    await buyOnPhone(page, stack, locale, () => picture(page, locale, 'checkout'));
    await picture(page, locale, 'install');
  });

  for (const retry of ['widget', 'page'] satisfies PaymentRetry[]) {
    test(`the traveller's words on a phone in ${locale}: a declined payment, retried by the ${retry}`, async ({
      page,
      request,
      stack,
    }) => {
      mkdirSync(`${OUT}${locale}`, { recursive: true });
      await declinePayment(page, request, stack, {
        locale,
        retry,
        declinedHeading: TABLES[locale].headingDeclined,
      });
      await picture(page, locale, `declined-retry-${retry}`);
    });
  }
}
