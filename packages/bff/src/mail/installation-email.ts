/**
 * @module
 * The installation email itself, in the traveller's language: the partner's brand, the plan bought, the QR code
 * as an inline image (a CID attachment, so no mail client has to fetch anything), the activation details typed
 * by hand, the iOS and Android install links, the manage link ("my eSIM"), and how to reach the partner — in a
 * plain-text part and an HTML part that say the same. Pure: what goes in comes from the checkout, its eSIM's
 * installation data and the widget's brand (`installation-email-sender.ts` reads them).
 */
import {
  formatMoney,
  formatPackageData,
  type InstallationData,
  type Locale,
  type NonNegativeMoney,
  type Plan,
  type WidgetBrand,
} from '@esim-embed/shared';
import QRCode from 'qrcode';
import { countWords, fill, INSTALLATION_EMAIL_WORDS } from './installation-email-words';

/** The content id of the QR code's image, named by the HTML part's `<img src="cid:…">`. */
export const QR_CONTENT_ID = 'esim-qr@installation';

/** What the email is written from. */
export interface InstallationEmailContent {
  locale: Locale;
  brand: WidgetBrand;
  /** The plan bought (title and destination in the checkout's language). */
  plan: Plan;
  /** What the traveller paid, and whether roubles are shown whole (the widget's settlement). */
  amount: NonNegativeMoney;
  wholeRubOnly: boolean;
  installation: Pick<InstallationData, 'qrPayload' | 'smdpAddress' | 'activationCode' | 'ios' | 'android'>;
  /** The manage link ("my eSIM"); null when the brand's white label turned the way back off. */
  manageUrl: string | null;
  /** Replies reach the partner (a Reply-To, or a sender it reads): the email says so instead of naming a contact. */
  repliesReachPartner: boolean;
}

/** The written email: its subject, its two parts and the QR code's image. */
export interface InstallationEmail {
  subject: string;
  text: string;
  html: string;
  qrPng: Buffer;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.codePointAt(0)};`);

/** Write the installation email of `content`. */
export async function writeInstallationEmail(content: InstallationEmailContent): Promise<InstallationEmail> {
  const { locale, brand, plan, installation, manageUrl } = content;
  const words = INSTALLATION_EMAIL_WORDS[locale];
  const names = { brand: brand.displayName, destination: plan.destination.name };
  const facts: [string, string][] = [
    [words.planLabel, plan.title],
    [words.dataLabel, formatPackageData(plan, locale)],
    [words.validityLabel, countWords(words.days, plan.durationDays, locale)],
    [words.priceLabel, formatMoney(content.amount, locale, { wholeRubOnly: content.wholeRubOnly })],
  ].filter((fact): fact is [string, string] => fact[1] !== '');
  const manual: [string, string][] = [
    [words.smdpLabel, installation.smdpAddress],
    [words.activationLabel, installation.activationCode],
  ];
  const support = brand.supportEmail ?? brand.supportUrl;
  const contact = content.repliesReachPartner
    ? words.replyHint
    : support === null
      ? null
      : `${fill(words.supportContact, names)} ${support}`;

  const text = [
    words.heading,
    '',
    fill(words.intro, names),
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    words.installOnPhone,
    `${words.installIos}: ${installation.ios}`,
    `${words.installAndroid}: ${installation.android}`,
    '',
    words.manualIntro,
    ...manual.map(([label, value]) => `${label}: ${value}`),
    ...(manageUrl === null ? [] : ['', words.manageIntro, manageUrl]),
    '',
    ...(contact === null ? [] : [contact]),
    words.keepPrivate,
    '',
    `— ${brand.displayName}`,
  ].join('\n');

  const color = brand.primaryColor;
  const link = (href: string, label: string) =>
    `<a href="${escapeHtml(href)}" style="color:${color};font-weight:bold">${escapeHtml(label)}</a>`;
  const paragraph = (inner: string) => `<p style="margin:0 0 16px">${inner}</p>`;
  const rows = (pairs: [string, string][]) =>
    `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${pairs
      .map(
        ([label, value]) =>
          `<tr><td style="padding:2px 16px 2px 0;color:#555">${escapeHtml(label)}</td><td style="padding:2px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
      )
      .join('')}</table>`;
  const html = [
    '<!doctype html>',
    `<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(fill(words.subject, names))}</title></head>`,
    `<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a">`,
    `<div style="max-width:560px;margin:0 auto;border-top:4px solid ${color};padding-top:16px">`,
    `<p style="margin:0 0 8px;font-weight:bold;color:${color}">${escapeHtml(brand.displayName)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:24px">${escapeHtml(words.heading)}</h1>`,
    paragraph(escapeHtml(fill(words.intro, names))),
    rows(facts),
    paragraph(
      `${escapeHtml(words.installOnPhone)}<br>${link(installation.ios, words.installIos)}<br>${link(installation.android, words.installAndroid)}`,
    ),
    paragraph(escapeHtml(words.qrIntro)),
    `<p style="margin:0 0 16px"><img src="cid:${QR_CONTENT_ID}" width="240" height="240" alt="${escapeHtml(words.qrAlt)}"></p>`,
    paragraph(escapeHtml(words.manualIntro)),
    rows(manual),
    manageUrl === null
      ? ''
      : paragraph(`${escapeHtml(words.manageIntro)}<br>${link(manageUrl, words.manageLink)}`),
    contact === null ? '' : paragraph(escapeHtml(contact)),
    `<p style="margin:0;color:#555;font-size:14px">${escapeHtml(words.keepPrivate)}</p>`,
    '</div></body></html>',
  ].join('\n');

  // The same symbol the widget draws (error correction M), with the standard quiet zone, large enough to scan
  // from a screen.
  const qrPng = await QRCode.toBuffer(installation.qrPayload, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 4,
    width: 480,
  });
  return { subject: fill(words.subject, names), text, html, qrPng };
}
