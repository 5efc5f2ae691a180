/**
 * @module
 * The BFF config of the browser tests: a widget per role, each selling through the sandbox its scenario
 * needs, all allowing the partner-page origin and the BFF's own origin (the demo pages), none allowing the
 * foreign origin. Keys and secrets are named here and put in the environment by `stack.ts`.
 */
import type { BffConfigInput } from '@esim-embed/bff';
import { DEMO_CHECKOUT_MODES, DEMO_PARTNERS, demoWidgetId } from '@esim-embed/bff/demo-partners';
import type { SandboxRole } from './stack-urls';

/** The environment variables the test config names, and their values. */
export interface TestSecrets {
  env: Record<string, string>;
  partnerSecret: string;
  /** The secret the BFF signs the demo partner server's webhooks with. */
  webhookSecret: string;
}

/** The widget ids of the test config, by what the tests use them for. */
export const TEST_WIDGETS = {
  /** Globetrotter (USD), direct checkout, fast provisioning. */
  direct: 'e2e-direct',
  /** Aurora (RUB, whole roubles), direct checkout. */
  rub: 'e2e-rub',
  /** Blue Lagoon (USD), partner_confirm. */
  confirm: 'e2e-confirm',
  /** Quotes that expire after a few seconds. */
  shortQuote: 'e2e-short-quote',
  /** A sandbox whose prices the test moves. */
  priceChange: 'e2e-price-change',
  /** A sandbox whose next orders fail provisioning. */
  failure: 'e2e-failure',
  /** Provisioning that ends when the test moves the sandbox's clock (a reload during it). */
  held: 'e2e-held',
  /** Shoestring (USD, a balance of only $5.00), direct: plans above the balance are refused before payment. */
  lowBalance: 'e2e-low-balance',
  /** Shoestring (USD, a balance of only $5.00), partner_confirm. */
  lowBalanceConfirm: 'e2e-low-balance-confirm',
  /** partner_confirm on the short-quote sandbox: a checkout expires a few seconds after its quote. No webhooks. */
  confirmExpiring: 'e2e-confirm-expiring',
  /** partner_confirm on the failure sandbox (Blue Lagoon's account), webhooks to the demo partner server. */
  confirmFailing: 'e2e-confirm-failing',
  /** A long brand name and no logo (the name is the header), direct, held provisioning: the layout check. */
  longBrand: 'e2e-long-brand',
  /** Aurora with no logo: its short name is the header, beside the test-mode badge. */
  auroraName: 'e2e-aurora-name',
  /** Globetrotter, direct, `deliveryMode: 'platform'`: the service emails the eSIM (the sandbox's outbox). */
  platformDelivery: 'e2e-platform-delivery',
  /** Globetrotter, direct, with a partner secret: the partner's server asks for a reissue after the sale. */
  reissue: 'e2e-reissue',
  /** Harbour (white label): the retail brand's legal links, no terms or privacy link in the config. */
  whiteLabel: 'e2e-white-label',
  /** Globetrotter, direct, `consent: 'button'`: the buy button's words are the consent, no checkbox. */
  consentButton: 'e2e-consent-button',
  /**
   * Globetrotter, direct, on the sandbox whose faults a test sets (a slow `POST /orders`), with a partner secret
   * so that the test lists its checkouts.
   */
  reloadDirect: 'e2e-reload-direct',
  /** Globetrotter, direct, with a partner secret: a create settled after a reload past its session's end. */
  reloadLate: 'e2e-reload-late',
  /**
   * Globetrotter, direct, partner A's (the suite's partner secret; webhooks to the demo partner server): the
   * console's sales (its users: `TEST_CONSOLE_USERS`).
   */
  console: 'e2e-console',
  /** Aurora, direct, partner B's (a partner secret of its own): the console user who must see none of A's. */
  consoleRival: 'e2e-console-rival',
} as const;

/**
 * The console's users (added to the BFF's store at start by `test-bff.ts`): partner A's support agent, viewer
 * and admin (no second factor: a `test` console lets an admin without one), and partner B's support agent.
 */
export const TEST_CONSOLE_USERS = {
  support: { username: 'support@a.e2e.example', role: 'support', widgetId: TEST_WIDGETS.console },
  viewer: { username: 'viewer@a.e2e.example', role: 'viewer', widgetId: TEST_WIDGETS.console },
  admin: { username: 'admin@a.e2e.example', role: 'admin', widgetId: TEST_WIDGETS.console },
  partnerB: { username: 'support@b.e2e.example', role: 'support', widgetId: TEST_WIDGETS.consoleRival },
} as const;
/** Every console user's password in the suite. */
export const TEST_CONSOLE_PASSWORD = 'e2e-console-password';

/**
 * Where partner A's console widget sends its webhooks (on the BFF's origin, beside the demo partner server):
 * `test-bff.ts` answers, refusing a traveller's at `CONSOLE_REFUSED_DOMAIN` until a test lets them through.
 */
export const CONSOLE_WEBHOOKS_PATH = '/__e2e/console-webhooks';
/** The e-mail domain whose travellers' events partner A's endpoint refuses until a test lets them through. */
export const CONSOLE_REFUSED_DOMAIN = 'refused.example';

/** The brand name of the `longBrand` widget: long words in a long name, as a header must keep them whole. */
export const LONG_BRAND_NAME = 'Международные Путешествия Плюс';

/** The demo's own widgets (`@esim-embed/bff/demo-partners`), so the demo pages run in the tests. */
const DEMO_WIDGETS = DEMO_PARTNERS.flatMap(({ key }) =>
  DEMO_CHECKOUT_MODES.map((mode) => ({
    id: demoWidgetId(key, mode),
    key,
    confirm: mode === 'partner_confirm',
  })),
);

type KeyName = 'globetrotter' | 'aurora' | 'lagoon' | 'root' | 'shoestring' | 'harbour';

/** Builds the config for the running sandboxes and origins. */
export function testBffConfig(options: {
  sandboxes: Record<SandboxRole, string>;
  keys: Record<KeyName, string>;
  allowedOrigins: string[];
  sessionTtlSeconds?: number;
  /** Where the demo partner server listens (the BFF's origin): the demo's partner_confirm widgets send webhooks there. */
  partnerServerUrl?: string;
}): { config: BffConfigInput; secrets: TestSecrets } {
  const partnerSecret = 'e2e-partner-secret-0123456789abcdef';
  const webhookSecret = 'e2e-webhook-secret-0123456789abcdef';
  const env: Record<string, string> = {
    E2E_SESSION_SECRET: 'e2e-session-secret-0123456789abcdef-0123456789',
    E2E_PARTNER_SECRET: partnerSecret,
    E2E_WEBHOOK_SECRET: webhookSecret,
    E2E_KEY_GLOBETROTTER: options.keys.globetrotter,
    E2E_KEY_AURORA: options.keys.aurora,
    E2E_KEY_LAGOON: options.keys.lagoon,
    E2E_KEY_ROOT: options.keys.root,
    E2E_KEY_SHOESTRING: options.keys.shoestring,
    E2E_KEY_HARBOUR: options.keys.harbour,
    E2E_RIVAL_PARTNER_SECRET: 'e2e-rival-partner-secret-0123456789abcdef',
  };
  const keyEnv = (key: KeyName) => `E2E_KEY_${key.toUpperCase()}`;
  const webhooks =
    options.partnerServerUrl === undefined
      ? {}
      : {
          webhookUrl: `${options.partnerServerUrl}/demo-partner/webhooks`,
          webhookSecretEnv: 'E2E_WEBHOOK_SECRET',
        };
  const widget = (id: string, role: SandboxRole, key: KeyName, confirm: boolean) => ({
    id,
    displayName: id,
    environment: 'test' as const,
    upstream: {
      baseUrl: options.sandboxes[role],
      apiKeyEnv: keyEnv(key),
      timeoutMs: 5_000,
      rateLimitPerMinute: 100_000,
    },
    allowedOrigins: options.allowedOrigins,
    // The sandbox's logo host does not resolve offline: the BFF serves the demo's partner logos itself.
    brand: { logoUrl: `/partners/${key === 'root' ? 'globetrotter' : key}.svg` },
    checkoutMode: confirm ? ('partner_confirm' as const) : ('direct' as const),
    ...(confirm ? { partnerSecretEnv: 'E2E_PARTNER_SECRET' } : {}),
    // The suite's partners say they email the traveller themselves: the checkout asks for an address.
    partnerSendsEmail: true,
    // Generous limits: the suite opens many sessions from one IP.
    limits: { sessionsPerIpPerMinute: 10_000, requestsPerSessionPerMinute: 100_000, checkoutsPerSession: 20 },
  });

  const config: BffConfigInput = {
    sessionSecretEnv: 'E2E_SESSION_SECRET',
    sessionTtlSeconds: options.sessionTtlSeconds ?? 900,
    statusCacheMs: 0,
    // The suite leaves checkouts unpaid (declines, reloads, forgeries) from one IP and in parallel: the address's
    // and the session's unpaid caps are opened wide; the unpaid-holds and payment-holds tests of the BFF hold them
    // to account.
    unpaidHolds: { perAddress: 1_000, perSession: 20 },
    // Its partner payments too (3-D Secure left waiting, declines): the payment caps likewise.
    paymentHolds: { perAddress: 1_000, perSession: 20 },
    // The suite buys from one address on keys the sandbox does not limit: the upstream budget's shares are whole.
    upstreamBudget: { addressPercent: 100, sessionPercent: 100, widgetPercent: 100 },
    // The partner console at /console/ (its users: TEST_CONSOLE_USERS).
    console: { enabled: true },
    widgets: [
      widget(TEST_WIDGETS.direct, 'main', 'globetrotter', false),
      widget(TEST_WIDGETS.rub, 'main', 'aurora', false),
      // Webhooks to the demo partner server, whose ledger shows what the partner heard.
      { ...widget(TEST_WIDGETS.confirm, 'main', 'lagoon', true), ...webhooks },
      widget(TEST_WIDGETS.shortQuote, 'shortQuote', 'globetrotter', false),
      widget(TEST_WIDGETS.priceChange, 'priceChange', 'globetrotter', false),
      widget(TEST_WIDGETS.failure, 'failure', 'globetrotter', false),
      widget(TEST_WIDGETS.held, 'held', 'globetrotter', false),
      // The demo has no Shoestring logo: its widgets show Globetrotter's (a missing logo would log a 404).
      ...[
        widget(TEST_WIDGETS.lowBalance, 'main', 'shoestring', false),
        widget(TEST_WIDGETS.lowBalanceConfirm, 'main', 'shoestring', true),
      ].map((lowBalance) => ({ ...lowBalance, brand: { logoUrl: '/partners/globetrotter.svg' } })),
      ...DEMO_WIDGETS.map((demo) => ({
        ...widget(demo.id, 'main', demo.key, demo.confirm),
        ...(demo.confirm ? webhooks : {}),
      })),
      widget(TEST_WIDGETS.confirmExpiring, 'shortQuote', 'lagoon', true),
      { ...widget(TEST_WIDGETS.confirmFailing, 'failure', 'lagoon', true), ...webhooks },
      {
        ...widget(TEST_WIDGETS.longBrand, 'tour', 'aurora', false),
        brand: { displayName: LONG_BRAND_NAME, logoUrl: null },
      },
      { ...widget(TEST_WIDGETS.auroraName, 'main', 'aurora', false), brand: { logoUrl: null } },
      {
        ...widget(TEST_WIDGETS.platformDelivery, 'main', 'globetrotter', false),
        deliveryMode: 'platform' as const,
      },
      {
        ...widget(TEST_WIDGETS.reissue, 'main', 'globetrotter', false),
        partnerSecretEnv: 'E2E_PARTNER_SECRET',
      },
      {
        ...widget(TEST_WIDGETS.reloadDirect, 'faults', 'globetrotter', false),
        partnerSecretEnv: 'E2E_PARTNER_SECRET',
      },
      {
        ...widget(TEST_WIDGETS.reloadLate, 'main', 'globetrotter', false),
        partnerSecretEnv: 'E2E_PARTNER_SECRET',
      },
      {
        ...widget(TEST_WIDGETS.console, 'main', 'globetrotter', false),
        partnerSecretEnv: 'E2E_PARTNER_SECRET',
        ...(options.partnerServerUrl === undefined
          ? {}
          : {
              webhookUrl: `${options.partnerServerUrl}${CONSOLE_WEBHOOKS_PATH}`,
              webhookSecretEnv: 'E2E_WEBHOOK_SECRET',
            }),
      },
      {
        ...widget(TEST_WIDGETS.consoleRival, 'main', 'aurora', false),
        partnerSecretEnv: 'E2E_RIVAL_PARTNER_SECRET',
      },
      // No logo of its own in the demo: its name is the header.
      { ...widget(TEST_WIDGETS.whiteLabel, 'main', 'harbour', false), brand: { logoUrl: null } },
      {
        ...widget(TEST_WIDGETS.consentButton, 'main', 'globetrotter', false),
        consent: 'button' as const,
        brand: {
          logoUrl: '/partners/globetrotter.svg',
          termsUrl: 'https://globetrotter.example/terms',
          privacyUrl: 'https://globetrotter.example/privacy',
        },
      },
    ],
  };
  return { config, secrets: { env, partnerSecret, webhookSecret } };
}
