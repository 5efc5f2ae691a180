/**
 * @module
 * The partner's support desk (`/v1/partner/checkouts`, `/v1/partner/esims`): its checkouts listed and searched,
 * and the eSIMs its widgets sold, newest first, a page at a time (`list-page.ts`). Scoped to the widgets the
 * partner secret opens.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../upstream/upstream-common';
import { PlanSchema } from './catalog';
import { CheckoutStatusSchema, PartnerCheckoutSchema } from './checkout';
import { ListQuerySchema, listPageEnvelope } from './list-page';

/**
 * `GET /v1/partner/checkouts`: every filter optional, all of them applied together. `email` matches the
 * traveller's address exactly, whatever its case; `createdFrom`/`createdTo` bound the creation time (inclusive).
 */
export const PartnerCheckoutListQuerySchema = ListQuerySchema.extend({
  status: CheckoutStatusSchema.optional(),
  createdFrom: DateTimeSchema.optional(),
  createdTo: DateTimeSchema.optional(),
  email: z.string().min(1).max(254).optional(),
  /** The eSIM a checkout issued, or the one it topped up. */
  esimId: z.string().min(1).max(128).optional(),
  /** The partner's own payment reference, as given to the confirm. */
  paymentReference: z.string().min(1).max(128).optional(),
});
export type PartnerCheckoutListQuery = z.infer<typeof PartnerCheckoutListQuerySchema>;
export const PartnerCheckoutListResponseSchema = listPageEnvelope(PartnerCheckoutSchema);
export type PartnerCheckoutListResponse = z.infer<typeof PartnerCheckoutListResponseSchema>;

/** `GET /v1/partner/esims`: the page only (the BFF does not keep an eSIM's own state to filter on). */
export const PartnerEsimListQuerySchema = ListQuerySchema;
export type PartnerEsimListQuery = z.infer<typeof PartnerEsimListQuerySchema>;

/**
 * One eSIM a partner's widget sold: who sold it and when, and — while the checkout that sold it is kept (30 days
 * after its last change) — what was bought and its status. `GET /v1/partner/esims/{esimId}` reads its live state.
 */
export const PartnerEsimSummarySchema = z.strictObject({
  esimId: z.string().min(1),
  widgetId: z.string().min(1),
  /** The checkout that sold it (for a replacement: the one that sold the eSIM it replaced). */
  checkoutId: z.string().min(1),
  /** A reissue's replacement: the eSIM it replaced; null for an eSIM a checkout issued. */
  replaces: z.string().min(1).nullable(),
  /** When the checkout that sold it was created; for a replacement, when the reissue completed. */
  soldAt: DateTimeSchema,
  /** The selling checkout's status, plan and traveller e-mail; null once that checkout is no longer kept. */
  checkout: z
    .strictObject({
      status: CheckoutStatusSchema,
      plan: PlanSchema,
      email: z.string().nullable(),
    })
    .nullable(),
});
export type PartnerEsimSummary = z.infer<typeof PartnerEsimSummarySchema>;
export const PartnerEsimListResponseSchema = listPageEnvelope(PartnerEsimSummarySchema);
export type PartnerEsimListResponse = z.infer<typeof PartnerEsimListResponseSchema>;
