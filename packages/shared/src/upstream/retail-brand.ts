/**
 * @module
 * The retail brand projection (an element of `account.retailBrands`): a brand cell's controls, legal
 * pages, communication, commercial terms, domains, apps and launch readiness.
 */
import { z } from 'zod';
import { RetailBrandStatusSchema } from './states';
import { CurrencySchema, DateTimeSchema, PercentSchema } from './upstream-common';

/** How the service participates in a brand's results. */
export const ParticipationMechanismSchema = z.enum(['equity', 'contractual_profit_share']);
export type ParticipationMechanism = z.infer<typeof ParticipationMechanismSchema>;

/** Who is the merchant of record for the brand's sales. */
export const PaymentModeSchema = z.enum(['platform_mor_managed', 'brand_mor']);
export type PaymentMode = z.infer<typeof PaymentModeSchema>;

/** What a brand domain serves. */
export const DomainPurposeSchema = z.enum(['site', 'api', 'links', 'support', 'cabinet']);
export type DomainPurpose = z.infer<typeof DomainPurposeSchema>;

/** A brand app's platform. */
export const AppPlatformSchema = z.enum(['ios', 'android']);
export type AppPlatform = z.infer<typeof AppPlatformSchema>;

/** A readiness track's state. */
export const ReadinessTrackStateSchema = z.enum(['ready', 'blocked', 'not_required']);
export type ReadinessTrackState = z.infer<typeof ReadinessTrackStateSchema>;

/** What area a readiness blocker belongs to. */
export const BlockerCategorySchema = z.enum([
  'product',
  'store',
  'support',
  'legal',
  'payment',
  'funding',
  'finance',
]);
export type BlockerCategory = z.infer<typeof BlockerCategorySchema>;

/** Who has to clear a readiness blocker. */
export const BlockerOwnerSchema = z.enum([
  'platform_engineering',
  'brand_owner',
  'joint',
  'external_provider',
]);
export type BlockerOwner = z.infer<typeof BlockerOwnerSchema>;

/** The state of a blocker's evidence. */
export const BlockerEvidenceSchema = z.enum(['missing', 'invalid', 'disabled', 'pending_review']);
export type BlockerEvidence = z.infer<typeof BlockerEvidenceSchema>;

/** The brand's feature switches. */
export const RetailBrandControlsSchema = z.strictObject({
  browse: z.boolean(),
  checkout: z.boolean(),
  brandPayment: z.boolean(),
  wholesaleFunding: z.boolean(),
  periodClose: z.boolean(),
  existingOrderRecovery: z.boolean(),
});
export type RetailBrandControls = z.infer<typeof RetailBrandControlsSchema>;

/** The brand's legal pages. */
export const RetailBrandLegalSchema = z.strictObject({
  supportUrl: z.string().nullable(),
  privacyUrl: z.string().nullable(),
  termsUrl: z.string().nullable(),
  refundUrl: z.string().nullable(),
  accountDeletionUrl: z.string().nullable(),
});
export type RetailBrandLegal = z.infer<typeof RetailBrandLegalSchema>;

/** Whether the brand can email its customers. */
export const RetailBrandCommunicationSchema = z.strictObject({
  supportEmail: z.string().nullable(),
  ready: z.boolean(),
  blockers: z.array(z.string()),
});
export type RetailBrandCommunication = z.infer<typeof RetailBrandCommunicationSchema>;

/** The brand's payment setup. */
export const RetailBrandPaymentSchema = z.strictObject({
  publicVersion: z.string(),
  provider: z.string(),
  rail: z.string(),
  currency: z.string(),
  configured: z.boolean(),
  credentialReady: z.boolean(),
});
export type RetailBrandPayment = z.infer<typeof RetailBrandPaymentSchema>;

/** The brand's commercial terms. */
export const RetailBrandCommercialSchema = z.strictObject({
  agreementPublicVersion: z.string(),
  discountPct: PercentSchema,
  participationPct: PercentSchema,
  participationMechanism: ParticipationMechanismSchema,
  paymentMode: PaymentModeSchema,
  settlementCurrency: CurrencySchema,
  merchantLegalName: z.string(),
  serviceLegalName: z.string(),
  payment: RetailBrandPaymentSchema.nullable(),
});
export type RetailBrandCommercial = z.infer<typeof RetailBrandCommercialSchema>;

/** A domain of the brand. */
export const RetailBrandDomainSchema = z.strictObject({
  hostname: z.string(),
  purpose: DomainPurposeSchema,
  status: z.string(),
  tlsStatus: z.string(),
  verifiedAt: DateTimeSchema.nullable(),
});
export type RetailBrandDomain = z.infer<typeof RetailBrandDomainSchema>;

/** One release of a brand app. */
export const RetailBrandAppReleaseSchema = z.strictObject({
  version: z.string(),
  build: z.string(),
  state: z.string(),
  observedAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
});
export type RetailBrandAppRelease = z.infer<typeof RetailBrandAppReleaseSchema>;

/** A mobile app of the brand. */
export const RetailBrandAppSchema = z.strictObject({
  id: z.string(),
  platform: AppPlatformSchema,
  appIdentifier: z.string(),
  displayName: z.string(),
  status: z.string(),
  storeUrl: z.string().nullable(),
  currentVersion: z.string().nullable(),
  currentBuild: z.string().nullable(),
  readiness: z.strictObject({
    push: z.boolean(),
    oauth: z.boolean(),
    merchant: z.boolean(),
  }),
  releases: z.array(RetailBrandAppReleaseSchema),
});
export type RetailBrandApp = z.infer<typeof RetailBrandAppSchema>;

/** Something that stands between the brand and a launch track. Never sensitive. */
export const ReadinessBlockerSchema = z.strictObject({
  code: z.string(),
  category: BlockerCategorySchema,
  owner: BlockerOwnerSchema,
  evidence: BlockerEvidenceSchema,
  actionKey: z.string(),
  sensitive: z.literal(false),
});
export type ReadinessBlocker = z.infer<typeof ReadinessBlockerSchema>;

/** One launch track. */
export const ReadinessTrackSchema = z.strictObject({
  state: ReadinessTrackStateSchema,
  ready: z.boolean(),
  blockers: z.array(ReadinessBlockerSchema),
});
export type ReadinessTrack = z.infer<typeof ReadinessTrackSchema>;

/** The brand's launch readiness, overall and per track. */
export const RetailBrandReadinessSchema = z.strictObject({
  ready: z.boolean(),
  blockers: z.array(ReadinessBlockerSchema),
  tracks: z.strictObject({
    review: ReadinessTrackSchema,
    web: ReadinessTrackSchema,
    iosRelease: ReadinessTrackSchema,
    androidRelease: ReadinessTrackSchema,
    liveCheckout: ReadinessTrackSchema,
    financeClose: ReadinessTrackSchema,
  }),
});
export type RetailBrandReadiness = z.infer<typeof RetailBrandReadinessSchema>;

/** A retail brand as projected on its account. */
export const RetailBrandSchema = z.strictObject({
  id: z.string(),
  key: z.string(),
  publicName: z.string(),
  status: RetailBrandStatusSchema,
  locale: z.string(),
  timezone: z.string(),
  manifest: z.strictObject({
    version: z.int().min(1),
    digest: z.string().nullable(),
  }),
  controls: RetailBrandControlsSchema,
  legal: RetailBrandLegalSchema,
  communication: RetailBrandCommunicationSchema,
  commercial: RetailBrandCommercialSchema.nullable(),
  domains: z.array(RetailBrandDomainSchema),
  apps: z.array(RetailBrandAppSchema),
  readiness: RetailBrandReadinessSchema,
});
export type RetailBrand = z.infer<typeof RetailBrandSchema>;
