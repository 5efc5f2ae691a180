/**
 * @module
 * eSIMs: the list item, the detail with installation data, the post-sale actions resource and the
 * page of top-up offers for one profile.
 */
import { z } from 'zod';
import {
  EsimAllowanceStateSchema,
  EsimProfileStateSchema,
  EsimServiceStateSchema,
  EsimStateSchema,
  UsageStatusSchema,
} from './states';
import { OfferSchema } from './upstream-catalog';
import {
  API_VERSION,
  DateTimeSchema,
  EnvironmentSchema,
  OrderRefSchema,
  pageEnvelope,
  responseEnvelope,
  UriSchema,
} from './upstream-common';

/** Data usage of a profile and how fresh the numbers are. */
export const EsimUsageSchema = z.strictObject({
  totalMb: z.int().nullable(),
  usedMb: z.int().min(0),
  remainingMb: z.int().nullable(),
  status: UsageStatusSchema,
  observedAt: DateTimeSchema.nullable(),
  nextRefreshAt: DateTimeSchema.nullable(),
  consecutiveFailures: z.int().min(0),
});
export type EsimUsage = z.infer<typeof EsimUsageSchema>;

/** When the profile was activated and when its service ends. */
export const EsimActivationSchema = z.strictObject({
  activatedAt: DateTimeSchema.nullable(),
  deadlineAt: DateTimeSchema.nullable(),
  serviceExpiresAt: DateTimeSchema.nullable(),
  serviceExpiresOn: z.string().nullable(),
});
export type EsimActivation = z.infer<typeof EsimActivationSchema>;

/** An eSIM as listed. */
export const EsimListItemSchema = z.strictObject({
  id: z.string(),
  environment: EnvironmentSchema,
  iccid: z.string(),
  state: EsimStateSchema,
  profileState: EsimProfileStateSchema,
  serviceState: EsimServiceStateSchema,
  allowanceState: EsimAllowanceStateSchema,
  usage: EsimUsageSchema,
  activation: EsimActivationSchema,
  order: OrderRefSchema,
  actionsUrl: UriSchema,
  createdAt: DateTimeSchema,
});
export type EsimListItem = z.infer<typeof EsimListItemSchema>;

/** Installation data. `lpa` is the secret activation payload: treat it as the product itself. */
export const EsimInstallationSchema = z.strictObject({
  lpa: z.string(),
  qrPayload: z.string(),
  smdpAddress: z.string(),
  activationCode: z.string(),
  ios: UriSchema,
  android: UriSchema,
});
export type EsimInstallation = z.infer<typeof EsimInstallationSchema>;

/** An eSIM with its installation data. */
export const EsimDetailSchema = EsimListItemSchema.extend({
  installation: EsimInstallationSchema,
});
export type EsimDetail = z.infer<typeof EsimDetailSchema>;

export const EsimPageSchema = pageEnvelope(EsimListItemSchema);
export type EsimPage = z.infer<typeof EsimPageSchema>;

export const EsimDetailResponseSchema = responseEnvelope(EsimDetailSchema);
export type EsimDetailResponse = z.infer<typeof EsimDetailResponseSchema>;

/** The post-sale actions an issued profile may offer. */
export const EsimActionTypeSchema = z.enum(['top_up', 'cancellation', 'refund', 'reissue']);
export type EsimActionType = z.infer<typeof EsimActionTypeSchema>;

/** Whether an action can be taken now. */
export const EsimActionAvailabilitySchema = z.enum(['available', 'manual_review', 'unavailable', 'unknown']);
export type EsimActionAvailability = z.infer<typeof EsimActionAvailabilitySchema>;

/** How an action is reached. */
export const EsimActionAccessSchema = z.enum(['api', 'assisted', 'none']);
export type EsimActionAccess = z.infer<typeof EsimActionAccessSchema>;

/** One post-sale action of a profile, as discovered at run time. */
export const EsimActionSchema = z.strictObject({
  type: EsimActionTypeSchema,
  availability: EsimActionAvailabilitySchema,
  access: EsimActionAccessSchema,
  reasonCode: z.string(),
  retryable: z.boolean(),
  observedAt: DateTimeSchema,
  freshUntil: DateTimeSchema.nullable(),
  href: UriSchema.nullable(),
});
export type EsimAction = z.infer<typeof EsimActionSchema>;

/** The actions resource of one eSIM (`actionsUrl`). */
export const EsimActionsSchema = z.strictObject({
  esimId: z.string(),
  environment: EnvironmentSchema,
  actions: z.array(EsimActionSchema),
});
export type EsimActions = z.infer<typeof EsimActionsSchema>;

export const EsimActionsResponseSchema = responseEnvelope(EsimActionsSchema);
export type EsimActionsResponse = z.infer<typeof EsimActionsResponseSchema>;

/** Whether a profile can be topped up now, and if not, why. */
export const TopUpStatusSchema = z.enum([
  'available',
  'not_supported',
  'not_enabled',
  'compatibility_unverified',
  'temporarily_unavailable',
  'profile_ineligible',
]);
export type TopUpStatus = z.infer<typeof TopUpStatusSchema>;

/** `meta` of the top-up offer page: no cursor, but the profile's eligibility and the catalog versions. */
export const TopUpOfferPageMetaSchema = z.strictObject({
  requestId: z.string().min(1),
  apiVersion: z.literal(API_VERSION),
  esimId: z.string(),
  status: TopUpStatusSchema,
  retryable: z.boolean(),
  checkedAt: DateTimeSchema,
  freshUntil: DateTimeSchema,
  catalogVersion: z.int().min(0),
  pricingVersion: z.string(),
});
export type TopUpOfferPageMeta = z.infer<typeof TopUpOfferPageMetaSchema>;

/** The offers that can top up one profile. */
export const TopUpOfferPageSchema = z.strictObject({
  data: z.array(OfferSchema),
  meta: TopUpOfferPageMetaSchema,
});
export type TopUpOfferPage = z.infer<typeof TopUpOfferPageSchema>;
