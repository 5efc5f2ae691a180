/**
 * @module
 * Delivery links: a secret, view-limited, expiring URL that shows an order's eSIM on another device.
 */
import { z } from 'zod';
import { DeliveryLinkRevocationStatusSchema } from './states';
import { DateTimeSchema, EnvironmentSchema, responseEnvelope, UriSchema } from './upstream-common';

/** A delivery link. `url` is a secret, returned on creation and on an identical idempotent replay. */
export const DeliveryLinkSchema = z.strictObject({
  id: z.string(),
  environment: EnvironmentSchema,
  orderId: z.string(),
  url: UriSchema,
  maxViews: z.int().min(1).max(5),
  viewCount: z.int().min(0),
  expiresAt: DateTimeSchema,
  lastViewedAt: DateTimeSchema.nullable(),
  revokedAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
});
export type DeliveryLink = z.infer<typeof DeliveryLinkSchema>;

/** Create a delivery link: `maxViews` 1..5 (default 1), `expiresInMinutes` 5..1440 (default 60). */
export const DeliveryLinkCreateRequestSchema = z.strictObject({
  maxViews: z.int().min(1).max(5).default(1),
  expiresInMinutes: z.int().min(5).max(1440).default(60),
});
export type DeliveryLinkCreateRequest = z.infer<typeof DeliveryLinkCreateRequestSchema>;
/** The create request as a client may send it (both fields optional). */
export type DeliveryLinkCreateRequestInput = z.input<typeof DeliveryLinkCreateRequestSchema>;

/** The result of revoking a delivery link. */
export const DeliveryLinkRevocationSchema = z.strictObject({
  id: z.string(),
  status: DeliveryLinkRevocationStatusSchema,
  revokedAt: DateTimeSchema,
});
export type DeliveryLinkRevocation = z.infer<typeof DeliveryLinkRevocationSchema>;

export const DeliveryLinkResponseSchema = responseEnvelope(DeliveryLinkSchema);
export type DeliveryLinkResponse = z.infer<typeof DeliveryLinkResponseSchema>;

export const DeliveryLinkRevocationResponseSchema = responseEnvelope(DeliveryLinkRevocationSchema);
export type DeliveryLinkRevocationResponse = z.infer<typeof DeliveryLinkRevocationResponseSchema>;
