/**
 * @module
 * What a genuine request to each route of the BFF looks like, by route id: the real value of each of its path
 * parameters, a valid body and its query parameters. The fuzzer starts from these and breaks them. Keyed by the
 * description's route ids, so a route added to the description without an entry here fails the typecheck, and the fuzzer
 * refuses to start naming it ({@link inputsOf}).
 */
import type { RouteId, RouteSpec } from '../harness/bff-testing';
import type { FuzzWorld } from './fuzz-world';

/** A genuine request to one route, from the world's real resources. */
export interface RouteInput {
  /** The real value of each `{parameter}` of the route's path. */
  params?: (world: FuzzWorld) => Record<string, string>;
  /** A body the route accepts. */
  body?: (world: FuzzWorld) => Record<string, unknown>;
  /** Query parameters the route reads, with a genuine value. */
  query?: Record<string, string>;
  /**
   * Real ids of other resources a path parameter may take instead (default: every id of the world). A route
   * whose success ends a resource (a cancellation) leaves out the ones other routes need alive.
   */
  others?: (world: FuzzWorld) => string[];
}

/** The real ids of the world's resources, for path parameters that name another resource than their own. */
export function worldIds(world: FuzzWorld): string[] {
  return [
    world.waiting.id,
    world.waitingToCancel.id,
    world.ready.id,
    world.esim.esimId,
    world.helpEsim.esimId,
    world.spareEsim.esimId,
    world.actionRequestId,
    world.deliveryLinkId,
    world.webhookDeliveryId,
    world.esim.manageLinkId,
    'shop-pay',
    'other-pay',
    'shop-rub',
  ];
}

const checkoutOfPage = (world: FuzzWorld) => ({ id: world.ready.id });
const checkoutOfPartner = (world: FuzzWorld) => ({ id: world.waiting.id });
const esimOfPartner = (world: FuzzWorld) => ({ esimId: world.esim.esimId });
const publicCatalog = (world: FuzzWorld) => ({
  widgetId: 'shop',
  version: world.catalogVersion,
  locale: 'en',
  code: world.destinationCode,
});
const WIDGET_BUILD = { file: 'widget-chunk.js', major: '1', version: '1.0.0' };
const localeQuery = { locale: 'en' };

export const ROUTE_INPUTS = {
  startWidget: { params: () => ({ widgetId: 'shop' }) },
  createSession: { body: () => ({ widgetId: 'shop' }) },
  listDestinations: { query: localeQuery },
  listPlans: { params: (world) => ({ code: world.destinationCode }), query: localeQuery },
  currentCatalog: { params: () => ({ widgetId: 'shop' }) },
  publicDestinations: { params: publicCatalog },
  publicPlans: { params: publicCatalog },
  accountLogo: { params: (world) => ({ widgetId: 'shop', hash: world.logoHash }) },
  createQuote: { body: (world) => ({ offerId: world.offerId, locale: 'en' }) },
  createCheckout: {
    body: (world) => ({ quoteId: world.quoteId, locale: 'en', termsAccepted: true, email: 'a@b.example' }),
  },
  readCheckout: { params: checkoutOfPage },
  cancelCheckout: { params: checkoutOfPage },
  readInstallation: { params: checkoutOfPage },
  createDeliveryLink: { params: checkoutOfPage, body: () => ({ maxViews: 1, expiresInMinutes: 60 }) },
  createManageLink: { params: checkoutOfPage, body: () => ({}) },
  readMyEsim: { query: localeQuery },
  readMyInstallation: {},
  readPartnerAccount: { query: { widgetId: 'shop' } },
  listPartnerCheckouts: {
    query: { status: 'ready', createdFrom: '2026-01-01T00:00:00Z', email: 'ana@example.com', limit: '10' },
  },
  listPartnerEsims: { query: { limit: '10' } },
  readPartnerCheckout: { params: checkoutOfPartner },
  readPartnerInstallation: { params: (world) => ({ id: world.ready.id }) },
  startPartnerPayment: {
    params: checkoutOfPartner,
    body: () => ({}),
    others: (world) => worldIds(world).filter((id) => id !== world.waitingToCancel.id),
  },
  confirmPartnerCheckout: {
    params: checkoutOfPartner,
    body: () => ({ paymentReference: 'pay_1' }),
    others: (world) => worldIds(world).filter((id) => id !== world.waitingToCancel.id),
  },
  declinePartnerCheckoutPayment: {
    params: checkoutOfPartner,
    body: () => ({ attempt: 1 }),
    others: (world) => worldIds(world).filter((id) => id !== world.waitingToCancel.id),
  },
  cancelPartnerCheckout: { params: (world) => ({ id: world.waitingToCancel.id }), body: () => ({}) },
  createPartnerManageLink: { params: esimOfPartner, body: () => ({ widgetId: 'shop' }) },
  revokeManageLink: { params: (world) => ({ id: world.esim.manageLinkId }), body: () => ({}) },
  revokeAllManageLinks: { params: esimOfPartner, body: () => ({}) },
  readPartnerEsim: { params: esimOfPartner },
  createPartnerActionRequest: {
    params: (world) => ({ esimId: world.spareEsim.esimId }),
    others: (world) => [world.helpEsim.esimId, world.waiting.id, 'esim_unknown'],
    body: () => ({ reasonCode: 'unused_profile', reasonDetail: 'trip cancelled' }),
  },
  readPartnerActionRequest: { params: (world) => ({ id: world.actionRequestId }) },
  createPartnerDeliveryLink: { params: esimOfPartner, body: () => ({ maxViews: 1, expiresInMinutes: 60 }) },
  revokePartnerDeliveryLink: { params: (world) => ({ id: world.deliveryLinkId }), body: () => ({}) },
  listPartnerActionRequests: { query: { status: 'requested', limit: '10' } },
  listPartnerWebhookDeliveries: {
    query: { status: 'pending', type: 'checkout.awaiting_payment', limit: '10' },
  },
  readPartnerWebhookDelivery: { params: (world) => ({ id: world.webhookDeliveryId }) },
  listPartnerSales: {
    query: { from: '2026-01-01', to: '2100-01-01T00:00:00Z', paymentReference: 'pay_1', limit: '10' },
  },
  readPartnerSale: { params: (world) => ({ checkoutId: world.ready.id }) },
  exportPartnerSales: { query: { from: '2026-01-01', to: '2100-01-01', widgetId: 'shop' } },
  resendPartnerWebhookDelivery: { params: (world) => ({ id: world.webhookDeliveryId }), body: () => ({}) },
  // An address that bought nothing: the erasure leaves every resource of the world as it is.
  createPartnerPrivacyErasure: { body: () => ({ email: 'fuzz.nobody@example.org' }) },
  readPartnerPrivacyErasure: { params: (world) => ({ id: world.privacyErasureId }) },
  exportPartnerPrivacyData: { body: (world) => ({ checkoutId: world.ready.id }) },
  health: {},
  ready: {},
  openApi: {},
  docsPage: {},
  widgetBundle: {},
  widgetChunk: { params: () => WIDGET_BUILD },
  widgetOfMajor: { params: () => WIDGET_BUILD },
  widgetChunkOfMajor: { params: () => WIDGET_BUILD },
  pinnedWidget: { params: () => WIDGET_BUILD },
  pinnedWidgetChunk: { params: () => WIDGET_BUILD },
  pinnedWidgetIntegrity: { params: () => WIDGET_BUILD },
} satisfies Record<RouteId, RouteInput>;

/** The names of a route's `{parameters}`, in path order. */
export function pathParameters(route: Pick<RouteSpec, 'path'>): string[] {
  return [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

/**
 * The genuine request of every route in `routes`; throws naming each route of the table that has no entry,
 * or whose entry leaves a path parameter without a real value.
 */
export function inputsOf(routes: readonly RouteSpec[]): Map<RouteSpec, RouteInput> {
  const inputs = new Map<RouteSpec, RouteInput>();
  const missing: string[] = [];
  for (const route of routes) {
    const input = (ROUTE_INPUTS as Record<string, RouteInput | undefined>)[route.id];
    if (input === undefined) missing.push(`${route.id} (${route.method} ${route.path}) has no fuzz inputs`);
    else if (pathParameters(route).length > 0 && input.params === undefined)
      missing.push(`${route.id} (${route.method} ${route.path}) has no real values for its path parameters`);
    else inputs.set(route, input);
  }
  if (missing.length > 0) throw new Error(`routes the fuzzer does not know:\n${missing.join('\n')}`);
  return inputs;
}
