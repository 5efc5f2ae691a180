/**
 * @module
 * `POST /v1/partner/privacy/exports`: every datum the BFF holds about one traveller (GDPR art. 15), named as an
 * erasure names them (`privacy-erasure.ts`). docs/privacy.md says what the upstream service holds besides.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../upstream/upstream-common';
import { PartnerActionRequestSchema } from './after-sale';
import { PartnerCheckoutSchema } from './checkout';
import { apiEnvelope } from './common';
import { PrivacySubjectRefSchema } from './privacy-erasure';
import { WidgetIdSchema } from './session';
import { PartnerWebhookDeliveryDetailSchema } from './webhook-deliveries';

/** An eSIM the traveller bought, as the BFF keeps it: its seller, and whether its data was erased. */
export const PrivacyExportEsimSchema = z.strictObject({
  id: z.string().min(1),
  widgetId: WidgetIdSchema,
  /** The checkout that bought it. */
  checkoutId: z.string().nullable(),
  erased: z.boolean(),
});

/** Every datum the BFF holds about one traveller (the upstream service holds its own: docs/privacy.md). */
export const PrivacyExportSchema = z.strictObject({
  subject: PrivacySubjectRefSchema,
  exportedAt: DateTimeSchema,
  /** The traveller's checkouts, each as `GET /v1/partner/checkouts/{id}` answers it (the e-mail address included). */
  checkouts: z.array(PartnerCheckoutSchema),
  esims: z.array(PrivacyExportEsimSchema),
  /** The webhook deliveries about those checkouts, each with the event it sends. */
  webhookDeliveries: z.array(PartnerWebhookDeliveryDetailSchema),
  /** The help requests made about those eSIMs. */
  actionRequests: z.array(PartnerActionRequestSchema),
});
export type PrivacyExport = z.infer<typeof PrivacyExportSchema>;
export const PrivacyExportResponseSchema = apiEnvelope(PrivacyExportSchema);
