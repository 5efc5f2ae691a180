/**
 * @module
 * After the sale, as the routes call it: manage links (from a ready checkout for its traveller, or from the
 * partner's server for an eSIM it sold), "my eSIM" behind a manage token (the replacement eSIM once a reissue
 * completed), the partner's view of an eSIM, its help requests (followed by the action-request watch) and
 * its delivery links. Top-ups go through the checkout service (quote → checkout → order of kind `top_up`).
 */
import { createHash } from 'node:crypto';
import type {
  CreateActionRequest,
  CreatePartnerDeliveryLinkRequest,
  EsimInstallationView,
  EsimView,
  Locale,
  ManageLink,
  PartnerActionRequest,
  PartnerDeliveryLink,
  RevokedDeliveryLink,
} from '@esim-embed/shared';
import { requireControl } from '../catalog/retail-brand';
import type { CheckoutService, SessionCaller } from '../checkout/checkout-service';
import { assertNotInstalled, readEsim } from '../checkout/esim-detail';
import type { EsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { ManageClaims } from '../security/manage-claims';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { ActionRequestWatch } from './action-request-watch';
import { createActionRequest, fetchActionRequest, findActionRequest } from './action-requests';
import { esimInstallation, esimView } from './esim-view';
import type { ManageTokens } from './manage-token';

export interface AfterSaleServiceOptions {
  checkouts: CheckoutService;
  manageTokens: ManageTokens;
  actionRequests: ActionRequestWatch;
  /** Which widget sold each eSIM: a help request is the caller's only if its eSIM is. */
  esimOwners: EsimOwners;
  logger: Logger;
}

/** The after-sale operations of the widget and partner routes. */
export interface AfterSaleService {
  /** The manage link of the eSIM of the caller's ready checkout (needs its client secret); the same every time. */
  manageLinkForCheckout(
    caller: SessionCaller,
    id: string,
    clientSecret: string | undefined,
  ): Promise<ManageLink>;
  /** The manage link of an eSIM of `widget`, for the partner's server (the same one the install step shows). */
  manageLinkForPartner(widget: WidgetRuntime, esimId: string): Promise<ManageLink>;
  /**
   * The claims of a manage token presented with the caller's session (same widget and environment); its eSIM
   * is the replacement of a completed reissue when there is one.
   */
  verifyManageToken(caller: Omit<SessionCaller, 'manage'>, token: string | undefined): Promise<ManageClaims>;
  myEsim(caller: SessionCaller, locale: Locale | undefined): Promise<EsimView>;
  myInstallation(caller: SessionCaller): Promise<EsimInstallationView>;
  partnerEsim(widget: WidgetRuntime, esimId: string): Promise<EsimView>;
  /** A help request for an eSIM of `widget` (one per partner idempotency key), followed from then on. */
  requestAction(
    widget: WidgetRuntime,
    esimId: string,
    body: CreateActionRequest,
    idempotencyKey: string,
  ): Promise<PartnerActionRequest>;
  /**
   * A help request of an eSIM one of `widgets` sold, as it stands now (read from the upstream; a change is
   * reported like the watch's). Any other — another partner's on a shared upstream key — is
   * `action_request_not_found`, found out before anything is recorded or reported.
   */
  readActionRequest(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<PartnerActionRequest>;
  /** A delivery link (hosted installation page) for an eSIM of `widget`, one per partner idempotency key. */
  createDeliveryLink(
    widget: WidgetRuntime,
    esimId: string,
    body: CreatePartnerDeliveryLinkRequest,
    idempotencyKey: string,
  ): Promise<PartnerDeliveryLink>;
  /** Revoke a delivery link of one of `widgets`' accounts: it stops opening at once. */
  revokeDeliveryLink(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<RevokedDeliveryLink>;
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 40);

/** The {@link AfterSaleService}. */
export function createAfterSaleService(options: AfterSaleServiceOptions): AfterSaleService {
  const { checkouts, manageTokens, actionRequests, esimOwners, logger } = options;
  /** The eSIM a manage token opens now: its own, or the replacement of a completed reissue. */
  const managedEsim = async (caller: SessionCaller) => {
    // A retail brand may turn the traveller's way back to an existing order off.
    requireControl(await caller.widget.catalog.whiteLabel(), 'existingOrderRecovery');
    return manageOf(caller).esim;
  };

  /** The manage link of `esimId` in `widget`; `grant` is the traveller's checkout, null for the partner. */
  async function mint(
    widget: WidgetRuntime,
    esimId: string,
    grant: { checkoutId: string; issuedAtMs: number } | null,
  ): Promise<ManageLink> {
    requireControl(await widget.catalog.whiteLabel(), 'existingOrderRecovery');
    // Reading the eSIM proves it is this account's and tells how long its plan can be used.
    const esim = await readEsim(widget, esimId);
    const serviceEnds = esim.activation.serviceExpiresAt ?? esim.activation.deadlineAt;
    const link = await manageTokens.mint({
      widgetId: widget.config.id,
      environment: widget.config.environment,
      esimId: esim.id,
      checkoutId: grant?.checkoutId ?? null,
      ...(grant === null ? {} : { grantIssuedAtMs: grant.issuedAtMs }),
      serviceEndsAtMs: serviceEnds === null ? null : Date.parse(serviceEnds),
    });
    logger.info('manage link given', { widgetId: widget.config.id, esimId: esim.id, manageLinkId: link.id });
    return link;
  }

  const manageOf = (caller: SessionCaller): ManageClaims => {
    if (caller.manage === undefined) {
      throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_missing' } });
    }
    return caller.manage;
  };

  return {
    async manageLinkForCheckout(caller, id, clientSecret) {
      const { esimId, checkoutCreatedAtMs } = await checkouts.readyEsimOf(caller, id, clientSecret);
      return await mint(caller.widget, esimId, { checkoutId: id, issuedAtMs: checkoutCreatedAtMs });
    },
    async manageLinkForPartner(widget, esimId) {
      return await mint(widget, esimId, null);
    },
    async verifyManageToken(caller, token) {
      if (token === undefined || token === '') {
        throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_missing' } });
      }
      const claims = await manageTokens.verify(token);
      if (claims.wid !== caller.widget.config.id || claims.env !== caller.widget.config.environment) {
        throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_widget' } });
      }
      // After a completed reissue the token opens the replacement: its view, installation and top-ups.
      return { ...claims, esim: await actionRequests.currentEsim(caller.widget, claims.esim) };
    },
    async myEsim(caller, locale) {
      const esimId = await managedEsim(caller);
      return await esimView(caller.widget, esimId, locale ?? caller.widget.config.defaultLocale, logger);
    },
    async myInstallation(caller) {
      return await esimInstallation(caller.widget, await managedEsim(caller));
    },
    async partnerEsim(widget, esimId) {
      return await esimView(widget, esimId, widget.config.defaultLocale, logger);
    },
    async requestAction(widget, esimId, body, idempotencyKey) {
      const request = await createActionRequest(widget, esimId, body, idempotencyKey);
      logger.info('help request made', {
        widgetId: widget.config.id,
        esimId,
        actionRequestId: request.id,
        type: request.type,
        status: request.status,
      });
      return await actionRequests.observe(widget, request);
    },
    async readActionRequest(widgets, id) {
      const notFound = () => new ApiError('action_request_not_found', { params: { actionRequestId: id } });
      const known = await actionRequests.known(id);
      if (known !== null) {
        // Recorded for a widget the caller's secret does not open: another partner's request.
        const widget = widgets.get(known.widgetId);
        if (widget === undefined) throw notFound();
        return await actionRequests.observe(widget, await fetchActionRequest(widget, id, known.esimId));
      }
      // Not made through this BFF's records (or forgotten): an upstream account shared by several partners
      // knows it, so it is the caller's only if the caller's widgets sold its eSIM — checked before the read
      // is observed, which records the request and reports its status to the seller's endpoint.
      const { request } = await findActionRequest(widgets.values(), id);
      const seller = await esimOwners.sellerAmong(widgets, request.esimId).catch((error: unknown) => {
        throw error instanceof ApiError && error.code === 'esim_not_found' ? notFound() : error;
      });
      return await actionRequests.observe(seller, request);
    },
    async createDeliveryLink(widget, esimId, body, idempotencyKey) {
      // Reading the eSIM proves it is this account's and names its order; an installed one gets no link.
      const esim = await readEsim(widget, esimId);
      assertNotInstalled(esim);
      const link = await widget.upstream.createDeliveryLink(
        esim.order.id,
        { maxViews: body.maxViews ?? 1, expiresInMinutes: body.expiresInMinutes ?? 60 },
        { idempotencyKey: `partner-link-${widget.config.id}-${digest(`${esimId}:${idempotencyKey}`)}` },
      );
      logger.info('delivery link created', { widgetId: widget.config.id, esimId, deliveryLinkId: link.id });
      return {
        id: link.id,
        esimId,
        orderId: link.orderId,
        url: link.url,
        maxViews: link.maxViews,
        viewCount: link.viewCount,
        expiresAt: link.expiresAt,
        revokedAt: link.revokedAt,
        createdAt: link.createdAt,
      };
    },
    async revokeDeliveryLink(widgets, id) {
      for (const widget of widgets.values()) {
        try {
          const revoked = await widget.upstream.revokeDeliveryLink(id);
          logger.info('delivery link revoked', { widgetId: widget.config.id, deliveryLinkId: id });
          return { id: revoked.id, status: 'revoked', revokedAt: revoked.revokedAt };
        } catch (error) {
          // Another account's link (or none): the next widget's account may hold it.
          if (error instanceof ApiError && error.code === 'delivery_link_invalid') continue;
          throw error;
        }
      }
      throw new ApiError('delivery_link_invalid', { params: { deliveryLinkId: id } });
    },
  };
}
