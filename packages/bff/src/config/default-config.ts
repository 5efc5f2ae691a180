/**
 * @module
 * The built-in config for `pnpm start`: the demo's widgets against the sandbox on 127.0.0.1:8788, with
 * the sandbox's published test keys. Used only when no `ESIM_BFF_CONFIG` is given and never in production.
 *
 * The test keys are copied here as strings rather than imported from `@esim-embed/sandbox`: the sandbox is
 * a dev dependency that a production install does not have, and the bundled server must not pull it in.
 * A test checks that the strings equal the sandbox's exported constants, so they cannot drift apart. They
 * are not secrets — the sandbox publishes them in its README, as payment providers publish test cards.
 */
import type { BffConfigInput } from './config-schema';
import { DEMO_CHECKOUT_MODES, DEMO_PARTNERS, demoWidgetId } from './demo-partners';

/** The sandbox's base URL in the built-in config (override with `ESIM_BFF_SANDBOX_URL`). */
export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:8788';

/** Env variable names of the demo's secrets, and the values used when they are not set. */
export const DEMO_SECRET_DEFAULTS = {
  ESIM_DEMO_GLOBETROTTER_API_KEY: 'sk_test_globetrotter_full_7Qm2Xr9Lk4Vt',
  ESIM_DEMO_AURORA_API_KEY: 'sk_test_aurora_full_8Rc4Gm6Qx1Pn',
  ESIM_DEMO_LAGOON_API_KEY: 'sk_test_lagoon_full_2Wd9Fs3Lh7Ub',
  /** The demo's pretend partner server confirms `partner_confirm` checkouts with this. */
  ESIM_DEMO_PARTNER_SECRET: 'demo-partner-secret-not-for-production',
} as const;

/** Where a page on this machine may embed the demo widgets from. */
const LOCAL_ORIGINS = [
  'http://localhost:8787',
  'http://127.0.0.1:8787',
  'http://localhost:5173',
  'http://127.0.0.1:5173',
  'http://localhost:4173',
  'http://127.0.0.1:4173',
];

/**
 * The built-in config: for each of the sandbox's three demo partners a `direct` widget (`demo-<partner>`)
 * and a `partner_confirm` widget (`demo-<partner>-pay`), as the demo's partner switcher expects, allowed on
 * this machine's usual dev ports and on the BFF's own `port`.
 */
export function defaultConfig(sandboxUrl: string = DEFAULT_SANDBOX_URL, port = 8787): BffConfigInput {
  // The BFF's own origins on another port too, so that the demo it serves there may embed the widgets.
  const allowedOrigins = [
    ...new Set([...LOCAL_ORIGINS, `http://localhost:${port}`, `http://127.0.0.1:${port}`]),
  ];
  return {
    // Every demo page runs on this machine, one client address: a traveller's shares of a key are the whole key.
    upstreamBudget: { addressPercent: 100, sessionPercent: 100 },
    // The partner console at /console/, with the demo's users (`pnpm start` prints them).
    console: { enabled: true },
    widgets: DEMO_PARTNERS.flatMap((partner) =>
      DEMO_CHECKOUT_MODES.map((checkoutMode) => ({
        id: demoWidgetId(partner.key, checkoutMode),
        displayName: partner.displayName,
        environment: 'test' as const,
        upstream: { baseUrl: sandboxUrl, apiKeyEnv: partner.apiKeyEnv },
        allowedOrigins,
        checkoutMode,
        partnerSecretEnv: 'ESIM_DEMO_PARTNER_SECRET',
        defaultLocale: partner.defaultLocale,
        // The demo serves its partners' logos (the sandbox's logo host is a placeholder that does not resolve).
        brand: { logoUrl: `/partners/${partner.key}.svg` },
      })),
    ),
  };
}
