/**
 * @module
 * The seeded partner accounts and API keys. The key strings are stable constants: the BFF's default
 * config, the demo and the tests import them from here (`@esim-embed/sandbox`).
 *
 * Over 300 lines: seed data, one literal per account and key, read as a table.
 */
import type { AccountKind, Brand, Currency, Environment, KeyScope, RetailBrand } from '@esim-embed/shared';
import { KeyScopeSchema } from '@esim-embed/shared';
import { AURORA_RETAIL_BRAND, HARBOUR_RETAIL_BRAND } from './retail-brands';

/** The stable key strings of the seeded accounts. */
export const SANDBOX_KEYS = {
  /** Globetrotter Travel (USD): every scope. The demo's default key. */
  globetrotter: 'sk_test_globetrotter_full_7Qm2Xr9Lk4Vt',
  /** Globetrotter Travel: without `esims:read` and `recipients:read` (order `esim`/`recipient` go null). */
  globetrotterLimited: 'sk_test_globetrotter_limited_3Hs8Np1Wd6Zc',
  /** Globetrotter Travel: every scope, but only 5 requests per minute. */
  globetrotterRateLimited: 'sk_test_globetrotter_ratelimited_5Jv0Tb7Yf2Ke',
  /** Globetrotter Travel in `live`: separate state (own balance, orders, idempotency keys). */
  globetrotterLive: 'sk_live_globetrotter_4Bp7Zu2Mc9Xs',
  /** Aurora Travel (RUB, `wholeRubOnly`): every scope. */
  aurora: 'sk_test_aurora_full_8Rc4Gm6Qx1Pn',
  /** Blue Lagoon Holidays (USD, no limits): every scope. */
  lagoon: 'sk_test_lagoon_full_2Wd9Fs3Lh7Ub',
  /** Shoestring Trips (USD): every scope, a balance of only $5.00. */
  shoestring: 'sk_test_shoestring_lowbalance_6Ny1Ke5Va8Tr',
  /** The root account: every scope. */
  root: 'sk_test_root_full_1Zx6Cv3Bn8Mq',
  /** Harbour Travel (USD): every scope; runs the retail brand (white label) Harbour Mobile. */
  harbour: 'sk_test_harbour_whitelabel_9Lt3Qw6Ep2Ds',
  /** Harbour Travel in `live`: the retail brand's live checkout (its `readiness.tracks.liveCheckout`). */
  harbourLive: 'sk_live_harbour_whitelabel_3Fq8Rm5Tz1Wa',
} as const;

/** The seeded account ids. */
export const SANDBOX_ACCOUNTS = {
  root: 'acc_sandbox_root',
  globetrotter: 'acc_globetrotter',
  aurora: 'acc_aurora',
  lagoon: 'acc_lagoon',
  shoestring: 'acc_shoestring',
  harbour: 'acc_harbour',
} as const;

/** A seeded account: what `GET /account` starts from in each environment. */
export interface SeedAccount {
  id: string;
  parentAccountId: string | null;
  externalRef: string | null;
  name: string;
  kind: AccountKind;
  currency: Currency;
  wholeRubOnly: boolean;
  discountPct: number;
  /** Starting prepaid balance in minor units. */
  balanceMinor: number;
  singleOrderLimitMinor: number | null;
  monthlySpendLimitMinor: number | null;
  /** Brand fields; `logoUrl` is filled in with the configured asset base (see `brand-assets.ts`). */
  brand: Omit<Brand, 'logoUrl'> & { logoFile: string | null };
  /** The retail brands (white label) the account runs; their `controls` start as seeded. */
  retailBrands: readonly RetailBrand[];
  createdAt: string;
}

/** A seeded API key. */
export interface SeedKey {
  key: string;
  id: string;
  accountId: string;
  environment: Environment;
  label: string;
  scopes: readonly KeyScope[];
  /** Requests per minute, or null for no limit. */
  rateLimitPerMinute: number | null;
}

const ALL_SCOPES: readonly KeyScope[] = KeyScopeSchema.options;
const LIMITED_SCOPES = ALL_SCOPES.filter((scope) => scope !== 'esims:read' && scope !== 'recipients:read');

/** The seeded accounts (the same in `test` and `live`; their state is separate). */
export const SEED_ACCOUNTS: readonly SeedAccount[] = [
  {
    id: SANDBOX_ACCOUNTS.root,
    parentAccountId: null,
    externalRef: null,
    name: 'eSIM Sandbox Root',
    kind: 'root',
    currency: 'USD',
    wholeRubOnly: false,
    discountPct: 35,
    balanceMinor: 100_000_000,
    singleOrderLimitMinor: null,
    monthlySpendLimitMinor: null,
    brand: {
      displayName: 'eSIM Sandbox',
      logoFile: null,
      primaryColor: '#334155',
      supportEmail: 'support@sandbox.esim-embed.example',
      supportUrl: 'https://sandbox.esim-embed.example/support',
      customDomain: null,
      customDomainStatus: 'not_configured',
    },
    retailBrands: [],
    createdAt: '2026-01-05T09:00:00.000Z',
  },
  {
    id: SANDBOX_ACCOUNTS.globetrotter,
    parentAccountId: SANDBOX_ACCOUNTS.root,
    externalRef: 'partner-globetrotter',
    name: 'Globetrotter Travel Ltd',
    kind: 'reseller',
    currency: 'USD',
    wholeRubOnly: false,
    discountPct: 22,
    balanceMinor: 2_500_000,
    singleOrderLimitMinor: 50_000,
    monthlySpendLimitMinor: 1_000_000,
    brand: {
      displayName: 'Globetrotter',
      logoFile: 'globetrotter.png',
      primaryColor: '#0B6E4F',
      supportEmail: 'help@globetrotter.example',
      supportUrl: 'https://globetrotter.example/help',
      customDomain: null,
      customDomainStatus: 'not_configured',
    },
    retailBrands: [],
    createdAt: '2026-02-10T12:00:00.000Z',
  },
  {
    id: SANDBOX_ACCOUNTS.aurora,
    parentAccountId: SANDBOX_ACCOUNTS.root,
    externalRef: 'partner-aurora',
    name: 'ООО «Аврора Тревел»',
    kind: 'reseller',
    currency: 'RUB',
    wholeRubOnly: true,
    discountPct: 18,
    balanceMinor: 50_000_000,
    singleOrderLimitMinor: 5_000_000,
    monthlySpendLimitMinor: 100_000_000,
    brand: {
      displayName: 'Аврора',
      logoFile: 'aurora.png',
      primaryColor: '#7B2CBF',
      supportEmail: 'support@aurora-travel.example',
      supportUrl: 'https://aurora-travel.example/support',
      customDomain: 'esim.aurora-travel.example',
      customDomainStatus: 'pending_verification',
    },
    retailBrands: [AURORA_RETAIL_BRAND],
    createdAt: '2026-03-01T08:30:00.000Z',
  },
  {
    id: SANDBOX_ACCOUNTS.lagoon,
    parentAccountId: SANDBOX_ACCOUNTS.root,
    externalRef: 'partner-lagoon',
    name: 'Blue Lagoon Holidays',
    kind: 'reseller',
    currency: 'USD',
    wholeRubOnly: false,
    discountPct: 25,
    balanceMinor: 10_000_000,
    singleOrderLimitMinor: null,
    monthlySpendLimitMinor: null,
    brand: {
      displayName: 'Blue Lagoon',
      logoFile: 'lagoon.png',
      primaryColor: '#0077B6',
      supportEmail: 'care@bluelagoon-holidays.example',
      supportUrl: 'https://bluelagoon-holidays.example/care',
      customDomain: null,
      customDomainStatus: 'not_configured',
    },
    retailBrands: [],
    createdAt: '2026-04-14T15:45:00.000Z',
  },
  {
    id: SANDBOX_ACCOUNTS.shoestring,
    parentAccountId: SANDBOX_ACCOUNTS.globetrotter,
    externalRef: 'partner-shoestring',
    name: 'Shoestring Trips',
    kind: 'managed_customer',
    currency: 'USD',
    wholeRubOnly: false,
    discountPct: 15,
    balanceMinor: 500,
    singleOrderLimitMinor: null,
    monthlySpendLimitMinor: null,
    brand: {
      displayName: 'Shoestring',
      logoFile: 'shoestring.png',
      primaryColor: '#E76F51',
      supportEmail: 'hello@shoestring-trips.example',
      supportUrl: 'https://shoestring-trips.example/contact',
      customDomain: null,
      customDomainStatus: 'not_configured',
    },
    retailBrands: [],
    createdAt: '2026-05-20T10:00:00.000Z',
  },
  {
    id: SANDBOX_ACCOUNTS.harbour,
    parentAccountId: SANDBOX_ACCOUNTS.root,
    externalRef: 'partner-harbour',
    name: 'Harbour Travel Lda',
    kind: 'reseller',
    currency: 'USD',
    wholeRubOnly: false,
    discountPct: 20,
    balanceMinor: 5_000_000,
    singleOrderLimitMinor: null,
    monthlySpendLimitMinor: null,
    brand: {
      displayName: 'Harbour Mobile',
      logoFile: null,
      primaryColor: '#14532D',
      supportEmail: 'care@harbour-mobile.example',
      supportUrl: 'https://harbour-mobile.example/support',
      customDomain: null,
      customDomainStatus: 'not_configured',
    },
    retailBrands: [HARBOUR_RETAIL_BRAND],
    createdAt: '2026-06-01T09:00:00.000Z',
  },
];

/** The seeded keys. */
export const SEED_KEYS: readonly SeedKey[] = [
  {
    key: SANDBOX_KEYS.globetrotter,
    id: 'key_globetrotter_full',
    accountId: SANDBOX_ACCOUNTS.globetrotter,
    environment: 'test',
    label: 'Globetrotter test (all scopes)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.globetrotterLimited,
    id: 'key_globetrotter_limited',
    accountId: SANDBOX_ACCOUNTS.globetrotter,
    environment: 'test',
    label: 'Globetrotter test (no esims:read, no recipients:read)',
    scopes: LIMITED_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.globetrotterRateLimited,
    id: 'key_globetrotter_ratelimited',
    accountId: SANDBOX_ACCOUNTS.globetrotter,
    environment: 'test',
    label: 'Globetrotter test (5 requests per minute)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: 5,
  },
  {
    key: SANDBOX_KEYS.globetrotterLive,
    id: 'key_globetrotter_live',
    accountId: SANDBOX_ACCOUNTS.globetrotter,
    environment: 'live',
    label: 'Globetrotter live',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.aurora,
    id: 'key_aurora_full',
    accountId: SANDBOX_ACCOUNTS.aurora,
    environment: 'test',
    label: 'Aurora test (all scopes)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.lagoon,
    id: 'key_lagoon_full',
    accountId: SANDBOX_ACCOUNTS.lagoon,
    environment: 'test',
    label: 'Blue Lagoon test (all scopes)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.shoestring,
    id: 'key_shoestring_lowbalance',
    accountId: SANDBOX_ACCOUNTS.shoestring,
    environment: 'test',
    label: 'Shoestring test (low balance)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.harbour,
    id: 'key_harbour_full',
    accountId: SANDBOX_ACCOUNTS.harbour,
    environment: 'test',
    label: 'Harbour test (all scopes, retail brand)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.harbourLive,
    id: 'key_harbour_live',
    accountId: SANDBOX_ACCOUNTS.harbour,
    environment: 'live',
    label: 'Harbour live (all scopes, retail brand)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
  {
    key: SANDBOX_KEYS.root,
    id: 'key_root_full',
    accountId: SANDBOX_ACCOUNTS.root,
    environment: 'test',
    label: 'Root test (all scopes)',
    scopes: ALL_SCOPES,
    rateLimitPerMinute: null,
  },
];
