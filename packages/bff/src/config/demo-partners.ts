/**
 * @module
 * The demo's three fictional partners — the sandbox's demo accounts — as the one list the BFF's built-in config,
 * the demo pages and the browser tests all read (`@esim-embed/bff/demo-partners`). No imports, so a browser page
 * may load it.
 */

/** A demo partner: its key (in URLs and widget ids), name, the env variable of its sandbox key, its language. */
export interface DemoPartnerAccount {
  key: string;
  displayName: string;
  apiKeyEnv: 'ESIM_DEMO_GLOBETROTTER_API_KEY' | 'ESIM_DEMO_AURORA_API_KEY' | 'ESIM_DEMO_LAGOON_API_KEY';
  defaultLocale: 'en' | 'ru';
}

/** The demo's partners, in the showcase's switcher order. */
export const DEMO_PARTNERS = [
  {
    key: 'globetrotter',
    displayName: 'Globetrotter',
    apiKeyEnv: 'ESIM_DEMO_GLOBETROTTER_API_KEY',
    defaultLocale: 'en',
  },
  { key: 'aurora', displayName: 'Аврора', apiKeyEnv: 'ESIM_DEMO_AURORA_API_KEY', defaultLocale: 'ru' },
  { key: 'lagoon', displayName: 'Blue Lagoon', apiKeyEnv: 'ESIM_DEMO_LAGOON_API_KEY', defaultLocale: 'en' },
] as const satisfies readonly DemoPartnerAccount[];

/** The key of a demo partner. */
export type DemoPartnerKey = (typeof DEMO_PARTNERS)[number]['key'];

/** The BFF's two checkout modes, each of which every demo partner has a widget for. */
export const DEMO_CHECKOUT_MODES = ['direct', 'partner_confirm'] as const;
export type DemoCheckoutMode = (typeof DEMO_CHECKOUT_MODES)[number];

/** The built-in widget id of a demo partner's widget: `demo-<key>` (direct), `demo-<key>-pay` (partner_confirm). */
export function demoWidgetId(key: DemoPartnerKey, mode: DemoCheckoutMode): string {
  return mode === 'direct' ? `demo-${key}` : `demo-${key}-pay`;
}
