/**
 * @module
 * Request and response bodies of the sandbox's control API (`/__sandbox/*`). These belong to the sandbox,
 * not to the contract; the typed control client and the routes share them.
 */
import {
  DateTimeSchema,
  EnvironmentSchema,
  EsimAllowanceStateSchema,
  EsimProfileStateSchema,
  EsimServiceStateSchema,
  LocaleSchema,
  RetailBrandControlsSchema,
  RetailBrandStatusSchema,
  SupplyAccessSchema,
  SupplyAvailabilitySchema,
  SupplyOperationIdSchema,
  TopUpStatusSchema,
  UsageStatusSchema,
} from '@esim-embed/shared';
import { z } from 'zod';

/** One fault rule: which requests it hits and what it does to them. */
export const FaultRuleSchema = z.strictObject({
  /**
   * `latency`: wait `latencyMs` first (inside the idempotency claim for creates). `error`: answer `status`
   * with the `internal` envelope (429: `rate_limited`, as if another client had spent the key's minute), touching
   * no state. `drop`: close the connection without an answer, touching
   * no state. `drop_after_commit`: run the request (an order is created) then close the connection unanswered.
   */
  kind: z.enum(['latency', 'error', 'drop', 'drop_after_commit']),
  /** HTTP method to match (any when omitted). */
  method: z
    .string()
    .regex(/^[A-Za-z]+$/)
    .transform((method) => method.toUpperCase())
    .optional(),
  /** Path to match: exact, or a prefix when it ends with `*` (`/orders*`). Any when omitted. */
  path: z.string().startsWith('/').optional(),
  latencyMs: z.int().min(0).max(60_000).default(0),
  status: z.union([z.literal(429), z.int().min(500).max(599)]).default(503),
  /** The `Retry-After` of an `error` answer, in seconds (default: 1 for a 503, none otherwise). */
  retryAfterSeconds: z.int().min(1).max(3_600).optional(),
  /** How many matching requests the rule hits before it retires; null for every one. */
  times: z.int().min(1).nullable().default(null),
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;

/** `PUT /__sandbox/faults`: replaces every rule. */
export const FaultsRequestSchema = z.strictObject({ rules: z.array(FaultRuleSchema).max(50) });
export type FaultsRequest = z.input<typeof FaultsRequestSchema>;

/** `POST /__sandbox/clock/advance`: move the sandbox's time forward. */
export const ClockAdvanceRequestSchema = z.strictObject({ ms: z.int().min(0) });
export type ClockAdvanceRequest = z.input<typeof ClockAdvanceRequestSchema>;

const environment = EnvironmentSchema.default('test');

/** `POST /__sandbox/pricing/bump`: a new pricing version for every offer, or for one offer. */
export const PricingBumpRequestSchema = z.strictObject({
  environment,
  offerId: z.string().min(1).optional(),
});
export type PricingBumpRequest = z.input<typeof PricingBumpRequestSchema>;

/** `POST /__sandbox/catalog/bump`: a new catalog snapshot (outstanding cursors expire). */
export const CatalogBumpRequestSchema = z.strictObject({ environment });
export type CatalogBumpRequest = z.input<typeof CatalogBumpRequestSchema>;

/** `POST /__sandbox/accounts/{id}`: set an account's balance, limits or status. */
export const AccountControlRequestSchema = z.strictObject({
  environment,
  balanceMinor: z.int().optional(),
  singleOrderLimitMinor: z.int().min(0).nullable().optional(),
  monthlySpendLimitMinor: z.int().min(0).nullable().optional(),
  status: z.enum(['active', 'blocked', 'archived']).optional(),
  /** Switches of the account's retail brands to change (white label: `checkout: false` stops sales). */
  retailBrandControls: RetailBrandControlsSchema.partial().optional(),
  /** The status of the account's retail brands (`paused`: the brand stops selling). */
  retailBrandStatus: RetailBrandStatusSchema.optional(),
  /** Whether the brands' `readiness.tracks.liveCheckout` is ready (false: blocked by a payment blocker). */
  retailBrandLiveCheckoutReady: z.boolean().optional(),
});
export type AccountControlRequest = z.input<typeof AccountControlRequestSchema>;

/**
 * `POST /__sandbox/accounts/{id}/supply`: what `GET /capabilities` reports in `supplyOperations` for the
 * account in one environment, and which offers a `route_dependent` issue does not serve now.
 */
export const SupplyControlRequestSchema = z.strictObject({
  environment,
  /** Operations to set, by id (the others keep theirs). */
  operations: z
    .array(
      z.strictObject({
        id: SupplyOperationIdSchema,
        availability: SupplyAvailabilitySchema,
        access: SupplyAccessSchema,
      }),
    )
    .max(5)
    .optional(),
  /** Replaces the offers whose route is not served (refused while `issue` is `route_dependent`). */
  routeUnservedOfferIds: z.array(z.string().min(1)).max(1000).optional(),
  /** Back to the seeded operations, every route served (before the rest of the request applies). */
  reset: z.boolean().optional(),
});
export type SupplyControlRequest = z.input<typeof SupplyControlRequestSchema>;

/** `POST /__sandbox/keys/{key}/rate-limit`: requests per minute, or null for none. */
export const RateLimitRequestSchema = z.strictObject({ perMinute: z.int().min(1).nullable() });
export type RateLimitRequest = z.input<typeof RateLimitRequestSchema>;

/** The provisioning outcomes a scenario can force. */
export const ProvisioningScenarioNameSchema = z.enum([
  'provisioning_failed',
  'slow_provisioning',
  'normal',
  /** `draft` → `awaiting_payment` → `paid` → … → `completed`. */
  'awaiting_payment',
  /** `draft` → `awaiting_payment` → `expired_unpaid` (nothing charged, the reservation released). */
  'expired_unpaid',
]);
export type ProvisioningScenarioName = z.infer<typeof ProvisioningScenarioNameSchema>;

/** `POST /__sandbox/scenarios`: the next `count` orders of an account take this provisioning path. */
export const ScenarioRequestSchema = z.strictObject({
  environment,
  accountId: z.string().min(1),
  scenario: ProvisioningScenarioNameSchema,
  count: z.int().min(1).max(100).default(1),
});
export type ScenarioRequest = z.input<typeof ScenarioRequestSchema>;

/** `POST /__sandbox/esims/{id}`: simulate the traveller installing and using the profile. */
export const EsimControlRequestSchema = z.strictObject({
  activate: z.literal(true).optional(),
  /** The traveller installed the profile (downloaded onto a device) without using it yet. */
  install: z.literal(true).optional(),
  usedMb: z.int().min(0).optional(),
  /** Force the top-up status of this profile (null: computed again). */
  topUpStatus: TopUpStatusSchema.nullable().optional(),
  /** Force the usage status (`stale`, `unavailable`; null: computed again). */
  usageStatus: UsageStatusSchema.nullable().optional(),
  /**
   * Set what the network reports of the profile, for the states nothing else produces: `profileState`
   * `downloaded` / `disabled` / `unknown`, `serviceState` `unknown`, `allowanceState` `unknown`.
   */
  profileState: EsimProfileStateSchema.optional(),
  serviceState: EsimServiceStateSchema.optional(),
  allowanceState: EsimAllowanceStateSchema.optional(),
});
export type EsimControlRequest = z.input<typeof EsimControlRequestSchema>;

/** `POST /__sandbox/action-requests/{id}/resolve`: end a refund or reissue under review. */
export const ActionResolveRequestSchema = z.strictObject({
  outcome: z.enum(['completed', 'rejected']),
  /** What the partner reads in `resolution`; a default per type and outcome when omitted. */
  resolution: z
    .strictObject({ code: z.string().min(1).max(64), note: z.string().max(500).nullable().default(null) })
    .optional(),
});
export type ActionResolveRequest = z.input<typeof ActionResolveRequestSchema>;

/** `GET /__sandbox/outbox`: filters of the emails read. */
export const OutboxQuerySchema = z.strictObject({
  environment,
  to: z.string().min(1).optional(),
  orderId: z.string().min(1).optional(),
});
export type OutboxQuery = z.input<typeof OutboxQuerySchema>;

/** One email of a `platform` delivery order, as the service would have sent it. */
export const OutboxEmailSchema = z.strictObject({
  id: z.string(),
  environment: EnvironmentSchema,
  accountId: z.string(),
  orderId: z.string(),
  esimId: z.string(),
  to: z.string(),
  locale: LocaleSchema.nullable(),
  /** The order's `recipient.reference` (the partner's own reference, e.g. its checkout id). */
  reference: z.string().nullable(),
  from: z.string(),
  presentation: z.enum(['brand_aware', 'standard']),
  senderName: z.string(),
  replyTo: z.string().nullable(),
  attribution: z.string().nullable(),
  subject: z.string(),
  text: z.string(),
  /** The hosted delivery page the email links to. */
  deliveryUrl: z.string(),
  sentAt: DateTimeSchema,
});
export type OutboxEmail = z.infer<typeof OutboxEmailSchema>;

/** `GET /__sandbox/state` and the answer of every control call. */
export const ControlStateSchema = z.strictObject({
  now: z.string(),
  clockOffsetMs: z.int(),
  faultInjection: z.boolean(),
  faults: z.array(FaultRuleSchema),
  environments: z.record(
    EnvironmentSchema,
    z.strictObject({ catalogVersion: z.int(), pricingEpoch: z.int(), orders: z.int() }),
  ),
});
export type ControlState = z.infer<typeof ControlStateSchema>;

/** The header that carries the control secret. */
export const CONTROL_SECRET_HEADER = 'X-Sandbox-Control';
