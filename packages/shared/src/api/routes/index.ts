/**
 * @module
 * The BFF's API described once: every route, one module each (`./<route-id>.ts`), exported here by its id.
 * The BFF mounts from it, the OpenAPI document is built from it, the partner SDK and the widget's client call
 * through it and the widget's fake BFF dispatches on it. One module a route, so that a client that reads only a
 * route's `method` and `path` (`apiRoutes.readCheckout.path`) bundles those two strings and none of its schemas.
 * A route added here (a module and its line in `API_ROUTES`, or for a partner route in `PARTNER_API_ROUTES`) must
 * have a handler in the BFF, which refuses to start without one.
 */
import type { RouteSpec } from '../route-spec';
import * as accountLogo from './account-logo';
import * as cancelCheckout from './cancel-checkout';
import * as cancelPartnerCheckout from './cancel-partner-checkout';
import * as confirmPartnerCheckout from './confirm-partner-checkout';
import * as createCheckout from './create-checkout';
import * as createDeliveryLink from './create-delivery-link';
import * as createManageLink from './create-manage-link';
import * as createPartnerActionRequest from './create-partner-action-request';
import * as createPartnerDeliveryLink from './create-partner-delivery-link';
import * as createPartnerManageLink from './create-partner-manage-link';
import * as createPartnerPrivacyErasure from './create-partner-privacy-erasure';
import * as createQuote from './create-quote';
import * as createSession from './create-session';
import * as currentCatalog from './current-catalog';
import * as declinePartnerCheckoutPayment from './decline-partner-checkout-payment';
import * as docsPage from './docs-page';
import * as exportPartnerPrivacyData from './export-partner-privacy-data';
import * as exportPartnerSales from './export-partner-sales';
import * as health from './health';
import * as listDestinations from './list-destinations';
import * as listPartnerActionRequests from './list-partner-action-requests';
import * as listPartnerCheckouts from './list-partner-checkouts';
import * as listPartnerEsims from './list-partner-esims';
import * as listPartnerSales from './list-partner-sales';
import * as listPartnerWebhookDeliveries from './list-partner-webhook-deliveries';
import * as listPlans from './list-plans';
import * as openApi from './open-api';
import { PARTNER_API_ROUTES } from './partner-api-routes';
import * as pinnedWidget from './pinned-widget';
import * as pinnedWidgetChunk from './pinned-widget-chunk';
import * as pinnedWidgetIntegrity from './pinned-widget-integrity';
import * as publicDestinations from './public-destinations';
import * as publicPlans from './public-plans';
import * as readCheckout from './read-checkout';
import * as readInstallation from './read-installation';
import * as readMyEsim from './read-my-esim';
import * as readMyInstallation from './read-my-installation';
import * as readPartnerAccount from './read-partner-account';
import * as readPartnerActionRequest from './read-partner-action-request';
import * as readPartnerCheckout from './read-partner-checkout';
import * as readPartnerEsim from './read-partner-esim';
import * as readPartnerInstallation from './read-partner-installation';
import * as readPartnerPrivacyErasure from './read-partner-privacy-erasure';
import * as readPartnerSale from './read-partner-sale';
import * as readPartnerWebhookDelivery from './read-partner-webhook-delivery';
import * as ready from './ready';
import * as resendPartnerWebhookDelivery from './resend-partner-webhook-delivery';
import * as revokeAllManageLinks from './revoke-all-manage-links';
import * as revokeManageLink from './revoke-manage-link';
import * as revokePartnerDeliveryLink from './revoke-partner-delivery-link';
import * as startPartnerPayment from './start-partner-payment';
import * as startWidget from './start-widget';
import * as widgetBundle from './widget-bundle';
import * as widgetChunk from './widget-chunk';
import * as widgetChunkOfMajor from './widget-chunk-of-major';
import * as widgetOfMajor from './widget-of-major';

export {
  accountLogo,
  cancelCheckout,
  cancelPartnerCheckout,
  confirmPartnerCheckout,
  createCheckout,
  createDeliveryLink,
  createManageLink,
  createPartnerActionRequest,
  createPartnerDeliveryLink,
  createPartnerManageLink,
  createPartnerPrivacyErasure,
  createQuote,
  createSession,
  currentCatalog,
  declinePartnerCheckoutPayment,
  docsPage,
  exportPartnerPrivacyData,
  exportPartnerSales,
  health,
  listDestinations,
  listPartnerActionRequests,
  listPartnerCheckouts,
  listPartnerEsims,
  listPartnerSales,
  listPartnerWebhookDeliveries,
  listPlans,
  openApi,
  pinnedWidget,
  pinnedWidgetChunk,
  pinnedWidgetIntegrity,
  publicDestinations,
  publicPlans,
  readCheckout,
  readInstallation,
  readMyEsim,
  readMyInstallation,
  readPartnerAccount,
  readPartnerActionRequest,
  readPartnerCheckout,
  readPartnerEsim,
  readPartnerInstallation,
  readPartnerPrivacyErasure,
  readPartnerSale,
  readPartnerWebhookDelivery,
  ready,
  resendPartnerWebhookDelivery,
  revokeAllManageLinks,
  revokeManageLink,
  revokePartnerDeliveryLink,
  startPartnerPayment,
  startWidget,
  widgetBundle,
  widgetChunk,
  widgetChunkOfMajor,
  widgetOfMajor,
};

/** Every route, in the order the BFF mounts them. */
export const API_ROUTES = [
  startWidget,
  createSession,
  listDestinations,
  listPlans,
  currentCatalog,
  publicDestinations,
  publicPlans,
  accountLogo,
  createQuote,
  createCheckout,
  readCheckout,
  cancelCheckout,
  readInstallation,
  createDeliveryLink,
  createManageLink,
  readMyEsim,
  readMyInstallation,
  ...PARTNER_API_ROUTES,
  health,
  ready,
  openApi,
  docsPage,
  widgetBundle,
  widgetChunk,
  widgetOfMajor,
  widgetChunkOfMajor,
  pinnedWidget,
  pinnedWidgetChunk,
  pinnedWidgetIntegrity,
] as const satisfies readonly RouteSpec[];

/** One route of the API, as described. */
export type ApiRoute = (typeof API_ROUTES)[number];

/** The id of one of the API's routes. */
export type ApiRouteId = ApiRoute['id'];

/** The route of one id. */
export type ApiRouteOf<Id extends ApiRouteId> = Extract<ApiRoute, { id: Id }>;
