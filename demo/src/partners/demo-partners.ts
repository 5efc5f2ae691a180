/**
 * @module
 * The demo's partners (the one list is `@esim-embed/bff/demo-partners`, which the BFF's built-in config serves)
 * as their own websites present themselves, with the BFF widget id of each checkout mode. The widget itself
 * takes the brand (name, logo, colour, currency) from its session; this only dresses the host page around it.
 */
import {
  DEMO_PARTNERS as DEMO_PARTNER_ACCOUNTS,
  type DemoCheckoutMode,
  type DemoPartnerKey,
  demoWidgetId,
} from '@esim-embed/bff/demo-partners';

export type { DemoCheckoutMode };

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

/** How each partner's own site looks around the widget. */
const PAGES: Record<DemoPartnerKey, Omit<DemoPartner, 'key' | 'name' | 'logoUrl' | 'widgetIds'>> = {
  globetrotter: {
    domain: 'globetrotter.example',
    headline: 'Land connected, wherever you fly',
    tagline: 'Data plans for 190+ countries, ready before you board.',
    color: '#0B6E4F',
    currency: 'USD',
  },
  aurora: {
    domain: 'aurora-travel.example',
    headline: 'Интернет в поездке — без роуминга',
    tagline: 'eSIM для 190+ стран, цены в рублях.',
    color: '#7B2CBF',
    currency: 'RUB',
  },
  lagoon: {
    domain: 'bluelagoon-holidays.example',
    headline: 'Your holiday, always online',
    tagline: 'Add a data plan to your trip in a minute.',
    color: '#0077B6',
    currency: 'USD',
  },
};

/** The demo's partners, in switcher order. */
export const DEMO_PARTNERS: readonly DemoPartner[] = DEMO_PARTNER_ACCOUNTS.map(({ key, displayName }) => ({
  key,
  name: displayName,
  ...PAGES[key],
  logoUrl: `/partners/${key}.svg`,
  widgetIds: { direct: demoWidgetId(key, 'direct'), partner_confirm: demoWidgetId(key, 'partner_confirm') },
}));

/** The partner with this key, or the first one. */
export function demoPartner(key: string | null): DemoPartner {
  return DEMO_PARTNERS.find((partner) => partner.key === key) ?? (DEMO_PARTNERS[0] as DemoPartner);
}
