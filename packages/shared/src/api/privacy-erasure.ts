/**
 * @module
 * Erasing a traveller's personal data (GDPR art. 17), for the partner's server: `POST /v1/partner/privacy/erasures`
 * queues the erasure and answers its receipt, `GET /v1/partner/privacy/erasures/{id}` reads it, and the
 * `privacy.erased` webhook carries it once done. The traveller is named by exactly one of an e-mail address, a
 * checkout id or an eSIM id. docs/privacy.md says what is kept, where and how long.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../upstream/upstream-common';
import { apiEnvelope } from './common';
import { WidgetIdSchema } from './session';

/** A checkout id as the partner routes take it. */
const CheckoutIdSchema = z.string().regex(/^chk_[A-Za-z0-9_-]{8,64}$/);
/** An eSIM id (the upstream's ids are short opaque strings). */
const EsimIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/**
 * Whose data: exactly one of the traveller's e-mail address (every checkout of the partner's widgets made with it,
 * matched trimmed and in any case), one checkout, or one eSIM (the checkouts that bought or topped it up).
 */
export const PrivacySubjectSchema = z.union([
  z.strictObject({ email: z.email().max(254) }),
  z.strictObject({ checkoutId: CheckoutIdSchema }),
  z.strictObject({ esimId: EsimIdSchema }),
]);
export type PrivacySubject = z.infer<typeof PrivacySubjectSchema>;

/**
 * How a receipt names its traveller: the kind of selector and the ids, never the e-mail address. `widget`: the
 * erasure of every traveller of a widget removed from the config, after `privacy.removedWidgetErasureDays`.
 */
export const PrivacySubjectRefSchema = z.strictObject({
  kind: z.enum(['email', 'checkout', 'esim', 'widget']),
  /** The checkout, eSIM or removed widget named; null for an e-mail address (kept only as a keyed digest). */
  id: z.string().nullable(),
});
export type PrivacySubjectRef = z.infer<typeof PrivacySubjectRefSchema>;

/** What an erasure found holding the traveller's data, or erased, by kind of record. */
export const PrivacyCountsSchema = z.strictObject({
  /** Checkouts of the partner's widgets (their money facts stay, without the person). */
  checkouts: z.int().min(0),
  /** eSIMs they bought: their manage links answer `erased` (410) from then on. */
  esims: z.int().min(0),
  /** Webhook deliveries about those checkouts whose stored body named the traveller. */
  webhookDeliveries: z.int().min(0),
  /** Kept answers of idempotent requests (replayed to a retry) that named the traveller. */
  keptAnswers: z.int().min(0),
  /** Help requests about those eSIMs whose free-text reason was kept. */
  actionRequests: z.int().min(0),
});
export type PrivacyCounts = z.infer<typeof PrivacyCountsSchema>;

/** The receipt of one erasure. */
export const PrivacyErasureSchema = z.strictObject({
  id: z.string().min(1),
  /** `pending` while the job runs (read it again with its id), `completed` once every record is erased. */
  status: z.enum(['pending', 'completed']),
  subject: PrivacySubjectRefSchema,
  /** The widgets whose data it erased: every one the partner secret opens. */
  widgetIds: z.array(WidgetIdSchema),
  found: PrivacyCountsSchema,
  erased: PrivacyCountsSchema,
  requestedAt: DateTimeSchema,
  completedAt: DateTimeSchema.nullable(),
});
export type PrivacyErasure = z.infer<typeof PrivacyErasureSchema>;
export const PrivacyErasureResponseSchema = apiEnvelope(PrivacyErasureSchema);
