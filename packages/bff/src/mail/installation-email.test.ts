/**
 * The installation email written in each of the widget's five languages: its own words (none left English, no
 * placeholder left unfilled), the partner's brand and the plan, the activation details, the install links and the
 * manage link in both parts, the QR image named by the HTML part and decoding to the activation string, and the
 * partner's words escaped in the HTML.
 */
import { LocaleSchema, type Plan, type WidgetBrand } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { qrTextOf } from '../../testing/smtp-receiver';
import { QR_CONTENT_ID, writeInstallationEmail } from './installation-email';
import { INSTALLATION_EMAIL_WORDS } from './installation-email-words';

const LPA = 'LPA:1$smdp.sandbox.example$K2-1ABCD-2EFGH3';
const PLAN: Plan = {
  offerId: 'off_1',
  productId: 'prd_1',
  title: 'Italia 3 GB',
  destination: { code: 'IT', name: 'Italia', flag: '🇮🇹' },
  kind: 'fixed',
  dataMb: 3072,
  dailyDataMb: null,
  unlimited: false,
  durationDays: 5,
  price: { amountMinor: 990, currency: 'USD' },
  fiveG: 'supported',
  tethering: 'supported',
  topUp: 'guaranteed',
  networks: [],
  networkTypes: [],
  activation: { startsAt: 'first_connection', windowDays: 30 },
};
const BRAND: WidgetBrand = {
  displayName: 'Reisen & <Mehr>',
  logoUrl: null,
  primaryColor: '#0055aa',
  supportEmail: 'help@reisen.example',
  supportUrl: null,
  termsUrl: null,
  privacyUrl: null,
};
const INSTALLATION = {
  qrPayload: LPA,
  smdpAddress: 'smdp.sandbox.example',
  activationCode: 'K2-1ABCD-2EFGH3',
  ios: 'https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=LPA%3A1%24smdp&x=1',
  android: 'https://esimsetup.android.com/esim_qrcode_provisioning?carddata=LPA%3A1%24smdp',
};
const MANAGE_URL = 'https://reisen.example/esim#esim=reisen.k7q2mxw4abcdefghijklmnopqr';

describe.each(LocaleSchema.options)('the installation email in %s', (locale) => {
  const words = INSTALLATION_EMAIL_WORDS[locale];
  const written = writeInstallationEmail({
    locale,
    brand: BRAND,
    plan: PLAN,
    amount: { amountMinor: 990, currency: 'USD' },
    wholeRubOnly: false,
    installation: INSTALLATION,
    manageUrl: MANAGE_URL,
    repliesReachPartner: false,
  });

  it('is in its own words, every placeholder filled', async () => {
    const { subject, text, html } = await written;
    if (locale !== 'en') {
      for (const key of ['heading', 'manualIntro', 'manageLink', 'keepPrivate'] as const) {
        expect(words[key]).not.toBe(INSTALLATION_EMAIL_WORDS.en[key]);
      }
    }
    expect(subject).toContain(BRAND.displayName);
    expect(subject).toContain(PLAN.destination.name);
    for (const part of [subject, text, html]) expect(part).not.toMatch(/\{\w+\}/);
    expect(text).toContain(words.heading);
    expect(text).toContain(words.manualIntro);
    expect(html).toContain(`lang="${locale}"`);
  });

  it('names the brand and the plan, and carries the details, the install links and the manage link in both parts', async () => {
    const { text, html } = await written;
    expect(text).toContain(BRAND.displayName);
    expect(text).toContain(PLAN.title);
    expect(text).toMatch(/5/);
    for (const value of [INSTALLATION.smdpAddress, INSTALLATION.activationCode, MANAGE_URL]) {
      expect(text).toContain(value);
      expect(html).toContain(value);
    }
    expect(text).toContain(INSTALLATION.ios);
    expect(text).toContain(INSTALLATION.android);
    // In the HTML the links' `&` are escaped, as an attribute must have them.
    expect(html).toContain(INSTALLATION.ios.replace('&', '&#38;'));
    expect(html).toContain(INSTALLATION.android);
    expect(text).toContain(`${BRAND.supportEmail}`);
  });

  it('escapes the partner’s words in the HTML part', async () => {
    const { html } = await written;
    expect(html).not.toContain('<Mehr>');
    expect(html).toContain('Reisen &#38; &#60;Mehr&#62;');
  });

  it('shows the QR code as an inline image that decodes to the activation string', async () => {
    const { html, qrPng } = await written;
    expect(html).toContain(`src="cid:${QR_CONTENT_ID}"`);
    expect(qrTextOf(qrPng)).toBe(LPA);
  });
});

describe('the installation email without a way back or a contact', () => {
  it('leaves the manage link out when there is none, and says to reply when replies reach the partner', async () => {
    const { text, html } = await writeInstallationEmail({
      locale: 'de',
      brand: { ...BRAND, supportEmail: null },
      plan: PLAN,
      amount: { amountMinor: 990, currency: 'USD' },
      wholeRubOnly: false,
      installation: INSTALLATION,
      manageUrl: null,
      repliesReachPartner: true,
    });
    expect(text).not.toContain(INSTALLATION_EMAIL_WORDS.de.manageIntro);
    expect(html).not.toContain(INSTALLATION_EMAIL_WORDS.de.manageLink);
    expect(text).toContain(INSTALLATION_EMAIL_WORDS.de.replyHint);
  });
});
