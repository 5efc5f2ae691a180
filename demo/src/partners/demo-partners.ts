/**
 * @module
 * The three fictional partners of the demo as their own websites present themselves, and the BFF widget ids
 * that the BFF's built-in config gives each of them (one per checkout mode). The widget itself takes the brand
 * (name, logo, colour, currency) from its session; this table only dresses the host page around it.
 */

/** How the partner takes the money: the BFF's two checkout modes. */
export type DemoCheckoutMode = 'direct' | 'partner_confirm';

/** What each checkout mode means, as the showcase explains it under its switchers. */
export const MODE_HINTS: Record<DemoCheckoutMode, string> = {
  direct: 'Direct: the order is placed from the partner’s prepaid balance when the traveller buys.',
  partner_confirm:
    'Partner payment: buying opens the partner’s own payment form; its server confirms the checkout.',
};

/** A fictional reseller of the demo. */
export interface DemoPartner {
  /** Stable key, used in the URL (`?partner=…`). */
  key: string;
  name: string;
  /** Where the partner's site pretends to live. */
  domain: string;
  headline: string;
  tagline: string;
  /** The partner's brand colour, for its own page around the widget. */
  color: string;
  /** The partner's logo, served by the demo. */
  logoUrl: string;
  currency: 'RUB' | 'USD';
  /** The BFF widget id for each checkout mode. */
  widgetIds: Record<DemoCheckoutMode, string>;
}

/** The demo's partners, in switcher order. */
export const DEMO_PARTNERS: readonly DemoPartner[] = [
  {
    key: 'globetrotter',
    name: 'Globetrotter',
    domain: 'globetrotter.example',
    headline: 'Land connected, wherever you fly',
    tagline: 'Data plans for 190+ countries, ready before you board.',
    color: '#0B6E4F',
    logoUrl: '/partners/globetrotter.svg',
    currency: 'USD',
    widgetIds: { direct: 'demo-globetrotter', partner_confirm: 'demo-globetrotter-pay' },
  },
  {
    key: 'aurora',
    name: 'Аврора',
    domain: 'aurora-travel.example',
    headline: 'Интернет в поездке — без роуминга',
    tagline: 'eSIM для 190+ стран, цены в рублях.',
    color: '#7B2CBF',
    logoUrl: '/partners/aurora.svg',
    currency: 'RUB',
    widgetIds: { direct: 'demo-aurora', partner_confirm: 'demo-aurora-pay' },
  },
  {
    key: 'lagoon',
    name: 'Blue Lagoon',
    domain: 'bluelagoon-holidays.example',
    headline: 'Your holiday, always online',
    tagline: 'Add a data plan to your trip in a minute.',
    color: '#0077B6',
    logoUrl: '/partners/lagoon.svg',
    currency: 'USD',
    widgetIds: { direct: 'demo-lagoon', partner_confirm: 'demo-lagoon-pay' },
  },
];

/** The partner with this key, or the first one. */
export function demoPartner(key: string | null): DemoPartner {
  return DEMO_PARTNERS.find((partner) => partner.key === key) ?? (DEMO_PARTNERS[0] as DemoPartner);
}
