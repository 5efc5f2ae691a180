/**
 * @module
 * Orders: the create-order request (with the `platform` delivery rule) and the order resource with its
 * billing, recipient and eSIM link.
 */
import { z } from 'zod';
import { PurchaseKindSchema } from './quote';
import { EmailAddressSchema } from './recipient';
import { BillingStatusSchema, OrderStatusSchema } from './states';
import { OfferSchema, ProductSchema } from './upstream-catalog';
import {
  DateTimeSchema,
  EnvironmentSchema,
  ExternalRefSchema,
  LocaleSchema,
  NonNegativeMoneySchema,
  pageEnvelope,
  responseEnvelope,
  UriSchema,
} from './upstream-common';

/**
 * `partner`: the service sends no email, the partner delivers. `platform`: the service sends its
 * transactional email to `recipient.email`.
 */
export const DeliveryModeSchema = z.enum(['partner', 'platform']);
export type DeliveryMode = z.infer<typeof DeliveryModeSchema>;

/** The inline recipient of a create-order request. */
export const OrderRecipientInputSchema = z.strictObject({
  /** An email address; at most 254 characters like every recipient email (longer is never a valid address). */
  email: EmailAddressSchema.optional(),
  reference: z.string().max(180).optional(),
  locale: LocaleSchema.optional(),
});
export type OrderRecipientInput = z.infer<typeof OrderRecipientInputSchema>;

/** The message of a `platform` delivery without a recipient email. */
export const PLATFORM_DELIVERY_NEEDS_EMAIL = 'deliveryMode "platform" requires recipient.email';

/** `POST /orders`: turn a quote into an order; `platform` delivery requires `recipient.email`. */
export const CreateOrderRequestSchema = z
  .strictObject({
    quoteId: z.string().min(1),
    externalRef: ExternalRefSchema,
    deliveryMode: DeliveryModeSchema.optional(),
    recipientId: z.string().min(1).optional(),
    recipient: OrderRecipientInputSchema.optional(),
  })
  .refine((body) => body.deliveryMode !== 'platform' || body.recipient?.email !== undefined, {
    message: PLATFORM_DELIVERY_NEEDS_EMAIL,
    path: ['recipient', 'email'],
  });
export type CreateOrderRequest = z.infer<typeof CreateOrderRequestSchema>;

/** The order's prepaid funds: each amount null when it does not apply. */
export const OrderBillingSchema = z.strictObject({
  status: BillingStatusSchema,
  reservedAmount: NonNegativeMoneySchema.nullable(),
  capturedAmount: NonNegativeMoneySchema.nullable(),
  releasedAmount: NonNegativeMoneySchema.nullable(),
  refundedAmount: NonNegativeMoneySchema.nullable(),
});
export type OrderBilling = z.infer<typeof OrderBillingSchema>;

/** The order's recipient; every field null when the credential lacks `recipients:read`. */
export const OrderRecipientSchema = z.strictObject({
  id: z.string().nullable(),
  email: z.string().nullable(),
  reference: z.string().nullable(),
  locale: LocaleSchema.nullable(),
});
export type OrderRecipient = z.infer<typeof OrderRecipientSchema>;

/** The issued eSIM's link; follow `resourceUrl` for installation data. */
export const OrderEsimSchema = z.strictObject({
  id: z.string(),
  resourceUrl: UriSchema,
});
export type OrderEsim = z.infer<typeof OrderEsimSchema>;

/** An order: read it until `esim` is set to track payment, provisioning and delivery. */
export const OrderSchema = z.strictObject({
  id: z.string(),
  quoteId: z.string(),
  kind: PurchaseKindSchema,
  /** Null when the credential lacks `esims:read`. */
  targetEsimId: z.string().nullable(),
  externalRef: ExternalRefSchema,
  status: OrderStatusSchema,
  price: NonNegativeMoneySchema,
  billing: OrderBillingSchema,
  deliveryMode: DeliveryModeSchema,
  recipient: OrderRecipientSchema,
  /** Null until issuance or when the credential lacks `esims:read`. */
  esim: OrderEsimSchema.nullable(),
  environment: EnvironmentSchema,
  stateRevision: z.int().min(1),
  product: ProductSchema,
  offer: OfferSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderResponseSchema = responseEnvelope(OrderSchema);
export type OrderResponse = z.infer<typeof OrderResponseSchema>;

export const OrderPageSchema = pageEnvelope(OrderSchema);
export type OrderPage = z.infer<typeof OrderPageSchema>;
