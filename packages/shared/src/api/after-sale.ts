/**
 * @module
 * After the sale: "my eSIM" (usage, dates, top-up), manage links, and the partner's help requests.
 *
 * Endpoints (all answers `{ data, meta }`, errors in the contract's envelope):
 *
 * Traveller (browser), `Authorization: Bearer <session>` + the same `Origin` as for the session:
 * - `POST /v1/checkouts/{id}/manage-link` (+ `X-Checkout-Secret`; the checkout is `ready`, kind `issue`)
 *   → {@link ManageLink}. The widget puts `manageToken` in the page URL's fragment
 *   (`#esim=<widget id>.<token>`, {@link MANAGE_TOKEN_FRAGMENT_PARAM}) so it never reaches a server log.
 *   Asked again for the same checkout (a reload), it answers the same link.
 * - `GET /v1/my-esim?locale=` (+ `X-Manage-Token`) → {@link EsimView}: plan, usage, dates, top-up, actions.
 *   `Cache-Control: no-store`.
 * - `GET /v1/my-esim/installation` (+ `X-Manage-Token`) → {@link EsimInstallationView}, only while the
 *   eSIM is not installed (`installed: false` in the view); otherwise `invalid_transition`. `no-store`.
 * - Top-up: the SAME quote → checkout machinery as a first purchase, with the manage token:
 *   `POST /v1/quotes {offerId, esimId, locale?}` (+ `X-Manage-Token`, `Idempotency-Key`) → Quote with
 *   `kind: 'top_up'`, `esimId`; `POST /v1/checkouts {quoteId, email?, locale, termsAccepted}`
 *   (+ `X-Manage-Token`, `Idempotency-Key`) → CreatedCheckout with `kind: 'top_up'`; then
 *   `GET /v1/checkouts/{id}` (+ `X-Checkout-Secret`) until `ready` (the top-up is on the eSIM) or `failed`.
 *   In `partner_confirm` mode the partner confirms with `POST /v1/partner/checkouts/{id}/confirm` as usual.
 *   `offerId` must be one of the view's `topUp.offers`; a top-up has no installation.
 *
 * Partner server, `X-Partner-Secret` (never from a browser):
 * - `POST /v1/partner/esims/{esimId}/manage-links {widgetId}` → {@link ManageLink} for an eSIM it sold (the
 *   eSIM's current link in that widget, the same one the install step showed, while it is live).
 * - `POST /v1/partner/manage-links/{id}/revoke` → {@link RevokedManageLink}; the token stops working at once.
 *   Only a link of one of the caller's widgets; any other is `not_found`.
 * - `POST /v1/partner/esims/{esimId}/manage-links/revoke-all` → {@link RevokedManageLinks}: every token of the
 *   eSIM issued until now stops working; a later mint makes a new link.
 * - `GET /v1/partner/esims/{esimId}` → {@link EsimView} (what the traveller sees; no installation data).
 * - `POST /v1/partner/esims/{esimId}/action-requests {reasonCode, reasonDetail?}` (+ `Idempotency-Key`)
 *   → {@link PartnerActionRequest}; when the eSIM's actions say the matching type is `available` or goes
 *   through `manual_review` (access `api` or `assisted`); `action_not_available` otherwise. The reason decides
 *   the type (cancellation / refund / reissue). The BFF follows it and sends `action_request.updated`.
 * - `GET /v1/partner/action-requests/{id}` → {@link PartnerActionRequest}, to follow its status;
 *   `GET /v1/partner/action-requests?status=&esimId=` lists those made through this BFF, newest first.
 * - `POST /v1/partner/esims/{esimId}/delivery-links {maxViews?, expiresInMinutes?}` (+ `Idempotency-Key`)
 *   → {@link PartnerDeliveryLink} (its secret `url` to send to the traveller);
 *   `POST /v1/partner/delivery-links/{id}/revoke` → {@link RevokedDeliveryLink}.
 *
 * Errors: a tampered, expired, revoked or foreign manage token → `widget_session_invalid`;
 * an unknown eSIM → `esim_not_found`; a top-up the eSIM cannot take → `action_not_available`.
 */
import { z } from 'zod';
import { ActionReasonCodeSchema, ActionRequestTypeSchema } from '../upstream/action-request';
import {
  EsimActionAccessSchema,
  EsimActionAvailabilitySchema,
  EsimActionTypeSchema,
  TopUpStatusSchema,
} from '../upstream/esim';
import {
  ActionRequestStatusSchema,
  EsimProfileStateSchema,
  EsimServiceStateSchema,
  EsimStateSchema,
  UsageStatusSchema,
} from '../upstream/states';
import { DateTimeSchema, LocaleSchema } from '../upstream/upstream-common';
import { PlanSchema } from './catalog';
import { InstallationDataSchema } from './checkout';
import { apiEnvelope } from './common';
import { ListQuerySchema, listPageEnvelope } from './list-page';
import { WidgetIdSchema } from './session';

/** The header that carries a manage token on `/v1/my-esim*` and on top-up quotes and checkouts. */
export const MANAGE_TOKEN_HEADER = 'X-Manage-Token';
/**
 * The URL-fragment parameter of a manage link: `#esim=<widget id>.<token>` (the widget id lets a page with
 * several widgets open the link in the right one). Links of the release before read `#esim-manage=<token>`.
 */
export const MANAGE_TOKEN_FRAGMENT_PARAM = 'esim';

/** A revocable token that opens one eSIM's own view in one widget; one per eSIM and widget. */
export const ManageLinkSchema = z.strictObject({
  /** The link's public id, to revoke it (`POST /v1/partner/manage-links/{id}/revoke`); opens nothing. */
  id: z.string().min(1),
  /** The secret (26 characters): put it in the page URL's fragment, never in a query string. */
  manageToken: z.string().min(16),
  esimId: z.string().min(1),
  widgetId: WidgetIdSchema,
  /** While the plan can be used (its service end), capped by the BFF. */
  expiresAt: DateTimeSchema,
});
export type ManageLink = z.infer<typeof ManageLinkSchema>;
export const ManageLinkResponseSchema = apiEnvelope(ManageLinkSchema);

/** `POST /v1/partner/esims/{esimId}/manage-links`: which widget the link opens. */
export const CreateManageLinkRequestSchema = z.strictObject({ widgetId: WidgetIdSchema });
export type CreateManageLinkRequest = z.infer<typeof CreateManageLinkRequestSchema>;

export const RevokedManageLinkSchema = z.strictObject({
  id: z.string().min(1),
  revokedAt: DateTimeSchema,
});
export type RevokedManageLink = z.infer<typeof RevokedManageLinkSchema>;
export const RevokedManageLinkResponseSchema = apiEnvelope(RevokedManageLinkSchema);

/** `POST /v1/partner/esims/{esimId}/manage-links/revoke-all`: every token issued until `revokedBefore` is refused. */
export const RevokedManageLinksSchema = z.strictObject({
  esimId: z.string().min(1),
  revokedBefore: DateTimeSchema,
});
export type RevokedManageLinks = z.infer<typeof RevokedManageLinksSchema>;
export const RevokedManageLinksResponseSchema = apiEnvelope(RevokedManageLinksSchema);

/** Data used and left, and how fresh the numbers are. */
export const EsimUsageViewSchema = z.strictObject({
  /** Null for unlimited plans. */
  totalMb: z.int().min(0).nullable(),
  usedMb: z.int().min(0),
  /** Null when unknown or unlimited. */
  remainingMb: z.int().min(0).nullable(),
  /** `fresh`: just measured; `stale`: last known numbers; `unavailable`: no numbers. */
  status: UsageStatusSchema,
  observedAt: DateTimeSchema.nullable(),
});
export type EsimUsageView = z.infer<typeof EsimUsageViewSchema>;

/** Whether the eSIM can be topped up now and with what, at retail prices. */
export const EsimTopUpViewSchema = z.strictObject({
  /** The contract's six statuses: `available` or why not. */
  status: TopUpStatusSchema,
  /** Asking again later may change the answer (`temporarily_unavailable`, `compatibility_unverified`). */
  retryable: z.boolean(),
  /** Empty unless `available`. */
  offers: z.array(PlanSchema),
});
export type EsimTopUpView = z.infer<typeof EsimTopUpViewSchema>;

/** One post-sale action of the eSIM, as the upstream reports it now (`requestable-actions.ts` reads it). */
export const EsimActionViewSchema = z.strictObject({
  type: EsimActionTypeSchema,
  availability: EsimActionAvailabilitySchema,
  access: EsimActionAccessSchema,
});
export type EsimActionView = z.infer<typeof EsimActionViewSchema>;

/** "My eSIM": what a traveller sees when they come back. */
export const EsimViewSchema = z.strictObject({
  esimId: z.string().min(1),
  iccid: z.string(),
  state: EsimStateSchema,
  profileState: EsimProfileStateSchema,
  serviceState: EsimServiceStateSchema,
  /** The profile is on a device; when false, `GET /v1/my-esim/installation` gives the install data again. */
  installed: z.boolean(),
  /** The plan bought (retail price of the first purchase); null when the upstream no longer lists it. */
  plan: PlanSchema.nullable(),
  usage: EsimUsageViewSchema,
  activation: z.strictObject({
    activatedAt: DateTimeSchema.nullable(),
    /** Install / activate before this, or the plan lapses. */
    deadlineAt: DateTimeSchema.nullable(),
    serviceExpiresAt: DateTimeSchema.nullable(),
  }),
  topUp: EsimTopUpViewSchema,
  actions: z.array(EsimActionViewSchema),
  createdAt: DateTimeSchema,
});
export type EsimView = z.infer<typeof EsimViewSchema>;
export const EsimViewResponseSchema = apiEnvelope(EsimViewSchema);

export const EsimViewQuerySchema = z.strictObject({
  locale: LocaleSchema.optional(),
});

/** Installation data of a not-yet-installed eSIM (the product itself: `no-store`, never logged). */
export const EsimInstallationViewSchema = z.strictObject({
  esimId: z.string().min(1),
  ...InstallationDataSchema.shape,
});
export type EsimInstallationView = z.infer<typeof EsimInstallationViewSchema>;
export const EsimInstallationViewResponseSchema = apiEnvelope(EsimInstallationViewSchema);

/** `POST /v1/partner/esims/{esimId}/action-requests`. */
export const CreateActionRequestSchema = z.strictObject({
  reasonCode: ActionReasonCodeSchema,
  reasonDetail: z.string().max(1000).optional(),
});
export type CreateActionRequest = z.infer<typeof CreateActionRequestSchema>;

/** A help request (cancellation, refund, reissue) as the partner's server follows it. */
export const PartnerActionRequestSchema = z.strictObject({
  id: z.string().min(1),
  esimId: z.string().min(1),
  type: ActionRequestTypeSchema,
  /** `requested` → `in_review` → `completed` or `rejected`. */
  status: ActionRequestStatusSchema,
  reason: z.strictObject({ code: ActionReasonCodeSchema, detail: z.string().nullable() }),
  resolution: z.strictObject({ code: z.string(), note: z.string().nullable() }).nullable(),
  /** For a reissue: the order of the new eSIM. */
  replacementOrderId: z.string().nullable(),
  /** For a completed reissue: the new eSIM (its traveller's manage links open it from then on). */
  replacementEsimId: z.string().nullable(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  completedAt: DateTimeSchema.nullable(),
});
export type PartnerActionRequest = z.infer<typeof PartnerActionRequestSchema>;
export const PartnerActionRequestResponseSchema = apiEnvelope(PartnerActionRequestSchema);

/**
 * `GET /v1/partner/action-requests?status=&esimId=&widgetId=&limit=&cursor=`: the help requests the partner made
 * through this BFF for its widgets, newest first, each as the BFF last read it (the single read asks the upstream afresh).
 */
export const ActionRequestListQuerySchema = z.strictObject({
  ...ListQuerySchema.shape,
  /** Only this widget's (one the partner secret opens); default: every widget it opens. */
  widgetId: WidgetIdSchema.optional(),
  status: ActionRequestStatusSchema.optional(),
  esimId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/)
    .optional(),
});
export type ActionRequestListQuery = z.input<typeof ActionRequestListQuerySchema>;
export const PartnerActionRequestListResponseSchema = listPageEnvelope(PartnerActionRequestSchema);

/** `POST /v1/partner/esims/{esimId}/delivery-links`: the contract's limits and defaults. */
export const CreatePartnerDeliveryLinkRequestSchema = z.strictObject({
  maxViews: z.int().min(1).max(5).default(1),
  expiresInMinutes: z.int().min(5).max(1440).default(60),
});
export type CreatePartnerDeliveryLinkRequest = z.input<typeof CreatePartnerDeliveryLinkRequestSchema>;

/** A delivery link created by the partner's server for an eSIM it sold. `url` is a secret: send it, never log it. */
export const PartnerDeliveryLinkSchema = z.strictObject({
  id: z.string().min(1),
  esimId: z.string().min(1),
  orderId: z.string().min(1),
  url: z.url(),
  maxViews: z.int().min(1).max(5),
  viewCount: z.int().min(0),
  expiresAt: DateTimeSchema,
  revokedAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
});
export type PartnerDeliveryLink = z.infer<typeof PartnerDeliveryLinkSchema>;
export const PartnerDeliveryLinkResponseSchema = apiEnvelope(PartnerDeliveryLinkSchema);

/** A revoked delivery link: it stops opening at once. */
export const RevokedDeliveryLinkSchema = z.strictObject({
  id: z.string().min(1),
  status: z.literal('revoked'),
  revokedAt: DateTimeSchema,
});
export type RevokedDeliveryLink = z.infer<typeof RevokedDeliveryLinkSchema>;
export const RevokedDeliveryLinkResponseSchema = apiEnvelope(RevokedDeliveryLinkSchema);
