/**
 * @module
 * What a value the contract does not (yet) name means when the upstream sends it. The contract is `stable`,
 * which lets the upstream add enum values; reading one as an error would stop sales over an additive change,
 * so each enum the BFF reads gets a safe meaning here: a known value that never claims more than we know (an
 * unknown order status is still in progress, an unknown capability level is `unknown`), or `drop` for list
 * entries that only add something (an unknown scope grants nothing). Enums left out are read strictly: an
 * echo of our own request (`kind`, `deliveryMode`, `locale`) or a value nothing safe can stand for (`currency`).
 * docs/configuration.md lists the meanings; keep it in step.
 */
import {
  AccountKindSchema,
  AccountStatusSchema,
  ActionReasonCodeSchema,
  ActionRequestStatusSchema,
  ActionRequestTypeSchema,
  ActivationStartSchema,
  AppPlatformSchema,
  BillingStatusSchema,
  BlockerCategorySchema,
  BlockerEvidenceSchema,
  BlockerOwnerSchema,
  CapabilityIdSchema,
  ContractStatusSchema,
  CurrencySchema,
  CustomDomainStatusSchema,
  DeliveryLinkRevocationStatusSchema,
  DeliveryModeSchema,
  DomainPurposeSchema,
  EnvironmentSchema,
  ErrorCodeSchema,
  EsimActionAccessSchema,
  EsimActionAvailabilitySchema,
  EsimActionTypeSchema,
  EsimAllowanceStateSchema,
  EsimProfileStateSchema,
  EsimServiceStateSchema,
  EsimStateSchema,
  GrantedScopeSchema,
  LocaleSchema,
  OrderStatusSchema,
  PackageKindSchema,
  ParticipationMechanismSchema,
  PaymentModeSchema,
  PurchaseKindSchema,
  ReadinessTrackStateSchema,
  RetailBrandStatusSchema,
  SupplyAccessSchema,
  SupplyAvailabilitySchema,
  SupplyOperationIdSchema,
  SupportLevelSchema,
  TopUpStatusSchema,
  TopUpSupportSchema,
  UsageStatusSchema,
} from '@esim-embed/shared';
import type { z } from 'zod';

/** Marks a list entry to leave out: the entry carries a value that can only add something we do not know. */
export const DROP: unique symbol = Symbol('drop unknown entry');

/** How one enum reads a value it does not know. */
export interface UnknownValueMeaning {
  /** A name for the logs ("order status"). */
  name: string;
  /** The known value it reads as, or {@link DROP} for an entry of a list (the entry is left out). */
  readsAs: string | typeof DROP;
}

const meaning = (name: string, readsAs: string | typeof DROP): UnknownValueMeaning => ({ name, readsAs });

/** The safe meanings, by the shared enum schema (identity: the tolerant reader finds them while rebuilding). */
export const UNKNOWN_VALUE_MEANINGS = new Map<z.ZodType, UnknownValueMeaning>([
  // Not failed, not ready: the checkout keeps polling until the order reaches a state we know.
  [OrderStatusSchema, meaning('order status', 'provisioning')],
  // Funds neither captured nor released as far as we know.
  [BillingStatusSchema, meaning('billing status', 'reserved')],
  // Sent but not known to be installed: whether it is installed is read from profileState and activation.
  [EsimStateSchema, meaning('eSIM state', 'delivered')],
  [EsimProfileStateSchema, meaning('eSIM profile state', 'unknown')],
  [EsimServiceStateSchema, meaning('eSIM service state', 'unknown')],
  [EsimAllowanceStateSchema, meaning('eSIM allowance state', 'unknown')],
  [UsageStatusSchema, meaning('usage status', 'unavailable')],
  [SupportLevelSchema, meaning('capability level', 'unknown')],
  [TopUpSupportSchema, meaning('top-up support', 'not_guaranteed')],
  [TopUpStatusSchema, meaning('top-up status', 'temporarily_unavailable')],
  // An operation we cannot tell is available is not offered.
  [SupplyAvailabilitySchema, meaning('supply availability', 'unavailable')],
  [SupplyAccessSchema, meaning('supply access', 'none')],
  [SupplyOperationIdSchema, meaning('supply operation', DROP)],
  [EsimActionAvailabilitySchema, meaning('action availability', 'unknown')],
  [EsimActionAccessSchema, meaning('action access', 'none')],
  [EsimActionTypeSchema, meaning('action type', DROP)],
  [ActionRequestStatusSchema, meaning('action request status', 'in_review')],
  [ActionReasonCodeSchema, meaning('action reason', 'other')],
  // A preview contract is only logged; an unknown status is treated the same way.
  [ContractStatusSchema, meaning('contract status', 'preview')],
  [GrantedScopeSchema, meaning('granted scope', DROP)],
  [CapabilityIdSchema, meaning('capability', DROP)],
  // An account we cannot tell is active is not charged: the funding check refuses before payment.
  [AccountStatusSchema, meaning('account status', 'blocked')],
  [CustomDomainStatusSchema, meaning('custom domain status', 'not_configured')],
  [RetailBrandStatusSchema, meaning('retail brand status', 'paused')],
  [DomainPurposeSchema, meaning('domain purpose', DROP)],
  [AppPlatformSchema, meaning('app platform', DROP)],
  [BlockerCategorySchema, meaning('blocker category', DROP)],
  [BlockerOwnerSchema, meaning('blocker owner', DROP)],
  [BlockerEvidenceSchema, meaning('blocker evidence', DROP)],
]);

/**
 * Enums read strictly on purpose, with why: an unknown value makes the answer (or, in a page, the entry)
 * unreadable. A test walks every answer the BFF reads and requires each enum to be here or above.
 */
export const STRICT_ENUMS = new Map<z.ZodType, string>([
  [PackageKindSchema, 'how much data the traveller buys: not guessed'],
  [ActivationStartSchema, 'when the plan starts: not guessed'],
  [CurrencySchema, 'a price in a currency we do not know cannot be sold'],
  [EnvironmentSchema, 'test or live: never guessed'],
  [PurchaseKindSchema, 'an echo of our own quote or order'],
  [DeliveryModeSchema, 'an echo of our own order'],
  [LocaleSchema, 'an echo of our own order'],
  [ActionRequestTypeSchema, 'an echo of our own request'],
  [DeliveryLinkRevocationStatusSchema, 'the answer of our own revoke'],
  [AccountKindSchema, 'not used to decide anything; the account is read as a whole'],
  [ParticipationMechanismSchema, 'commercial terms of a retail brand: not guessed'],
  [PaymentModeSchema, 'who takes payment for a retail brand: not guessed'],
  [ReadinessTrackStateSchema, 'whether a retail brand may sell: not guessed'],
  [ErrorCodeSchema, 'read by upstream-error.ts: an unknown code is `upstream_refused`'],
]);

/** An unknown value met while reading one answer. */
export interface UnknownValue {
  name: string;
  value: string;
  readsAs: string;
}

let collector: UnknownValue[] | undefined;

/** Called by the tolerant reader's transforms: notes the value for {@link parseNotingUnknownValues}. */
export function noteUnknownValue(value: UnknownValue): void {
  collector?.push(value);
}

/**
 * Parses `body` and returns the unknown values met on the way. Parsing is synchronous, so the values noted
 * between the start and the end of this call are this answer's.
 */
export function parseNotingUnknownValues<T>(
  schema: z.ZodType<T>,
  body: unknown,
): { result: z.ZodSafeParseResult<T>; unknown: UnknownValue[] } {
  const outer = collector;
  const unknown: UnknownValue[] = [];
  collector = unknown;
  try {
    return { result: schema.safeParse(body), unknown };
  } finally {
    collector = outer;
  }
}

const reported = new Set<string>();

/**
 * Whether this unknown value is met for the first time in this process (it is then logged; later answers
 * with the same value are not, so a new upstream status does not flood the logs).
 */
export function firstTimeSeen(value: UnknownValue): boolean {
  const key = `${value.name}\u0000${value.value}`;
  if (reported.has(key)) return false;
  if (reported.size < 1000) reported.add(key);
  return true;
}
