/**
 * @module
 * After the sale, as the routes call it: manage links (from a ready checkout for its traveller, or from the
 * partner's server for an eSIM it sold), "my eSIM" behind a manage token, and the partner's view of an eSIM.
 * Top-ups go through the checkout service (quote → checkout → order of kind `top_up`).
 */
import type { EsimInstallationView, EsimView, Locale, ManageLink } from '@esim-embed/shared';
import type { CheckoutService, SessionCaller } from '../checkout/checkout-service';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { esimInstallation, esimView, readEsim } from './esim-view';
import type { ManageClaims, ManageTokens } from './manage-token';

export interface AfterSaleServiceOptions {
  checkouts: CheckoutService;
  manageTokens: ManageTokens;
  logger: Logger;
}

/** The after-sale operations of the widget and partner routes. */
export interface AfterSaleService {
  /** A manage link for the eSIM of the caller's ready checkout (needs its client secret). */
  manageLinkForCheckout(
    caller: SessionCaller,
    id: string,
    clientSecret: string | undefined,
  ): Promise<ManageLink>;
  /** A manage link minted by the partner's server for an eSIM of `widget`. */
  manageLinkForPartner(widget: WidgetRuntime, esimId: string): Promise<ManageLink>;
  /** The claims of a manage token presented with the caller's session (same widget and environment). */
  verifyManageToken(caller: Omit<SessionCaller, 'manage'>, token: string | undefined): Promise<ManageClaims>;
  myEsim(caller: SessionCaller, locale: Locale | undefined): Promise<EsimView>;
  myInstallation(caller: SessionCaller): Promise<EsimInstallationView>;
  partnerEsim(widget: WidgetRuntime, esimId: string): Promise<EsimView>;
}

/** The {@link AfterSaleService}. */
export function createAfterSaleService(options: AfterSaleServiceOptions): AfterSaleService {
  const { checkouts, manageTokens, logger } = options;

  async function mint(widget: WidgetRuntime, esimId: string): Promise<ManageLink> {
    // Reading the eSIM proves it is this account's and tells how long its plan can be used.
    const esim = await readEsim(widget, esimId);
    const serviceEnds = esim.activation.serviceExpiresAt ?? esim.activation.deadlineAt;
    const link = manageTokens.mint({
      widgetId: widget.config.id,
      environment: widget.config.environment,
      esimId: esim.id,
      serviceEndsAtMs: serviceEnds === null ? null : Date.parse(serviceEnds),
    });
    logger.info('manage link minted', { widgetId: widget.config.id, esimId: esim.id, manageLinkId: link.id });
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
      const { esimId } = await checkouts.readyEsimOf(caller, id, clientSecret);
      return await mint(caller.widget, esimId);
    },
    manageLinkForPartner: mint,
    async verifyManageToken(caller, token) {
      if (token === undefined || token === '') {
        throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_missing' } });
      }
      const claims = await manageTokens.verify(token);
      if (claims.wid !== caller.widget.config.id || claims.env !== caller.widget.config.environment) {
        throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_widget' } });
      }
      return claims;
    },
    async myEsim(caller, locale) {
      const claims = manageOf(caller);
      return await esimView(caller.widget, claims.esim, locale ?? caller.widget.config.defaultLocale, logger);
    },
    async myInstallation(caller) {
      return await esimInstallation(caller.widget, manageOf(caller).esim);
    },
    async partnerEsim(widget, esimId) {
      return await esimView(widget, esimId, widget.config.defaultLocale, logger);
    },
  };
}
