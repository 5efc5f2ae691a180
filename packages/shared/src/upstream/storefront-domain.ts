/**
 * @module
 * Storefront domains: a hosted storefront's hostname with its ownership, DNS and TLS verification.
 */
import { z } from 'zod';
import {
  DomainOwnershipStatusSchema,
  DomainProvisioningStatusSchema,
  StorefrontDomainStatusSchema,
} from './states';
import { DateTimeSchema, responseEnvelope } from './upstream-common';

/** Whether the domain is the partner's own or managed by the service. */
export const DomainSourceSchema = z.enum(['external', 'managed']);
export type DomainSource = z.infer<typeof DomainSourceSchema>;

/** The DNS records the partner has to publish. */
export const StorefrontDomainDnsSchema = z.strictObject({
  ownership: z.strictObject({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  cname: z.strictObject({ type: z.literal('CNAME'), name: z.string(), value: z.string() }),
});
export type StorefrontDomainDns = z.infer<typeof StorefrontDomainDnsSchema>;

/** A storefront domain. */
export const StorefrontDomainSchema = z.strictObject({
  id: z.string(),
  appId: z.string(),
  hostname: z.string(),
  source: DomainSourceSchema,
  provider: z.string().nullable(),
  ownershipStatus: DomainOwnershipStatusSchema,
  dnsStatus: DomainProvisioningStatusSchema,
  tlsStatus: DomainProvisioningStatusSchema,
  status: StorefrontDomainStatusSchema,
  dns: StorefrontDomainDnsSchema,
  lastError: z.string().nullable(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type StorefrontDomain = z.infer<typeof StorefrontDomainSchema>;

/**
 * Attach a domain. The contract shows only the required `hostname`; its other properties are not shown, so
 * this schema accepts exactly `hostname`.
 */
export const StorefrontDomainCreateRequestSchema = z.strictObject({
  hostname: z.hostname(),
});
export type StorefrontDomainCreateRequest = z.infer<typeof StorefrontDomainCreateRequestSchema>;

export const StorefrontDomainResponseSchema = responseEnvelope(StorefrontDomainSchema);
export type StorefrontDomainResponse = z.infer<typeof StorefrontDomainResponseSchema>;
