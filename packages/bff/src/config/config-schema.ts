/**
 * @module
 * The BFF's one config schema: a JSON file (`ESIM_BFF_CONFIG`) validated here, with secrets only as the
 * *names* of environment variables. Types come from the schema; nothing else describes a widget.
 */
import {
  BrandKeySchema,
  CheckoutModeSchema,
  ConsentModeSchema,
  EnvironmentSchema,
  LocaleSchema,
  NonNegativeMoneySchema,
  WidgetBrandSchema,
  WidgetIdSchema,
  type WidgetPublicConfig,
} from '@esim-embed/shared';
import { z } from 'zod';
import { parseOriginPattern } from '../security/origin-policy';
import { brandLinkProblem, checkedBy, logoProblem, SUPPORT_URL_PLACEHOLDER } from './brand-url-rules';
import { DEFAULT_PRICING_RULE, PricingRuleSchema } from './pricing-rule';

/** The name of an environment variable that holds a secret (never the secret itself). */
export const EnvNameSchema = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]{0,127}$/, 'an environment variable name like ACME_UPSTREAM_API_KEY');

/** An allowed origin: `https://shop.example` exactly, or an explicit subdomain pattern `https://*.example`. */
export const AllowedOriginSchema = z.string().superRefine((value, ctx) => {
  const problem = parseOriginPattern(value).problem;
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/** Rate limits and spend caps of one widget. */
export const WidgetLimitsSchema = z.strictObject({
  /** Widget starts per client IP per minute, and new sessions per client IP per minute (each counted apart). */
  sessionsPerIpPerMinute: z.int().min(1).max(10_000).default(30),
  /** Requests per session per minute, all endpoints together. */
  requestsPerSessionPerMinute: z.int().min(1).max(100_000).default(300),
  /** Quotes one session may create. */
  quotesPerSession: z.int().min(1).max(1_000).default(50),
  /** Checkouts one session may create. */
  checkoutsPerSession: z.int().min(1).max(100).default(5),
  /**
   * Writes (the partner API's POST routes: payment-started, confirm, decline, cancel, links, help requests,
   * resends) the partner may make per minute. Counted per partner secret, all the widgets it opens together,
   * within the smallest setting among them.
   */
  partnerWritesPerMinute: z.int().min(1).max(100_000).default(120),
  /**
   * `direct` checkout in `live` spends the partner's prepaid balance on a browser's word alone, so it needs
   * this explicit opt-in and both caps below (wholesale amounts, in the settlement currency).
   */
  directLiveOptIn: z.boolean().default(false),
  maxSpendPerSession: NonNegativeMoneySchema.optional(),
  maxSpendPerDay: NonNegativeMoneySchema.optional(),
});
export type WidgetLimits = z.infer<typeof WidgetLimitsSchema>;

/**
 * How far checkouts awaiting the partner's payment may hold its money (docs/payments.md, "Unpaid checkouts"):
 * per upstream account, whichever widgets sell through it. A paying traveller never waits for them.
 */
export const UnpaidHoldsSchema = z.strictObject({
  /** How long an unpaid checkout holds its price's wholesale amount (at most until its payment deadline). */
  holdSeconds: z.int().min(1).max(86_400).default(600),
  /** Unpaid holds one client address (an IPv6 /64) may have open on one account. */
  perAddress: z.int().min(1).max(1_000).default(3),
  /** Unpaid holds one session may have open. */
  perSession: z.int().min(1).max(100).default(2),
  /** The percentage of what paying travellers could still spend (balance and monthly limit) unpaid holds may take. */
  sharePercent: z.int().min(0).max(100).default(50),
  /** Unpaid holds one account may have open at all. */
  maxOpen: z.int().min(1).max(1_000).default(200),
});
export type UnpaidHolds = z.infer<typeof UnpaidHoldsSchema>;

/**
 * How far payments the partner started (`payment-started`) may hold its money firmly (docs/payments.md, "Unpaid
 * checkouts"): per upstream account, counted by the address and the session that opened each checkout. A started
 * payment keeps its checkout's hold for a paying traveller to leave until it is confirmed, declined, or its time
 * is up; until it is confirmed the hold also stays counted against the unpaid caps of whoever opened it.
 */
export const PaymentHoldsSchema = z.strictObject({
  /**
   * How long a started payment holds firmly when it is neither confirmed nor declined (never past the checkout's
   * `expiresAt` and 5 minutes): then its hold is unpaid again, or gone when its unpaid time is over.
   */
  holdSeconds: z.int().min(30).max(3_600).default(900),
  /** Payments in progress of the checkouts one client address (an IPv6 /64) opened, on one account. */
  perAddress: z.int().min(1).max(1_000).default(2),
  /** Payments in progress of the checkouts one session opened. */
  perSession: z.int().min(1).max(100).default(2),
  /** Payments in progress on one account at all. */
  maxOpen: z.int().min(1).max(1_000).default(100),
});
export type PaymentHolds = z.infer<typeof PaymentHoldsSchema>;

/**
 * How long the BFF keeps what it stores about travellers and partners (docs/configuration.md, "Retention"), in
 * days; each default is the period of the release before the setting. An index entry ends with the record it
 * names (never more than one store sweep after it), so these periods are the lists' too.
 */
export const RetentionSchema = z.strictObject({
  /** A checkout after its last change (its list entries end with it; its order reference is kept twice this). */
  checkoutDays: z.int().min(1).max(365).default(30),
  /** A webhook delivery after its last change (its attempts, for the partner's list and resend). */
  webhookDeliveryDays: z.int().min(2).max(90).default(8),
  /** A help request (cancellation, refund, reissue) after its last change, and a reissue's replacement. */
  actionRequestDays: z.int().min(7).max(730).default(90),
  /**
   * An eSIM's seller (which widget sold it: the partner routes reach only their own eSIMs) and its entry in the
   * seller's eSIM list, after the sale: at least a year, the longest a manage link lives.
   */
  esimDays: z.int().min(365).max(3_650).default(730),
  /**
   * A sale's ledger record (no personal data: `/v1/partner/sales`) after its last change — long after the
   * checkout itself — so that the partner finds and exports its sales for accounting.
   */
  salesLedgerDays: z.int().min(31).max(3_660).default(400),
});
export type Retention = z.infer<typeof RetentionSchema>;

/** The retention periods in milliseconds, as the stores' times to live take them. */
export interface RetentionMs {
  checkoutMs: number;
  webhookDeliveryMs: number;
  actionRequestMs: number;
  esimMs: number;
  salesLedgerMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `retention` in milliseconds (the defaults when none is given). */
export function retentionMs(retention: Retention = RetentionSchema.parse({})): RetentionMs {
  return {
    checkoutMs: retention.checkoutDays * DAY_MS,
    webhookDeliveryMs: retention.webhookDeliveryDays * DAY_MS,
    actionRequestMs: retention.actionRequestDays * DAY_MS,
    esimMs: retention.esimDays * DAY_MS,
    salesLedgerMs: retention.salesLedgerDays * DAY_MS,
  };
}

/**
 * The widget's own brand overrides, merged over the upstream account's brand. `logoUrl` may also be a path on
 * the BFF's own origin (`/brand/acme.svg`); the brand is validated again before it reaches a browser.
 */
export const BrandOverridesSchema = WidgetBrandSchema.partial().extend({
  /** `null`: no logo at all (the header shows the display name), not even the upstream account's. */
  logoUrl: checkedBy(logoProblem).nullable().optional(),
  /** `null`: no support link, not even the upstream account's. */
  supportUrl: checkedBy(brandLinkProblem).nullable().optional(),
  termsUrl: checkedBy(brandLinkProblem).nullable().optional(),
  privacyUrl: checkedBy(brandLinkProblem).nullable().optional(),
});

/** The shares of each upstream key's calls per minute (`upstream/budget-shares.ts`). */
export const UpstreamBudgetSchema = z.strictObject({
  /** What background work may use together. */
  backgroundPercent: z.int().min(1).max(50).default(20),
  /** What the travellers behind one client address may cause (never below 60 calls a minute). */
  addressPercent: z.int().min(1).max(100).default(10),
  /** What one session may cause (never below 30 calls a minute). */
  sessionPercent: z.int().min(1).max(100).default(5),
  /** What one widget may cause when several widgets share the key. */
  widgetPercent: z.int().min(1).max(100).default(50),
});
export type UpstreamBudgetConfig = z.infer<typeof UpstreamBudgetSchema>;

/** The upstream API a widget sells through. */
export const UpstreamConfigSchema = z
  .strictObject({
    baseUrl: z.url({ protocol: /^https?$/ }),
    /** The environment variable holding the upstream `X-Api-Key`. */
    apiKeyEnv: EnvNameSchema,
    timeoutMs: z.int().min(100).max(120_000).default(8_000),
    maxRetries: z.int().min(0).max(5).default(2),
    /**
     * Calls per minute the key may make (the key's `rateLimitPerMinute`, or less). Widgets on one key share it;
     * the smallest one configured among them counts. A limit the upstream states in its answers is used up to it;
     * absent, the upstream's stated limit, and until it states one, 600.
     */
    rateLimitPerMinute: z.int().min(1).max(1_000_000).optional(),
    /**
     * The brand cell the key must be bound to (its capabilities' `tenantAttestation.brandKey`); a key bound to
     * another brand, or to none, stops the widget. Absent: not checked.
     */
    brandKey: BrandKeySchema.optional(),
    /** For a key restricted by mTLS: the environment variable holding the client certificate (PEM). */
    clientCertificateEnv: EnvNameSchema.optional(),
    /** The environment variable holding the client certificate's private key (PEM). */
    clientKeyEnv: EnvNameSchema.optional(),
    /**
     * The environment variable holding the CA certificates (PEM) that sign the upstream's server certificate,
     * for an upstream behind a private CA; they replace the public roots for this upstream. Absent: public roots.
     */
    caCertificateEnv: EnvNameSchema.optional(),
  })
  .refine(
    (upstream) => (upstream.clientCertificateEnv === undefined) === (upstream.clientKeyEnv === undefined),
    {
      message: 'clientCertificateEnv and clientKeyEnv go together (a certificate needs its key)',
      path: ['clientKeyEnv'],
    },
  )
  .refine(
    (upstream) =>
      (upstream.clientCertificateEnv === undefined && upstream.caCertificateEnv === undefined) ||
      upstream.baseUrl.startsWith('https:'),
    { message: 'a client certificate or a CA needs an https baseUrl', path: ['baseUrl'] },
  );

const ALL_LOCALES = LocaleSchema.options;

/** A mailbox as a mail header writes it: `esim@acme.example`, or with a name, `Acme Travel <esim@acme.example>`. */
export const MailboxSchema = z
  .string()
  .max(320)
  .refine((value) => parseMailbox(value) !== null, {
    message: 'an email address (esim@acme.example), or a name and one (Acme Travel <esim@acme.example>)',
  });

/** A mailbox's name (null when it has none) and address; null when it is not a mailbox ({@link MailboxSchema}). */
export function parseMailbox(mailbox: string): { name: string | null; address: string } | null {
  const named = /^\s*([^<>\r\n"]*?)\s*<([^<>\s]+)>\s*$/.exec(mailbox);
  const address = named?.[2] ?? mailbox.trim();
  if (!z.email().safeParse(address).success) return null;
  return { name: named?.[1] || null, address };
}

/**
 * The installation email the BFF sends a widget's travellers itself (`mail/`), through the SMTP server of
 * `ESIM_BFF_SMTP_URL`: who it is from, where replies go, and which page of yours its manage link opens.
 */
export const WidgetMailSchema = z.strictObject({
  /** The sender: an address your SMTP server may send from; without a name, the brand's name is shown. */
  from: MailboxSchema,
  /** Where the traveller's replies go. Default: the brand's `supportEmail`, else `from`. */
  replyTo: MailboxSchema.optional(),
  /**
   * The page of yours the widget is on: the email's manage link ("my eSIM") is this address with the token in
   * its fragment. Default: the origin the traveller bought from, `/`.
   */
  manageUrl: z.url({ protocol: /^https?$/ }).optional(),
});
export type WidgetMail = z.infer<typeof WidgetMailSchema>;

/** One embeddable widget: who may embed it, what it sells through, how it takes payment. */
export const WidgetConfigSchema = z
  .strictObject({
    id: WidgetIdSchema,
    displayName: z.string().min(1).max(120),
    /** A disabled widget refuses new sessions with `storefront_app_disabled`. */
    enabled: z.boolean().default(true),
    environment: EnvironmentSchema,
    upstream: UpstreamConfigSchema,
    allowedOrigins: z.array(AllowedOriginSchema).min(1),
    /** Default: `direct` in `test`, `partner_confirm` in `live`. */
    checkoutMode: CheckoutModeSchema.optional(),
    /** The environment variable holding the partner server's secret for `/v1/partner/*`. */
    partnerSecretEnv: EnvNameSchema.optional(),
    /** Where the BFF POSTs signed events about this widget's checkouts and eSIMs (docs/webhooks.md). */
    webhookUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** The environment variable holding the webhook signing secret (required with `webhookUrl`). */
    webhookSecretEnv: EnvNameSchema.optional(),
    /**
     * Below this spendable balance (the account's available balance less what open checkouts hold) the widget's
     * webhook receives `account.balance_low`, once per crossing. In the account's settlement currency.
     */
    lowBalanceThreshold: NonNegativeMoneySchema.optional(),
    pricing: PricingRuleSchema.default(DEFAULT_PRICING_RULE),
    brand: BrandOverridesSchema.default({}),
    defaultLocale: LocaleSchema.default('en'),
    locales: z
      .array(LocaleSchema)
      .min(1)
      .default([...ALL_LOCALES]),
    /** `platform`: the upstream emails the traveller (then an email is required at checkout). */
    deliveryMode: z.enum(['partner', 'platform']).default('partner'),
    /**
     * With `deliveryMode: "partner"`: the BFF emails the traveller the installation details itself, from this
     * sender, through the SMTP server of `ESIM_BFF_SMTP_URL`.
     */
    mail: WidgetMailSchema.optional(),
    /**
     * With `deliveryMode: "partner"` and no `mail`: `true` says you email the traveller the installation details
     * yourself (the checkout and its webhooks carry the address). Absent or `false`: nobody does, so the widget
     * promises no email and asks for none unless `emailRequired`.
     */
    partnerSendsEmail: z.boolean().optional(),
    emailRequired: z.boolean().default(false),
    /**
     * How the traveller accepts your terms: `checkbox` (a box to tick before buying, the default: what you
     * had before this setting, and what a legal team that asked for explicit consent expects), or `button`
     * (the buy button's own words, "By buying you accept the terms", one tap fewer). Either way the checkout
     * says `termsAccepted: true` only after the traveller's act.
     */
    consent: ConsentModeSchema.default('checkbox'),
    /**
     * Whether the widget tells the traveller, before the buy button, whether their device can take an eSIM
     * (and how to check when it cannot know). It never blocks a purchase.
     */
    deviceCheck: z.boolean().default(true),
    /** How long a `partner_confirm` checkout waits for the partner's confirm. */
    paymentWindowMinutes: z
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    limits: WidgetLimitsSchema.default(WidgetLimitsSchema.parse({})),
  })
  .transform((widget) => ({
    ...widget,
    checkoutMode: widget.checkoutMode ?? (widget.environment === 'live' ? 'partner_confirm' : 'direct'),
    emailRequired: widget.emailRequired || widget.deliveryMode === 'platform',
    emailSender: emailSenderOf(widget),
  }))
  .superRefine((widget, ctx) => {
    if (!widget.locales.includes(widget.defaultLocale)) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultLocale'],
        message: 'must be one of the widget’s locales',
      });
    }
    if (widget.checkoutMode === 'partner_confirm' && widget.partnerSecretEnv === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['partnerSecretEnv'],
        message: 'required for checkoutMode "partner_confirm" (the partner server confirms with it)',
      });
    }
    if (widget.partnerSendsEmail === false && widget.deliveryMode === 'platform') {
      ctx.addIssue({
        code: 'custom',
        path: ['partnerSendsEmail'],
        message:
          'false goes with deliveryMode "partner" only (in "platform" mode the upstream emails the traveller)',
      });
    }
    if (widget.mail !== undefined && widget.deliveryMode === 'platform') {
      ctx.addIssue({
        code: 'custom',
        path: ['mail'],
        message:
          'goes with deliveryMode "partner" only (in "platform" mode the upstream emails the traveller)',
      });
    }
    if (widget.mail !== undefined && widget.partnerSendsEmail === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['partnerSendsEmail'],
        message:
          'true says you email the installation details yourself, and mail makes the BFF send them: keep one ' +
          '(the traveller would get two emails)',
      });
    }
    if (widget.environment === 'live' && widget.mail?.manageUrl?.startsWith('http://')) {
      ctx.addIssue({
        code: 'custom',
        path: ['mail', 'manageUrl'],
        message: 'live widgets need an HTTPS page for the manage link',
      });
    }
    if ((widget.webhookUrl === undefined) !== (widget.webhookSecretEnv === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [widget.webhookUrl === undefined ? 'webhookUrl' : 'webhookSecretEnv'],
        message: 'webhookUrl and webhookSecretEnv go together (events are always signed)',
      });
    }
    if (widget.environment === 'live' && widget.webhookUrl?.startsWith('http://')) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhookUrl'],
        message: 'live widgets need an HTTPS webhook URL',
      });
    }
    if (widget.environment === 'live' && widget.brand.supportUrl === SUPPORT_URL_PLACEHOLDER) {
      ctx.addIssue({
        code: 'custom',
        path: ['brand', 'supportUrl'],
        message:
          'still the example config’s placeholder: set your own support page (https://…), or null for no support link, before going live',
      });
    }
    if (widget.environment === 'live') {
      widget.allowedOrigins.forEach((origin, index) => {
        if (!origin.startsWith('https://')) {
          ctx.addIssue({
            code: 'custom',
            path: ['allowedOrigins', index],
            message: 'live widgets need HTTPS origins',
          });
        }
      });
    }
    if (widget.environment === 'live' && widget.checkoutMode === 'direct') {
      const limits = widget.limits;
      if (!limits.directLiveOptIn) {
        ctx.addIssue({
          code: 'custom',
          path: ['limits', 'directLiveOptIn'],
          message:
            'checkoutMode "direct" in live spends the prepaid balance on a browser’s word: set true to opt in',
        });
      }
      for (const cap of ['maxSpendPerSession', 'maxSpendPerDay'] as const) {
        if (limits[cap] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['limits', cap],
            message: 'required for "direct" checkout in live',
          });
        }
      }
    }
  });
export type WidgetConfig = z.infer<typeof WidgetConfigSchema>;

/**
 * Who emails a widget's traveller the installation details, as the widget's start tells it (so that it promises
 * only what happens): the upstream in `platform` delivery; in `partner` delivery the partner's name — sent by the
 * BFF itself when `mail` is configured, or by the partner's own server when it says so (`partnerSendsEmail`);
 * otherwise nobody.
 */
function emailSenderOf(widget: {
  deliveryMode: 'partner' | 'platform';
  mail?: WidgetMail | undefined;
  partnerSendsEmail?: boolean | undefined;
}): WidgetPublicConfig['emailSender'] {
  if (widget.deliveryMode === 'platform') return 'upstream';
  return widget.mail !== undefined || widget.partnerSendsEmail === true ? 'partner' : 'none';
}

/**
 * What one client may hold of the HTTP server (docs/configuration.md, and the matching reverse-proxy settings in
 * docs/deployment.md).
 */
export const ServerLimitsConfigSchema = z
  .strictObject({
    /** A request's headers must all arrive within this. */
    headersTimeoutSeconds: z.int().min(1).max(120).default(10),
    /** A whole request, headers and body, must arrive within this. */
    requestTimeoutSeconds: z.int().min(1).max(600).default(30),
    /** A request body (or a connection that sends nothing) may not stall longer than this between bytes. */
    bodyIdleTimeoutSeconds: z.int().min(1).max(120).default(10),
    /**
     * Open connections one client address (an IPv6 /64) may hold at once; the next is refused. Behind trusted
     * proxies (`trustedProxyHops` > 0), where every connection is a proxy's: requests in flight per forwarded
     * client address.
     */
    maxConnectionsPerAddress: z.int().min(1).max(100_000).default(128),
    /**
     * How long a stop (SIGTERM, SIGINT) may take before the process exits: the requests under way get 40 % of it
     * to finish, then the background work half of it. Keep the orchestrator's grace period above it.
     */
    stopSeconds: z.int().min(2).max(600).default(10),
  })
  .refine((limits) => limits.headersTimeoutSeconds <= limits.requestTimeoutSeconds, {
    message: 'headersTimeoutSeconds must not exceed requestTimeoutSeconds',
    path: ['headersTimeoutSeconds'],
  });
export type ServerLimitsConfig = z.infer<typeof ServerLimitsConfigSchema>;

/** What the BFF keeps of travellers, beyond what a partner erases on request (docs/privacy.md). */
export const PrivacyConfigSchema = z.strictObject({
  /**
   * Days after a widget is found gone from the config before its travellers' data still in the store (checkouts,
   * webhook deliveries, kept answers, help requests, manage links) is erased, as a partner's erasure would: time
   * to put back a widget removed by mistake.
   */
  removedWidgetErasureDays: z.int().min(1).max(365).default(30),
});

/**
 * Single sign-on through a trusted proxy (the convention of Grafana's auth proxy and oauth2-proxy): the proxy signs
 * the staff member in and names them in a header. The header is believed only from the proxy — a request that
 * carries the shared secret of `secretEnv` in `secretHeader`, or that comes from one of `trustedProxies` (the
 * socket's address, never `X-Forwarded-For`) — and only for a console user of `partner` with that name (created by
 * an admin or the `console-user` command, or at the first sign-on with `signUpRole`).
 */
export const ConsoleSsoSchema = z
  .strictObject({
    /** A widget of the partner whose staff the proxy signs in. */
    partner: z.string().min(1).max(64),
    /** The header naming the signed-in user (their console name). */
    userHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .default('X-WEBAUTH-USER'),
    /** The header carrying the proxy's shared secret. */
    secretHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .default('X-Console-Proxy-Secret'),
    /** The environment variable holding that shared secret (≥ 32 bytes). */
    secretEnv: EnvNameSchema.optional(),
    /** The proxies' own addresses (the TCP peer's), when they send no shared secret. */
    trustedProxies: z
      .array(z.union([z.ipv4(), z.ipv6()]))
      .max(32)
      .default([]),
    /** The role of a name signed on for the first time; absent: only users that exist may sign on. */
    signUpRole: z.enum(['viewer', 'support', 'admin']).optional(),
    /** Whether the console's own name-and-password sign-in stays open beside the proxy's. */
    passwordSignIn: z.boolean().default(true),
  })
  .refine((sso) => sso.secretEnv !== undefined || sso.trustedProxies.length > 0, {
    message: 'name secretEnv or trustedProxies: a single sign-on header is never believed from anyone',
    path: ['secretEnv'],
  });
export type ConsoleSso = z.infer<typeof ConsoleSsoSchema>;

/**
 * The partner console (`/console/`, docs/console.md): off unless enabled. Its sessions, what slows a guessed
 * password down, how long its audit log is kept, and single sign-on.
 */
export const ConsoleConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** A session ends after this long without a request. */
  idleMinutes: z.int().min(1).max(480).default(30),
  /** A session ends this long after its sign-in, used or not. */
  sessionHours: z.int().min(1).max(24).default(12),
  /** Failed sign-ins of one name from one address, within `lockoutMinutes`, after which that pair waits. */
  failuresPerUserAndAddress: z.int().min(1).max(100).default(5),
  /** Failed sign-ins from one address, all names together, after which that address waits. */
  failuresPerAddress: z.int().min(1).max(10_000).default(50),
  /** The window those failures are counted in, and the longest wait. */
  lockoutMinutes: z.int().min(1).max(1_440).default(15),
  /** How long an audit entry is kept. */
  auditDays: z.int().min(30).max(3_660).default(400),
  sso: ConsoleSsoSchema.optional(),
});
export type ConsoleConfig = z.infer<typeof ConsoleConfigSchema>;

/** The whole config file. */
export const BffConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    /** Reverse proxies in front of the BFF whose `X-Forwarded-For` entries are trusted (0: use the socket). */
    trustedProxyHops: z.int().min(0).max(10).default(0),
    /** Timeouts and the per-address connection cap of the HTTP server. */
    server: ServerLimitsConfigSchema.prefault({}),
    /**
     * Compress what the BFF sends (the widget's scripts, the static site, JSON answers of 1 KB or more) with
     * brotli or gzip, as each client accepts; false when a proxy in front of the BFF compresses instead.
     */
    compression: z.boolean().default(true),
    /** The environment variable holding the session-signing secret (≥ 32 bytes). */
    sessionSecretEnv: EnvNameSchema.default('ESIM_BFF_SESSION_SECRET'),
    /**
     * The environment variable holding root secrets rotated out (comma-separated, newest first, each ≥ 32
     * bytes): what they signed is still accepted, nothing new is signed with them (docs/deployment.md).
     */
    previousSessionSecretsEnv: EnvNameSchema.default('ESIM_BFF_PREVIOUS_SESSION_SECRETS'),
    /**
     * The environment variable holding the operations token (≥ 32 bytes): `GET /readyz` with
     * `Authorization: Bearer <token>` lists every check; without it, only the status.
     */
    operationsTokenEnv: EnvNameSchema.optional(),
    /** Session lifetime; at most 15 minutes. */
    sessionTtlSeconds: z.int().min(60).max(900).default(900),
    /** Largest accepted request body. */
    bodyLimitBytes: z.int().min(1_024).max(1_048_576).default(16_384),
    /**
     * How long an idempotency key's answer is kept (and replayed). A widget's answers live no longer than its
     * session, except a checkout's create: its session's token may read that one back (and do nothing else) this
     * long after the session ended, so a page reloaded late still learns the checkout it made.
     */
    idempotencyTtlHours: z.int().min(1).max(72).default(24),
    /**
     * How long work an instance has begun — a create under an `Idempotency-Key`, an order's placement — stays its
     * own after its last heartbeat (renewed every 30 % of this while it works): when the instance dies, another
     * takes the work over this long after its last heartbeat.
     */
    takeoverAfterMs: z.int().min(1_000).max(60_000).default(5_000),
    /** How long a checkout's status may be served from the store before the upstream order is read again. */
    statusCacheMs: z.int().min(0).max(60_000).default(1_000),
    /**
     * How long the partner's account (balance, limits, status) read for the funding check is used before it is
     * read again; it is read again at once after an order this instance placed.
     */
    accountCacheMs: z.int().min(0).max(60_000).default(5_000),
    /** How far checkouts awaiting payment may hold the partner's money. */
    unpaidHolds: UnpaidHoldsSchema.default(UnpaidHoldsSchema.parse({})),
    /** How far payments the partner started may hold its money firmly, and for how long. */
    paymentHolds: PaymentHoldsSchema.default(PaymentHoldsSchema.parse({})),
    /** How often the catalog is refreshed in the background. */
    catalogRefreshSeconds: z.int().min(10).max(86_400).default(300),
    /** How often moving checkouts are read from the upstream when nobody polls them (webhooks see every change). */
    checkoutWatchSeconds: z.int().min(1).max(3_600).default(10),
    /**
     * How each upstream key's calls per minute are shared (percentages of its limit): background work (status
     * polling, reconciliation, catalog refreshes) may use its share and never the minute's last share; one client
     * address, one session, one widget on a shared key may cause at most theirs (docs/configuration.md).
     */
    upstreamBudget: UpstreamBudgetSchema.default(UpstreamBudgetSchema.parse({})),
    /** How long a webhook event is retried (with exponential backoff) before it is given up: at least a day. */
    webhookRetryHours: z.int().min(24).max(168).default(26),
    /**
     * The first pause after a failed webhook delivery (and the first pause of the endpoint's circuit); each further
     * failure doubles it, to at most an hour.
     */
    webhookBackoffSeconds: z.int().min(1).max(3_600).default(10),
    /** How long one readiness result (`GET /readyz`: the store and every widget's upstream asked) is reused. */
    readinessCacheMs: z.int().min(0).max(60_000).default(5_000),
    /** How long what the BFF stores is kept (kept idempotent answers: `idempotencyTtlHours`). */
    retention: RetentionSchema.default(RetentionSchema.parse({})),
    /** What the BFF keeps of travellers (docs/privacy.md). */
    privacy: PrivacyConfigSchema.prefault({}),
    /** The partner console (docs/console.md): off unless enabled. */
    console: ConsoleConfigSchema.prefault({}),
    widgets: z.array(WidgetConfigSchema).min(1),
  })
  .superRefine((config, ctx) => {
    // A delivery's record holds its attempts: it outlives every retry of it.
    if (config.retention.webhookDeliveryDays * 24 <= config.webhookRetryHours) {
      ctx.addIssue({
        code: 'custom',
        path: ['retention', 'webhookDeliveryDays'],
        message: `must be longer than webhookRetryHours (${config.webhookRetryHours} h): a delivery's record is kept while it is retried`,
      });
    }
    const seen = new Set<string>();
    config.widgets.forEach((widget, index) => {
      if (seen.has(widget.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['widgets', index, 'id'],
          message: `duplicate widget id "${widget.id}"`,
        });
      }
      seen.add(widget.id);
    });
    const ssoPartner = config.console.sso?.partner;
    if (ssoPartner !== undefined && !seen.has(ssoPartner)) {
      ctx.addIssue({
        code: 'custom',
        path: ['console', 'sso', 'partner'],
        message: `"${ssoPartner}" is not a widget of this config`,
      });
    }
  });
export type BffConfig = z.infer<typeof BffConfigSchema>;
/** The config as written in the JSON file (defaults not yet applied). */
export type BffConfigInput = z.input<typeof BffConfigSchema>;
