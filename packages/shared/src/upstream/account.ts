/**
 * @module
 * Accounts: the hierarchy node with its pricing, limits, balance, brand and retail brands; the create,
 * patch and brand patch requests; the balance and the account summary.
 */
import { z } from 'zod';
import { RetailBrandSchema } from './retail-brand';
import { AccountStatusSchema, CustomDomainStatusSchema } from './states';
import {
  CurrencySchema,
  DateTimeSchema,
  ExternalRefSchema,
  HttpsUrlSchema,
  MoneySchema,
  NonNegativeMoneySchema,
  PercentSchema,
  pageEnvelope,
  patchRequest,
  responseEnvelope,
} from './upstream-common';

/** Where an account sits in the hierarchy. */
export const AccountKindSchema = z.enum(['root', 'reseller', 'managed_customer']);
export type AccountKind = z.infer<typeof AccountKindSchema>;

/** The kinds an account can be created as (a root is never created through the API). */
export const CreatableAccountKindSchema = z.enum(['reseller', 'managed_customer']);
export type CreatableAccountKind = z.infer<typeof CreatableAccountKindSchema>;

/** Account `name`, member `displayName` and key `label`: 1..120 characters. */
export const DisplayNameSchema = z.string().min(1).max(120);

/** A colour as `#RRGGBB`. */
export const HexColorSchema = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'expected a colour as #RRGGBB');

/** A domain name without scheme, port or path. */
export const HostnameSchema = z.hostname();

/** The account's wholesale pricing. */
export const AccountPricingSchema = z.strictObject({
  version: z.string(),
  discountPct: PercentSchema,
  policy: z.string(),
});
export type AccountPricing = z.infer<typeof AccountPricingSchema>;

/** Spending limits; null means no limit. */
export const AccountLimitsSchema = z.strictObject({
  singleOrder: NonNegativeMoneySchema.nullable(),
  monthlySpend: NonNegativeMoneySchema.nullable(),
});
export type AccountLimits = z.infer<typeof AccountLimitsSchema>;

/** The prepaid balance: what is there, what is reserved by open orders, what can be spent. */
export const AccountBalanceSchema = z.strictObject({
  balance: MoneySchema,
  reserved: NonNegativeMoneySchema,
  availableBalance: MoneySchema,
});
export type AccountBalance = z.infer<typeof AccountBalanceSchema>;

/**
 * The brand used by service-managed delivery email, hosted delivery pages and the embedded widget (not the
 * carrier name on the device). A custom domain is only a request until DNS and TLS are verified.
 */
export const BrandSchema = z.strictObject({
  displayName: z.string().nullable(),
  /** A public HTTPS PNG, JPEG or GIF. */
  logoUrl: HttpsUrlSchema.nullable(),
  primaryColor: HexColorSchema.nullable(),
  supportEmail: z.email().nullable(),
  supportUrl: HttpsUrlSchema.nullable(),
  customDomain: HostnameSchema.nullable(),
  customDomainStatus: CustomDomainStatusSchema,
});
export type Brand = z.infer<typeof BrandSchema>;

/** An account. */
export const AccountSchema = z.strictObject({
  id: z.string(),
  parentAccountId: z.string().nullable(),
  externalRef: ExternalRefSchema.nullable(),
  name: z.string(),
  kind: AccountKindSchema,
  status: AccountStatusSchema,
  currency: CurrencySchema,
  pricing: AccountPricingSchema,
  limits: AccountLimitsSchema,
  brand: BrandSchema,
  brandOverrides: BrandSchema.nullable(),
  retailBrands: z.array(RetailBrandSchema),
  balance: AccountBalanceSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Account = z.infer<typeof AccountSchema>;

/** Create a child account. */
export const AccountCreateRequestSchema = z.strictObject({
  parentAccountId: z.string().optional(),
  externalRef: ExternalRefSchema,
  name: DisplayNameSchema,
  kind: CreatableAccountKindSchema,
  discountPct: PercentSchema,
  singleOrderLimit: NonNegativeMoneySchema.optional(),
  monthlySpendLimit: NonNegativeMoneySchema.optional(),
});
export type AccountCreateRequest = z.infer<typeof AccountCreateRequestSchema>;

/** Patch an account: at least one property; a null limit clears it. */
export const AccountPatchRequestSchema = patchRequest(
  z.strictObject({
    name: DisplayNameSchema.optional(),
    status: AccountStatusSchema.optional(),
    singleOrderLimit: NonNegativeMoneySchema.nullable().optional(),
    monthlySpendLimit: NonNegativeMoneySchema.nullable().optional(),
  }),
);
export type AccountPatchRequest = z.infer<typeof AccountPatchRequestSchema>;

/** Patch the brand: at least one property; omitted fields stay, null clears a local override. */
export const BrandPatchRequestSchema = patchRequest(
  z.strictObject({
    displayName: z.string().nullable().optional(),
    logoUrl: HttpsUrlSchema.nullable().optional(),
    primaryColor: HexColorSchema.nullable().optional(),
    supportEmail: z.email().nullable().optional(),
    supportUrl: HttpsUrlSchema.nullable().optional(),
    customDomain: HostnameSchema.nullable().optional(),
  }),
);
export type BrandPatchRequest = z.infer<typeof BrandPatchRequestSchema>;

/** The five money metrics of the account summary. */
const summaryMetrics = {
  orderCount: z.int().min(0),
  grossSales: NonNegativeMoneySchema,
  refunds: NonNegativeMoneySchema,
  marginEarned: NonNegativeMoneySchema,
  marginReversed: NonNegativeMoneySchema,
};

/** Totals of the account summary. */
export const AccountSummaryTotalsSchema = z.strictObject(summaryMetrics);
export type AccountSummaryTotals = z.infer<typeof AccountSummaryTotalsSchema>;

/** One account of the summary, with its depth (0..7) in the hierarchy. */
export const AccountSummaryRowSchema = z.strictObject({
  id: z.string(),
  parentAccountId: z.string().nullable(),
  name: z.string(),
  kind: AccountKindSchema,
  status: AccountStatusSchema,
  depth: z.int().min(0).max(7),
  ...summaryMetrics,
});
export type AccountSummaryRow = z.infer<typeof AccountSummaryRowSchema>;

/** Sales and margin of an account and its sub-accounts over a period. */
export const AccountSummarySchema = z.strictObject({
  accountId: z.string(),
  from: DateTimeSchema,
  to: DateTimeSchema,
  totals: AccountSummaryTotalsSchema,
  accounts: z.array(AccountSummaryRowSchema),
});
export type AccountSummary = z.infer<typeof AccountSummarySchema>;

export const AccountResponseSchema = responseEnvelope(AccountSchema);
export type AccountResponse = z.infer<typeof AccountResponseSchema>;

export const AccountPageSchema = pageEnvelope(AccountSchema);
export type AccountPage = z.infer<typeof AccountPageSchema>;

export const AccountBalanceResponseSchema = responseEnvelope(AccountBalanceSchema);
export type AccountBalanceResponse = z.infer<typeof AccountBalanceResponseSchema>;

export const BrandResponseSchema = responseEnvelope(BrandSchema);
export type BrandResponse = z.infer<typeof BrandResponseSchema>;

export const AccountSummaryResponseSchema = responseEnvelope(AccountSummarySchema);
export type AccountSummaryResponse = z.infer<typeof AccountSummaryResponseSchema>;
