/**
 * @module
 * The partner API's routes (`/v1/partner/*`, behind a widget's partner secret), in the order the BFF mounts them:
 * the part of the API's description that the partner SDK calls and bundles. A partner route is added here (and
 * so to `API_ROUTES`).
 */
import type { RouteSpec } from '../route-spec';
import * as cancelPartnerCheckout from './cancel-partner-checkout';
import * as confirmPartnerCheckout from './confirm-partner-checkout';
import * as createPartnerActionRequest from './create-partner-action-request';
import * as createPartnerDeliveryLink from './create-partner-delivery-link';
import * as createPartnerManageLink from './create-partner-manage-link';
import * as createPartnerPrivacyErasure from './create-partner-privacy-erasure';
import * as declinePartnerCheckoutPayment from './decline-partner-checkout-payment';
import * as exportPartnerPrivacyData from './export-partner-privacy-data';
import * as exportPartnerSales from './export-partner-sales';
import * as listPartnerActionRequests from './list-partner-action-requests';
import * as listPartnerCheckouts from './list-partner-checkouts';
import * as listPartnerEsims from './list-partner-esims';
import * as listPartnerSales from './list-partner-sales';
import * as listPartnerWebhookDeliveries from './list-partner-webhook-deliveries';
import * as readPartnerAccount from './read-partner-account';
import * as readPartnerActionRequest from './read-partner-action-request';
import * as readPartnerCheckout from './read-partner-checkout';
import * as readPartnerEsim from './read-partner-esim';
import * as readPartnerInstallation from './read-partner-installation';
import * as readPartnerPrivacyErasure from './read-partner-privacy-erasure';
import * as readPartnerSale from './read-partner-sale';
import * as readPartnerWebhookDelivery from './read-partner-webhook-delivery';
import * as resendPartnerWebhookDelivery from './resend-partner-webhook-delivery';
import * as revokeAllManageLinks from './revoke-all-manage-links';
import * as revokeManageLink from './revoke-manage-link';
import * as revokePartnerDeliveryLink from './revoke-partner-delivery-link';
import * as startPartnerPayment from './start-partner-payment';

/** The partner routes, in mount order. */
export const PARTNER_API_ROUTES = [
  readPartnerAccount,
  listPartnerCheckouts,
  readPartnerCheckout,
  readPartnerInstallation,
  startPartnerPayment,
  confirmPartnerCheckout,
  declinePartnerCheckoutPayment,
  cancelPartnerCheckout,
  createPartnerManageLink,
  revokeManageLink,
  revokeAllManageLinks,
  listPartnerEsims,
  readPartnerEsim,
  createPartnerActionRequest,
  readPartnerActionRequest,
  createPartnerDeliveryLink,
  revokePartnerDeliveryLink,
  listPartnerActionRequests,
  listPartnerWebhookDeliveries,
  readPartnerWebhookDelivery,
  resendPartnerWebhookDelivery,
  listPartnerSales,
  exportPartnerSales,
  readPartnerSale,
  createPartnerPrivacyErasure,
  readPartnerPrivacyErasure,
  exportPartnerPrivacyData,
] as const satisfies readonly (RouteSpec & { auth: 'partner' })[];
