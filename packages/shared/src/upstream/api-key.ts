/**
 * @module
 * Account API keys: one account, one environment, a non-empty set of scopes; the secret is shown once.
 */
import { z } from 'zod';
import { DisplayNameSchema } from './account';
import {
  DateTimeSchema,
  EnvironmentSchema,
  ExternalRefSchema,
  pageEnvelope,
  responseEnvelope,
  uniqueArray,
} from './upstream-common';

/** Every scope a key can carry. */
export const KeyScopeSchema = z.enum([
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
]);
export type KeyScope = z.infer<typeof KeyScopeSchema>;

/** A key's status. */
export const ApiKeyStatusSchema = z.enum(['active', 'revoked']);
export type ApiKeyStatus = z.infer<typeof ApiKeyStatusSchema>;

/** An API key as read later: the prefix only, never the secret. */
export const ApiKeySchema = z.strictObject({
  id: z.string(),
  externalRef: ExternalRefSchema,
  label: z.string(),
  environment: EnvironmentSchema,
  scopes: uniqueArray(KeyScopeSchema).min(1),
  prefix: z.string(),
  status: ApiKeyStatusSchema,
  createdAt: DateTimeSchema,
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The creation result: the key plus its `secret`, returned once. */
export const ApiKeyCreateResultSchema = ApiKeySchema.extend({
  secret: z.string().min(1),
});
export type ApiKeyCreateResult = z.infer<typeof ApiKeyCreateResultSchema>;

/** An IPv4 or IPv6 network in CIDR notation. */
export const CidrSchema = z.union([z.cidrv4(), z.cidrv6()]);

/** Create a key: at least one scope, no repeated scope or CIDR, at most 20 CIDRs. */
export const ApiKeyCreateRequestSchema = z.strictObject({
  externalRef: ExternalRefSchema,
  label: DisplayNameSchema,
  environment: EnvironmentSchema,
  scopes: uniqueArray(KeyScopeSchema).min(1),
  allowedCidrs: uniqueArray(CidrSchema).max(20).optional(),
  mtlsFingerprintSha256: z.string().nullable().optional(),
  rateLimitPerMinute: z.int().nullable().optional(),
});
export type ApiKeyCreateRequest = z.infer<typeof ApiKeyCreateRequestSchema>;

export const ApiKeyCreateResponseSchema = responseEnvelope(ApiKeyCreateResultSchema);
export type ApiKeyCreateResponse = z.infer<typeof ApiKeyCreateResponseSchema>;

export const ApiKeyPageSchema = pageEnvelope(ApiKeySchema);
export type ApiKeyPage = z.infer<typeof ApiKeyPageSchema>;
