/**
 * Every enum the upstream contract defines, walked value by value against the contract's lists, and every
 * fixed literal (`apiVersion`, `syncMode`, `fundingMode`, …) against a wrong value.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changed, fixture, issuesOf } from '../../testing/test-kit';
import * as partner from './index';

/** The Errors table of the contract, row by row. */
const errorCodeGroups: string[][] = [
  [
    'unauthorized',
    'validation_failed',
    'rate_limited',
    'internal',
    'forbidden',
    'scope_missing',
    'enterprise_auth_required',
    'idempotency_conflict',
  ],
  ['product_not_found', 'product_unavailable', 'offer_not_found', 'price_changed', 'price_book_invalid'],
  ['quote_not_found', 'quote_expired', 'quote_consumed'],
  ['order_not_found', 'insufficient_balance', 'order_limit_exceeded', 'monthly_limit_exceeded'],
  ['recipient_not_found', 'recipient_conflict', 'esim_not_found', 'delivery_link_invalid'],
  ['cursor_invalid', 'cursor_expired', 'export_too_large'],
  ['action_not_available', 'action_request_exists', 'action_request_not_found', 'invalid_transition'],
  [
    'account_not_found',
    'account_not_active',
    'account_hierarchy_invalid',
    'account_depth_exceeded',
    'account_membership_conflict',
    'account_membership_not_found',
  ],
  [
    'storefront_app_not_found',
    'storefront_app_disabled',
    'widget_origin_forbidden',
    'widget_session_invalid',
  ],
  [
    'connector_installation_not_found',
    'connector_installation_revoked',
    'connector_site_already_connected',
    'connector_site_mismatch',
    'connector_connect_code_invalid',
    'connector_credential_invalid',
    'connector_order_not_found',
  ],
];

/** The contract's value lists, by the exported schema that must hold exactly these values. */
const contractEnums: Record<string, readonly string[]> = {
  // Shared types
  CurrencySchema: ['RUB', 'USD'],
  EnvironmentSchema: ['test', 'live'],
  LocaleSchema: ['ru', 'en', 'es', 'de', 'fr'],
  ErrorCodeSchema: errorCodeGroups.flat(),
  // Capabilities
  CapabilityIdSchema: [
    'capabilities',
    'catalog',
    'offers',
    'orders',
    'recipients',
    'esims',
    'delivery_links',
    'webhooks',
    'quotes',
    'transactions',
    'post_sale_actions',
    'subaccounts',
    'account_memberships',
    'price_books',
    'branding',
    'white_label',
    'widget',
  ],
  GrantedScopeSchema: [
    'catalog:read',
    'quotes:write',
    'balance:read',
    'orders:read',
    'orders:write',
    'transactions:read',
    'recipients:read',
    'recipients:write',
    'esims:read',
    'actions:read',
    'actions:write',
    'delivery_links:write',
  ],
  ContractStatusSchema: ['preview', 'stable'],
  SupplyOperationIdSchema: ['issue', 'usage', 'top_up', 'cancel_unused', 'reissue'],
  SupplyAvailabilitySchema: ['available', 'simulated', 'route_dependent', 'unavailable'],
  SupplyAccessSchema: ['api', 'bridge', 'assisted', 'none'],
  // Catalog
  PackageKindSchema: ['fixed', 'unlimited', 'no_expiry', 'daypass'],
  ActivationStartSchema: ['purchase', 'first_installation', 'first_connection', 'unknown'],
  SupportLevelSchema: ['supported', 'unsupported', 'unknown'],
  TopUpSupportSchema: ['guaranteed', 'not_guaranteed'],
  // Quotes and orders
  PurchaseKindSchema: ['issue', 'top_up'],
  DeliveryModeSchema: ['partner', 'platform'],
  // eSIM actions and top-up offers
  EsimActionTypeSchema: ['top_up', 'cancellation', 'refund', 'reissue'],
  EsimActionAvailabilitySchema: ['available', 'manual_review', 'unavailable', 'unknown'],
  EsimActionAccessSchema: ['api', 'assisted', 'none'],
  TopUpStatusSchema: [
    'available',
    'not_supported',
    'not_enabled',
    'compatibility_unverified',
    'temporarily_unavailable',
    'profile_ineligible',
  ],
  // Action requests
  ActionReasonCodeSchema: [
    'delivery_not_started',
    'unused_profile',
    'duplicate_order',
    'service_not_delivered',
    'service_defective',
    'duplicate_charge',
    'installation_failed',
    'profile_unusable',
    'other',
  ],
  ActionRequestTypeSchema: ['cancellation', 'refund', 'reissue'],
  // Accounts and retail brands
  AccountKindSchema: ['root', 'reseller', 'managed_customer'],
  CreatableAccountKindSchema: ['reseller', 'managed_customer'],
  ParticipationMechanismSchema: ['equity', 'contractual_profit_share'],
  PaymentModeSchema: ['platform_mor_managed', 'brand_mor'],
  DomainPurposeSchema: ['site', 'api', 'links', 'support', 'cabinet'],
  AppPlatformSchema: ['ios', 'android'],
  ReadinessTrackStateSchema: ['ready', 'blocked', 'not_required'],
  BlockerCategorySchema: ['product', 'store', 'support', 'legal', 'payment', 'funding', 'finance'],
  BlockerOwnerSchema: ['platform_engineering', 'brand_owner', 'joint', 'external_provider'],
  BlockerEvidenceSchema: ['missing', 'invalid', 'disabled', 'pending_review'],
  MemberRoleSchema: ['admin', 'operator', 'support', 'finance', 'developer'],
  // API keys and storefront domains
  KeyScopeSchema: [
    'catalog:read',
    'quotes:write',
    'balance:read',
    'transactions:read',
    'orders:read',
    'orders:write',
    'recipients:read',
    'recipients:write',
    'esims:read',
    'actions:read',
    'actions:write',
    'accounts:read',
    'accounts:write',
    'funding:write',
    'api_keys:write',
    'storefronts:read',
    'storefronts:write',
    'delivery_links:write',
  ],
  ApiKeyStatusSchema: ['active', 'revoked'],
  DomainSourceSchema: ['external', 'managed'],
  // The States table
  OrderStatusSchema: [
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
  ],
  BillingStatusSchema: ['reserved', 'captured', 'released', 'refunded', 'legacy', 'simulated'],
  EsimStateSchema: ['issued', 'delivered', 'installed', 'active', 'depleted', 'expired', 'revoked'],
  EsimProfileStateSchema: [
    'unknown',
    'released',
    'downloaded',
    'installed',
    'enabled',
    'disabled',
    'revoked',
  ],
  EsimServiceStateSchema: ['unknown', 'not_started', 'active', 'depleted', 'expired', 'terminated'],
  EsimAllowanceStateSchema: ['unknown', 'healthy', 'low', 'depleted'],
  UsageStatusSchema: ['fresh', 'stale', 'unavailable'],
  ActionRequestStatusSchema: ['requested', 'in_review', 'completed', 'rejected'],
  AccountStatusSchema: ['active', 'blocked', 'archived'],
  AccountMemberStatusSchema: ['invited', 'active', 'expired', 'revoked'],
  RetailBrandStatusSchema: ['draft', 'onboarding', 'review', 'active', 'paused', 'terminated'],
  DeliveryLinkRevocationStatusSchema: ['revoked'],
  DomainOwnershipStatusSchema: ['pending', 'verified', 'failed'],
  DomainProvisioningStatusSchema: ['pending', 'active', 'failed'],
  StorefrontDomainStatusSchema: ['pending', 'active', 'disabled', 'failed'],
  CustomDomainStatusSchema: ['not_configured', 'pending_verification'],
};

const exportedEnums = Object.entries(partner as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodEnum] => entry[1] instanceof z.ZodEnum,
);

it('exports exactly the enums listed here, so a new enum gets its values checked', () => {
  expect(exportedEnums.map(([name]) => name).sort()).toEqual(Object.keys(contractEnums).sort());
});

it('has the 48 error codes of the Errors table, each once', () => {
  expect(errorCodeGroups.flat()).toHaveLength(48);
  expect(new Set(partner.ERROR_CODES).size).toBe(partner.ERROR_CODES.length);
  expect(partner.ERROR_CODES).toEqual(errorCodeGroups.flat());
});

describe.each(exportedEnums)('%s', (name, schema) => {
  const expected = contractEnums[name] ?? [];

  it('holds exactly the contract values', () => {
    expect([...schema.options].sort()).toEqual([...expected].sort());
  });

  it.each(expected)('accepts %s', (value) => {
    expect(schema.safeParse(value).success).toBe(true);
  });

  it('rejects a value outside the list, a different case and a non-string', () => {
    const first = expected[0] ?? 'x';
    const otherCase = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
    for (const value of ['not_a_value', otherCase, 1, null]) {
      expect(issuesOf(schema, value)).toEqual([{ path: '', code: 'invalid_value' }]);
    }
  });
});

/** `[fixture, schema, path, wrong value]` for every constant of the contract. */
const literals: [string, z.ZodType, string, unknown][] = [
  ['product-page', partner.ProductPageSchema, 'meta.apiVersion', '2.0.1'],
  ['product-page', partner.ProductPageSchema, 'meta.syncMode', 'delta'],
  ['top-up-offer-page', partner.TopUpOfferPageSchema, 'meta.apiVersion', '2'],
  ['error-envelope', partner.ErrorEnvelopeSchema, 'meta.apiVersion', '1.0.0'],
  ['error-envelope', partner.ErrorEnvelopeSchema, 'error.code', 'teapot'],
  ['product', partner.ProductSchema, 'lifecycle', 'retired'],
  ['capabilities', partner.CapabilitiesSchema, 'settlement.fundingMode', 'postpaid'],
  ['capabilities', partner.CapabilitiesSchema, 'settlement.amountFormat', 'major_units'],
  ['capabilities', partner.CapabilitiesSchema, 'capabilities.0.state', 'preview'],
  ['capabilities', partner.CapabilitiesSchema, 'tenantAttestation.kind', 'brand'],
  ['capabilities', partner.CapabilitiesSchema, 'tenantAttestation.schemaVersion', 2],
  ['retail-brand', partner.RetailBrandSchema, 'readiness.blockers.0.sensitive', true],
  ['storefront-domain', partner.StorefrontDomainSchema, 'dns.ownership.type', 'CNAME'],
  ['storefront-domain', partner.StorefrontDomainSchema, 'dns.cname.type', 'TXT'],
  ['account-member-patch-request', partner.AccountMemberPatchRequestSchema, 'status', 'active'],
  ['account-create-request', partner.AccountCreateRequestSchema, 'kind', 'root'],
];

it.each(literals)('%s: %s rejects a wrong constant at %s', (name, schema, path, value) => {
  expect(issuesOf(schema, changed(fixture(name), path, value))).toEqual([{ path, code: 'invalid_value' }]);
});
