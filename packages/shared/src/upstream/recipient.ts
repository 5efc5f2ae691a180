/**
 * @module
 * Recipients: the partner's stored travellers, with create and patch requests.
 */
import { z } from 'zod';
import {
  DateTimeSchema,
  EnvironmentSchema,
  ExternalRefSchema,
  LocaleSchema,
  pageEnvelope,
  patchRequest,
  responseEnvelope,
} from './upstream-common';

/** Recipient `name`: up to 120 characters. */
export const RecipientNameSchema = z.string().max(120);

/** Recipient and member `email`: an email address of up to 254 characters. */
export const EmailAddressSchema = z.email().max(254);

/** A recipient. */
export const RecipientSchema = z.strictObject({
  id: z.string(),
  externalRef: ExternalRefSchema,
  name: z.string().nullable(),
  email: z.string().nullable(),
  locale: LocaleSchema.nullable(),
  archived: z.boolean(),
  orderCount: z.int().min(0),
  lastOrderAt: DateTimeSchema.nullable(),
  environment: EnvironmentSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Recipient = z.infer<typeof RecipientSchema>;

/** Create a recipient: `externalRef` is required, the rest optional and nullable. */
export const RecipientCreateRequestSchema = z.strictObject({
  externalRef: ExternalRefSchema,
  name: RecipientNameSchema.nullable().optional(),
  email: EmailAddressSchema.nullable().optional(),
  locale: LocaleSchema.nullable().optional(),
});
export type RecipientCreateRequest = z.infer<typeof RecipientCreateRequestSchema>;

/** Patch a recipient: at least one property. */
export const RecipientPatchRequestSchema = patchRequest(
  z.strictObject({
    name: RecipientNameSchema.nullable().optional(),
    email: EmailAddressSchema.nullable().optional(),
    locale: LocaleSchema.nullable().optional(),
    archived: z.boolean().optional(),
  }),
);
export type RecipientPatchRequest = z.infer<typeof RecipientPatchRequestSchema>;

export const RecipientResponseSchema = responseEnvelope(RecipientSchema);
export type RecipientResponse = z.infer<typeof RecipientResponseSchema>;

export const RecipientPageSchema = pageEnvelope(RecipientSchema);
export type RecipientPage = z.infer<typeof RecipientPageSchema>;
