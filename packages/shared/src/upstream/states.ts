/**
 * @module
 * Every state set of the contract's "States and transitions" table, as enums reused by the resources.
 */
import { z } from 'zod';

/** Order `status`: payment, provisioning and delivery of one order. */
export const OrderStatusSchema = z.enum([
  'draft',
  'awaiting_payment',
  'paid',
  'provisioning',
  'delivered',
  'completed',
  'expired_unpaid',
  'provisioning_failed',
  'refund_requested',
  'refunded',
]);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** Order `billing.status`: what happened to the prepaid funds of an order. */
export const BillingStatusSchema = z.enum([
  'reserved',
  'captured',
  'released',
  'refunded',
  'legacy',
  'simulated',
]);
export type BillingStatus = z.infer<typeof BillingStatusSchema>;

/** eSIM `state`: the commercial life of an issued profile. */
export const EsimStateSchema = z.enum([
  'issued',
  'delivered',
  'installed',
  'active',
  'depleted',
  'expired',
  'revoked',
]);
export type EsimState = z.infer<typeof EsimStateSchema>;

/** eSIM `profileState`: the profile as the SM-DP+ sees it. */
export const EsimProfileStateSchema = z.enum([
  'unknown',
  'released',
  'downloaded',
  'installed',
  'enabled',
  'disabled',
  'revoked',
]);
export type EsimProfileState = z.infer<typeof EsimProfileStateSchema>;

/** eSIM `serviceState`: the data service behind the profile. */
export const EsimServiceStateSchema = z.enum([
  'unknown',
  'not_started',
  'active',
  'depleted',
  'expired',
  'terminated',
]);
export type EsimServiceState = z.infer<typeof EsimServiceStateSchema>;

/** eSIM `allowanceState`: how much of the data allowance is left. */
export const EsimAllowanceStateSchema = z.enum(['unknown', 'healthy', 'low', 'depleted']);
export type EsimAllowanceState = z.infer<typeof EsimAllowanceStateSchema>;

/** eSIM usage `status`: how fresh the usage numbers are. */
export const UsageStatusSchema = z.enum(['fresh', 'stale', 'unavailable']);
export type UsageStatus = z.infer<typeof UsageStatusSchema>;

/** Action request `status`. */
export const ActionRequestStatusSchema = z.enum(['requested', 'in_review', 'completed', 'rejected']);
export type ActionRequestStatus = z.infer<typeof ActionRequestStatusSchema>;

/** Account `status`. */
export const AccountStatusSchema = z.enum(['active', 'blocked', 'archived']);
export type AccountStatus = z.infer<typeof AccountStatusSchema>;

/** Account member `status`. */
export const AccountMemberStatusSchema = z.enum(['invited', 'active', 'expired', 'revoked']);
export type AccountMemberStatus = z.infer<typeof AccountMemberStatusSchema>;

/** Retail brand `status`. */
export const RetailBrandStatusSchema = z.enum([
  'draft',
  'onboarding',
  'review',
  'active',
  'paused',
  'terminated',
]);
export type RetailBrandStatus = z.infer<typeof RetailBrandStatusSchema>;

/** Delivery link revocation `status`: the only value, set together with `revokedAt`. */
export const DeliveryLinkRevocationStatusSchema = z.enum(['revoked']);
export type DeliveryLinkRevocationStatus = z.infer<typeof DeliveryLinkRevocationStatusSchema>;

/** Storefront domain `ownershipStatus`. */
export const DomainOwnershipStatusSchema = z.enum(['pending', 'verified', 'failed']);
export type DomainOwnershipStatus = z.infer<typeof DomainOwnershipStatusSchema>;

/** Storefront domain `dnsStatus` and `tlsStatus`. */
export const DomainProvisioningStatusSchema = z.enum(['pending', 'active', 'failed']);
export type DomainProvisioningStatus = z.infer<typeof DomainProvisioningStatusSchema>;

/** Storefront domain `status`. */
export const StorefrontDomainStatusSchema = z.enum(['pending', 'active', 'disabled', 'failed']);
export type StorefrontDomainStatus = z.infer<typeof StorefrontDomainStatusSchema>;

/** Brand `customDomainStatus`: a configured domain is only a request until DNS and TLS are verified. */
export const CustomDomainStatusSchema = z.enum(['not_configured', 'pending_verification']);
export type CustomDomainStatus = z.infer<typeof CustomDomainStatusSchema>;
