/**
 * @module
 * Post-sale action requests: cancellation, refund or reissue of an order's eSIM.
 */
import { z } from 'zod';
import { ActionRequestStatusSchema } from './states';
import {
  DateTimeSchema,
  EnvironmentSchema,
  ExternalRefSchema,
  OrderRefSchema,
  pageEnvelope,
  responseEnvelope,
  UriSchema,
} from './upstream-common';

/** Why a post-sale action is requested. */
export const ActionReasonCodeSchema = z.enum([
  'delivery_not_started',
  'unused_profile',
  'duplicate_order',
  'service_not_delivered',
  'service_defective',
  'duplicate_charge',
  'installation_failed',
  'profile_unusable',
  'other',
]);
export type ActionReasonCode = z.infer<typeof ActionReasonCodeSchema>;

/** The kinds of action request. */
export const ActionRequestTypeSchema = z.enum(['cancellation', 'refund', 'reissue']);
export type ActionRequestType = z.infer<typeof ActionRequestTypeSchema>;

/**
 * Which action a reason asks for. The contract does not state it; the sandbox decides a request's type with this
 * table, and the BFF uses it to check the eSIM's actions before it asks.
 */
export const ACTION_TYPE_BY_REASON: Readonly<Record<ActionReasonCode, ActionRequestType>> = {
  delivery_not_started: 'cancellation',
  unused_profile: 'cancellation',
  duplicate_order: 'cancellation',
  installation_failed: 'reissue',
  profile_unusable: 'reissue',
  service_not_delivered: 'refund',
  service_defective: 'refund',
  duplicate_charge: 'refund',
  other: 'refund',
};

/** Request a post-sale action. */
export const ActionRequestInputSchema = z.strictObject({
  externalRef: ExternalRefSchema,
  reasonCode: ActionReasonCodeSchema,
  reasonDetail: z.string().max(1000).optional(),
});
export type ActionRequestInput = z.infer<typeof ActionRequestInputSchema>;

/** A post-sale action request and how it was resolved. */
export const ActionRequestSchema = z.strictObject({
  id: z.string(),
  externalRef: ExternalRefSchema,
  type: ActionRequestTypeSchema,
  status: ActionRequestStatusSchema,
  stateRevision: z.int().min(1),
  environment: EnvironmentSchema,
  order: OrderRefSchema,
  reason: z.strictObject({
    code: ActionReasonCodeSchema,
    detail: z.string().nullable(),
  }),
  resolution: z
    .strictObject({
      code: z.string(),
      note: z.string().nullable(),
    })
    .nullable(),
  replacementOrder: OrderRefSchema.nullable(),
  resourceUrl: UriSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  completedAt: DateTimeSchema.nullable(),
});
export type ActionRequest = z.infer<typeof ActionRequestSchema>;

export const ActionRequestResponseSchema = responseEnvelope(ActionRequestSchema);
export type ActionRequestResponse = z.infer<typeof ActionRequestResponseSchema>;

export const ActionRequestPageSchema = pageEnvelope(ActionRequestSchema);
export type ActionRequestPage = z.infer<typeof ActionRequestPageSchema>;
