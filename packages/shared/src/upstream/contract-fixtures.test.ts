/**
 * The JSON fixtures against their schemas, and the contract's structural rules walked over every fixture:
 * strict objects everywhere, every declared property required unless the contract makes it optional, and
 * `null` accepted exactly where the contract writes `T?`.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  changed,
  fixture,
  fixtureNames,
  issuesOf,
  objectPaths,
  pathMatches,
  propertyPaths,
  REMOVE,
} from '../../testing/test-kit';
import {
  AccountBalanceSchema,
  AccountCreateRequestSchema,
  AccountMemberCreateRequestSchema,
  AccountMemberPatchRequestSchema,
  AccountMemberSchema,
  AccountPatchRequestSchema,
  AccountSchema,
  AccountSummarySchema,
  ActionRequestInputSchema,
  ActionRequestSchema,
  AllocationRequestSchema,
  AllocationResultSchema,
  ApiKeyCreateRequestSchema,
  ApiKeyCreateResultSchema,
  ApiKeySchema,
  BrandPatchRequestSchema,
  BrandSchema,
  CapabilitiesSchema,
  CreateOrderRequestSchema,
  DeliveryLinkCreateRequestSchema,
  DeliveryLinkRevocationSchema,
  DeliveryLinkSchema,
  ErrorEnvelopeSchema,
  EsimActionsSchema,
  EsimDetailSchema,
  EsimListItemSchema,
  OfferSchema,
  OrderSchema,
  PriceBookCreateRequestSchema,
  PriceBookSchema,
  ProductPageSchema,
  ProductSchema,
  QuoteRequestSchema,
  QuoteSchema,
  RecipientCreateRequestSchema,
  RecipientPatchRequestSchema,
  RecipientSchema,
  RetailBrandSchema,
  StorefrontDomainCreateRequestSchema,
  StorefrontDomainSchema,
  TopUpOfferPageSchema,
} from './index';

interface FixtureRule {
  schema: z.ZodType;
  /** Properties the contract writes as `T?` (`*` = any array index). */
  nullable?: string[];
  /** Properties a request may leave out. */
  optional?: string[];
  /** Objects that allow additional properties (and whose content is not walked). */
  open?: string[];
}

const productNullable = ['country.region', 'package.dataMb', 'package.dailyDataMb', 'activation.windowDays'];
const within = (prefix: string, paths: string[]) => paths.map((path) => `${prefix}.${path}`);
const esimNullable = [
  'usage.totalMb',
  'usage.remainingMb',
  'usage.observedAt',
  'usage.nextRefreshAt',
  'activation.activatedAt',
  'activation.deadlineAt',
  'activation.serviceExpiresAt',
  'activation.serviceExpiresOn',
];
const brandFields = ['displayName', 'logoUrl', 'primaryColor', 'supportEmail', 'supportUrl', 'customDomain'];
const retailBrandNullable = [
  'manifest.digest',
  ...within('legal', ['supportUrl', 'privacyUrl', 'termsUrl', 'refundUrl', 'accountDeletionUrl']),
  'communication.supportEmail',
  'commercial',
  'commercial.payment',
  'domains.*.verifiedAt',
  ...within('apps.*', ['storeUrl', 'currentVersion', 'currentBuild', 'releases.*.observedAt']),
];

/** Every fixture with the schema it is an example of. */
const rules: Record<string, FixtureRule> = {
  product: { schema: ProductSchema, nullable: productNullable },
  offer: { schema: OfferSchema, nullable: ['activation.windowDays'] },
  'product-page': {
    schema: ProductPageSchema,
    nullable: [...within('data.*', productNullable), 'meta.nextCursor', 'meta.updatedSince'],
  },
  capabilities: { schema: CapabilitiesSchema, nullable: ['tenantAttestation'] },
  'quote-request': { schema: QuoteRequestSchema, optional: ['esimId'] },
  quote: {
    schema: QuoteSchema,
    nullable: ['targetEsimId', ...within('product', productNullable), 'offer.activation.windowDays'],
  },
  'create-order-request': {
    schema: CreateOrderRequestSchema,
    optional: [
      'deliveryMode',
      'recipientId',
      'recipient',
      'recipient.email',
      'recipient.reference',
      'recipient.locale',
    ],
  },
  order: {
    schema: OrderSchema,
    nullable: [
      'targetEsimId',
      ...within('billing', ['reservedAmount', 'capturedAmount', 'releasedAmount', 'refundedAmount']),
      ...within('recipient', ['id', 'email', 'reference', 'locale']),
      'esim',
      ...within('product', productNullable),
      'offer.activation.windowDays',
    ],
  },
  recipient: { schema: RecipientSchema, nullable: ['name', 'email', 'locale', 'lastOrderAt'] },
  'recipient-create-request': {
    schema: RecipientCreateRequestSchema,
    nullable: ['name', 'email', 'locale'],
    optional: ['name', 'email', 'locale'],
  },
  'recipient-patch-request': {
    schema: RecipientPatchRequestSchema,
    nullable: ['name', 'email', 'locale'],
    optional: ['name', 'email', 'locale', 'archived'],
  },
  'delivery-link-create-request': {
    schema: DeliveryLinkCreateRequestSchema,
    optional: ['maxViews', 'expiresInMinutes'],
  },
  'delivery-link': { schema: DeliveryLinkSchema, nullable: ['lastViewedAt', 'revokedAt'] },
  'delivery-link-revocation': { schema: DeliveryLinkRevocationSchema },
  'esim-list-item': { schema: EsimListItemSchema, nullable: esimNullable },
  'esim-detail': { schema: EsimDetailSchema, nullable: esimNullable },
  'esim-actions': { schema: EsimActionsSchema, nullable: ['actions.*.freshUntil', 'actions.*.href'] },
  'top-up-offer-page': { schema: TopUpOfferPageSchema, nullable: ['data.*.activation.windowDays'] },
  'action-request-input': { schema: ActionRequestInputSchema, optional: ['reasonDetail'] },
  'action-request': {
    schema: ActionRequestSchema,
    nullable: ['reason.detail', 'resolution', 'resolution.note', 'replacementOrder', 'completedAt'],
  },
  'retail-brand': { schema: RetailBrandSchema, nullable: retailBrandNullable },
  account: {
    schema: AccountSchema,
    nullable: [
      'parentAccountId',
      'externalRef',
      'limits.singleOrder',
      'limits.monthlySpend',
      ...within('brand', brandFields),
      'brandOverrides',
      ...within('retailBrands.*', retailBrandNullable),
    ],
  },
  'account-balance': { schema: AccountBalanceSchema },
  brand: { schema: BrandSchema, nullable: brandFields },
  'account-create-request': {
    schema: AccountCreateRequestSchema,
    optional: ['parentAccountId', 'singleOrderLimit', 'monthlySpendLimit'],
  },
  'account-patch-request': {
    schema: AccountPatchRequestSchema,
    nullable: ['singleOrderLimit', 'monthlySpendLimit'],
    optional: ['name', 'status', 'singleOrderLimit', 'monthlySpendLimit'],
  },
  'brand-patch-request': { schema: BrandPatchRequestSchema, nullable: brandFields, optional: brandFields },
  'account-summary': { schema: AccountSummarySchema, nullable: ['accounts.*.parentAccountId'] },
  'account-member': {
    schema: AccountMemberSchema,
    nullable: ['displayName', 'inviteExpiresAt', 'acceptedAt'],
  },
  'account-member-create-request': { schema: AccountMemberCreateRequestSchema, optional: ['displayName'] },
  'account-member-patch-request': { schema: AccountMemberPatchRequestSchema, optional: ['role', 'status'] },
  'price-book': { schema: PriceBookSchema },
  'price-book-create-request': { schema: PriceBookCreateRequestSchema, optional: ['reason'] },
  'allocation-request': { schema: AllocationRequestSchema, optional: ['sourceAccountId'] },
  'allocation-result': { schema: AllocationResultSchema },
  'api-key': { schema: ApiKeySchema },
  'api-key-create-result': { schema: ApiKeyCreateResultSchema },
  'api-key-create-request': {
    schema: ApiKeyCreateRequestSchema,
    nullable: ['mtlsFingerprintSha256', 'rateLimitPerMinute'],
    optional: ['allowedCidrs', 'mtlsFingerprintSha256', 'rateLimitPerMinute'],
  },
  'storefront-domain': { schema: StorefrontDomainSchema, nullable: ['provider', 'lastError'] },
  'storefront-domain-create-request': { schema: StorefrontDomainCreateRequestSchema },
  'error-envelope': { schema: ErrorEnvelopeSchema, open: ['error.params'] },
};

const cases = Object.entries(rules).map(([name, rule]) => ({ name, ...rule }));
const matchesAny = (patterns: string[] | undefined, path: string) =>
  (patterns ?? []).some((pattern) => pathMatches(pattern, path));
const insideOpen = (rule: FixtureRule, path: string) =>
  (rule.open ?? []).some((open) => path.startsWith(`${open}.`));

it('every fixture file has a schema and every schema here has a fixture file', () => {
  expect(fixtureNames()).toEqual(Object.keys(rules).sort());
});

describe.each(cases)('fixture $name', (rule) => {
  const value = fixture(rule.name);

  it('parses unchanged', () => {
    expect(issuesOf(rule.schema, value)).toEqual([]);
    expect(rule.schema.parse(value)).toEqual(value);
  });

  it('rejects an undeclared property on every object', () => {
    for (const path of objectPaths(value).filter((p) => !insideOpen(rule, p))) {
      const extended = changed(value, path === '' ? 'unexpectedProperty' : `${path}.unexpectedProperty`, 1);
      const expected = matchesAny(rule.open, path) ? [] : [{ path, code: 'unrecognized_keys' }];
      expect(issuesOf(rule.schema, extended), `extra key at "${path}"`).toEqual(expected);
    }
  });

  it('requires every property the contract does not make optional', () => {
    for (const path of propertyPaths(value).filter((p) => !insideOpen(rule, p))) {
      const issues = issuesOf(rule.schema, changed(value, path, REMOVE));
      if (matchesAny(rule.optional, path)) {
        expect(issues, `"${path}" may be left out`).not.toContainEqual({ path, code: 'invalid_type' });
      } else {
        // A missing enum or literal is reported as `invalid_value`, anything else as `invalid_type`.
        expect(issues, `"${path}" is required`).toHaveLength(1);
        expect(issues[0]?.path).toBe(path);
        expect(['invalid_type', 'invalid_value']).toContain(issues[0]?.code);
      }
    }
  });

  it('accepts null exactly where the contract writes T?', () => {
    for (const path of propertyPaths(value).filter((p) => !insideOpen(rule, p))) {
      const issues = issuesOf(rule.schema, changed(value, path, null));
      if (matchesAny(rule.nullable, path)) {
        expect(issues, `"${path}" is nullable`).toEqual([]);
      } else {
        expect(issues.length, `"${path}" is not nullable`).toBeGreaterThan(0);
        expect(issues.map((issue) => issue.path)).toEqual(issues.map(() => path));
      }
    }
  });

  it('has every nullable property in its example, so the walk above covers it', () => {
    const paths = propertyPaths(value);
    for (const pattern of rule.nullable ?? []) {
      expect(
        paths.some((path) => pathMatches(pattern, path)),
        `"${pattern}"`,
      ).toBe(true);
    }
  });
});
