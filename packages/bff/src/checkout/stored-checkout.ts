/**
 * @module
 * How checkouts and quotes are read back from the store. A record lives up to 30 days, across deploys, so it
 * is read with schemas of its own — never the widget API's strict `PlanSchema` or money schema, which change
 * with the API: a field added there must not make every stored checkout unreadable after the deploy.
 *
 * Rules for later releases (record-fixtures.test.ts reads records written by earlier releases):
 * - Records carry `schemaVersion`; records written before it existed read as version 1.
 * - Objects are loose: a field written by a newer release (a rolling deploy, a rollback) is kept on read, so
 *   a read-modify-write by this release does not drop it.
 * - A field added later gets a default here; a changed meaning gets a new `schemaVersion` and an upgrade
 *   from the old one. The stored plan is typed as the API's `Plan`, so a field added to `PlanSchema` fails
 *   the type check here until it has a default, instead of failing at run time on old records.
 */
import {
  ActivationStartSchema,
  CurrencySchema,
  EnvironmentSchema,
  LocaleSchema,
  PackageKindSchema,
  type Plan,
  PurchaseKindSchema,
  SupportLevelSchema,
  TopUpSupportSchema,
} from '@esim-embed/shared';
import { z } from 'zod';

/** The version this release writes. */
export const STORED_CHECKOUT_SCHEMA_VERSION = 1;

/** `schemaVersion` as read: absent on records written before versions existed. */
const SchemaVersion = z.int().min(1).default(1);

/** Money as stored (the contract's currencies only grow). */
const StoredMoney = z.looseObject({ amountMinor: z.int(), currency: CurrencySchema });

/** A plan as stored with a checkout or a quote: what the traveller bought, read as the API's `Plan`. */
const StoredPlan: z.ZodType<Plan, unknown> = z.looseObject({
  offerId: z.string(),
  productId: z.string(),
  title: z.string(),
  destination: z.looseObject({ code: z.string(), name: z.string(), flag: z.string().default('') }),
  kind: PackageKindSchema,
  dataMb: z.int().nullable().default(null),
  dailyDataMb: z.int().nullable().default(null),
  unlimited: z.boolean().default(false),
  durationDays: z.int(),
  price: StoredMoney,
  // Shown as facts about the plan; a value the API no longer names is read as not known.
  fiveG: SupportLevelSchema.catch('unknown'),
  tethering: SupportLevelSchema.catch('unknown'),
  topUp: TopUpSupportSchema.catch('not_guaranteed'),
  networks: z.array(z.string()).default([]),
  networkTypes: z.array(z.string()).default([]),
  activation: z.looseObject({
    startsAt: ActivationStartSchema,
    windowDays: z.int().nullable().default(null),
  }),
}) as unknown as z.ZodType<Plan, unknown>;

/**
 * A checkout's lifecycle and mode as stored: a copy, on purpose, of the widget API's values when version 1 was
 * written (the contract's own enums used above only grow; the API's may change with the widget).
 */
const StoredCheckoutStatus = z.enum([
  'awaiting_payment',
  'placing',
  'provisioning',
  'ready',
  'failed',
  'expired',
  'cancelled',
]);

const StoredCheckoutMode = z.enum(['partner_confirm', 'direct']);

/** A checkout as stored, version 1. */
const checkoutShape = {
  schemaVersion: SchemaVersion,
  id: z.string(),
  widgetId: z.string(),
  environment: EnvironmentSchema,
  /** The session that created it (quotes of other sessions cannot be checked out). */
  sessionId: z.string(),
  /**
   * A digest of the client address (as limits count it, an IPv6 /64) that created it, never the address itself:
   * its holds and payments are counted against that address's caps (funding/partner-funding.ts). Null on records
   * of releases before it.
   */
  openedFrom: z.string().nullable().default(null),
  /** The origin of that session; status reads must come from the same origin. */
  origin: z.string(),
  mode: StoredCheckoutMode,
  /** `issue` (a new eSIM) or `top_up` of `esimId`. */
  kind: PurchaseKindSchema.default('issue'),
  esimId: z.string().nullable().default(null),
  status: StoredCheckoutStatus,
  /** The upstream quote the order is placed from. */
  upstreamQuoteId: z.string(),
  amount: StoredMoney,
  /** The partner's wholesale cost: for spend caps and the partner API, never sent to a browser. */
  wholesale: StoredMoney,
  plan: StoredPlan,
  email: z.string().nullable().default(null),
  locale: LocaleSchema.catch('en'),
  failure: z.looseObject({ code: z.string(), retryable: z.boolean() }).nullable().default(null),
  paymentReference: z.string().nullable().default(null),
  /** How many payment attempts the partner reported declined while the checkout awaited payment. */
  declinedAttempts: z.int().min(0).default(0),
  order: z
    .looseObject({
      id: z.string(),
      status: z.string(),
      /** The eSIM's link once issued (a link, not installation data). */
      esimResourceUrl: z.string().nullable().default(null),
      /** The eSIM's id once issued. */
      esimId: z.string().nullable().default(null),
      /** The order's `billing` as last read (what was captured, released, refunded); null before it was kept. */
      billing: z
        .looseObject({
          status: z.string(),
          reservedAmount: StoredMoney.nullable().default(null),
          capturedAmount: StoredMoney.nullable().default(null),
          releasedAmount: StoredMoney.nullable().default(null),
          refundedAmount: StoredMoney.nullable().default(null),
        })
        .nullable()
        .default(null),
      /** The order's `stateRevision` as last read; null before it was kept. */
      stateRevision: z.int().nullable().default(null),
    })
    .nullable()
    .default(null),
  placement: z
    .looseObject({
      attempts: z.int().min(0),
      /**
       * Until when (ms since the epoch) nobody else may call the upstream for this checkout: a worker's lease
       * while it places the order, or the pause before the next attempt after a postponed one.
       */
      leaseUntil: z.number().nullable(),
    })
    .default({ attempts: 0, leaseUntil: null }),
  /** When the order was last read from the upstream (ms since the epoch). */
  syncedAt: z.number().nullable().default(null),
  /**
   * The statuses this checkout entered whose reactions (webhooks, the seller of its eSIM, the funding hold) are
   * not yet known to be done, oldest first: written with the change itself, cleared once they are done
   * (checkout-transitions.ts). Absent on records of releases before it: their reactions were done then.
   */
  reactionsDue: z.array(z.string()).optional(),
  /**
   * The installation email the BFF sends the traveller itself (`mail/`): null when it sends none for this checkout
   * (and on records of releases before it). Times in ms since the epoch.
   */
  installationEmail: z
    .looseObject({
      // A status of a later release: nothing more is sent for it here (never twice).
      status: z.enum(['pending', 'sent', 'failed', 'skipped']).catch('skipped'),
      attempts: z.int().min(0).default(0),
      /** When it was queued: it is tried until the retry span from then has passed. */
      queuedAtMs: z.number(),
      /**
       * Set while an attempt runs: nobody else sends it before this time; found past it, the attempt was cut short
       * (a crash) and its outcome is not known.
       */
      sendingUntilMs: z.number().nullable().default(null),
      lastAttemptAtMs: z.number().nullable().default(null),
      nextAttemptAtMs: z.number().nullable().default(null),
      sentAtMs: z.number().nullable().default(null),
      lastError: z.string().nullable().default(null),
    })
    .nullable()
    .default(null),
  /**
   * When the checkout was last added to the partner lists' indexes (ms since the epoch; `checkout-index.ts`).
   * Absent on records of releases before them: the index rebuild at start adds those.
   */
  indexedAt: z.number().optional(),
  expiresAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
/** Reads a stored checkout; fields it does not know are kept (see the module's rules). */
export const StoredCheckoutSchema = z.looseObject(checkoutShape);
/** A stored checkout as the code sees it (the kept unknown fields are not typed). */
export type StoredCheckout = z.output<z.ZodObject<typeof checkoutShape>>;

/** A quote as stored, version 1: bound to the session that asked for it. */
const quoteShape = {
  schemaVersion: SchemaVersion,
  id: z.string(),
  widgetId: z.string(),
  sessionId: z.string(),
  upstreamQuoteId: z.string(),
  offerId: z.string(),
  kind: PurchaseKindSchema.default('issue'),
  /** The eSIM a top-up quote is for. */
  esimId: z.string().nullable().default(null),
  plan: StoredPlan,
  price: StoredMoney,
  wholesale: StoredMoney,
  /** The checkout that used it, once one did. */
  checkoutId: z.string().nullable().default(null),
  createdAt: z.string(),
  expiresAt: z.string(),
};
/** Reads a stored quote; fields it does not know are kept. */
export const StoredQuoteSchema = z.looseObject(quoteShape);
/** A stored quote as the code sees it. */
export type StoredQuote = z.output<z.ZodObject<typeof quoteShape>>;
