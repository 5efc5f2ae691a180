/**
 * @module
 * Capabilities: account introspection — what the credential may do, how it settles, which supply
 * operations exist and, for brand-scoped credentials, the brand cell it is bound to.
 */
import { z } from 'zod';
import { CurrencySchema, EnvironmentSchema, responseEnvelope, Sha256HexSchema } from './upstream-common';

/** The capability areas of the service. */
export const CapabilityIdSchema = z.enum([
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
]);
export type CapabilityId = z.infer<typeof CapabilityIdSchema>;

/** The scopes a credential can report as granted in capabilities (a subset of the key scopes). */
export const GrantedScopeSchema = z.enum([
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
]);
export type GrantedScope = z.infer<typeof GrantedScopeSchema>;

/** `preview`, or `stable` (only additive changes until a new major version). */
export const ContractStatusSchema = z.enum(['preview', 'stable']);
export type ContractStatus = z.infer<typeof ContractStatusSchema>;

/** A brand key: a lowercase letter, then 1..31 lowercase letters, digits or dashes. */
export const BrandKeySchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,31}$/, 'expected a brand key like "acme-travel"');

/** Binds a brand-scoped credential to one brand cell configuration. */
export const TenantAttestationSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('retail_brand_cell'),
  brandKey: BrandKeySchema,
  environment: EnvironmentSchema,
  manifest: z.strictObject({
    configVersion: z.int().min(1),
    digest: Sha256HexSchema,
  }),
  factory: z.strictObject({
    schemaVersion: z.int().min(1),
    configVersion: z.int().min(1),
    configDigest: Sha256HexSchema,
    templateVersion: z.string().min(1).max(64),
  }),
});
export type TenantAttestation = z.infer<typeof TenantAttestationSchema>;

/** How the account settles: always prepaid, money always in minor units. */
export const SettlementSchema = z.strictObject({
  currency: CurrencySchema,
  amountFormat: z.literal('minor_units'),
  wholeRubOnly: z.boolean(),
  fundingMode: z.literal('prepaid'),
});
export type Settlement = z.infer<typeof SettlementSchema>;

/** One capability area granted to the account. */
export const CapabilitySchema = z.strictObject({
  id: CapabilityIdSchema,
  state: z.literal('available'),
});
export type Capability = z.infer<typeof CapabilitySchema>;

/** The supply operations whose availability capabilities report. */
export const SupplyOperationIdSchema = z.enum(['issue', 'usage', 'top_up', 'cancel_unused', 'reissue']);
export type SupplyOperationId = z.infer<typeof SupplyOperationIdSchema>;

/** `route_dependent` requires an exact offer or issued-profile check. */
export const SupplyAvailabilitySchema = z.enum(['available', 'simulated', 'route_dependent', 'unavailable']);
export type SupplyAvailability = z.infer<typeof SupplyAvailabilitySchema>;

/** The channel through which a supply operation is reached. */
export const SupplyAccessSchema = z.enum(['api', 'bridge', 'assisted', 'none']);
export type SupplyAccess = z.infer<typeof SupplyAccessSchema>;

/** A supply operation's availability and access; availability alone does not create an endpoint. */
export const SupplyOperationSchema = z.strictObject({
  id: SupplyOperationIdSchema,
  availability: SupplyAvailabilitySchema,
  access: SupplyAccessSchema,
});
export type SupplyOperation = z.infer<typeof SupplyOperationSchema>;

/** The capabilities resource. */
export const CapabilitiesSchema = z.strictObject({
  contractStatus: ContractStatusSchema,
  environment: EnvironmentSchema,
  tenantAttestation: TenantAttestationSchema.nullable(),
  grantedScopes: z.array(GrantedScopeSchema),
  settlement: SettlementSchema,
  capabilities: z.array(CapabilitySchema),
  supplyOperations: z.array(SupplyOperationSchema),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

export const CapabilitiesResponseSchema = responseEnvelope(CapabilitiesSchema);
export type CapabilitiesResponse = z.infer<typeof CapabilitiesResponseSchema>;
