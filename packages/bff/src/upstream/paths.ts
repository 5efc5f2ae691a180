/**
 * @module
 * The one place that lists the upstream's paths (docs/upstream-contract.md, "Paths"), relative to the
 * configured base URL. Where the upstream gives a link (`esim.resourceUrl`, `actionsUrl`), the client
 * follows the link instead of building a path from here.
 */

const segment = encodeURIComponent;

/** Upstream paths, each relative to `{base_url}`; ids are URI-encoded. */
export const upstreamPaths = {
  /** `GET` a page of products (contract). */
  products: () => '/catalog/products',
  /** `GET` a page of offers, all or of one product with `?productId=` (assumed). */
  offers: () => '/catalog/offers',
  /** `GET` one offer (assumed). */
  offer: (offerId: string) => `/catalog/offers/${segment(offerId)}`,
  /** `POST` a quote (contract). */
  quotes: () => '/quotes',
  /** `POST` an order, or `GET` orders with `?externalRef=` or `?createdSince=` (contract / assumed). */
  orders: () => '/orders',
  /** `GET` one order (contract). */
  order: (orderId: string) => `/orders/${segment(orderId)}`,
  /** `GET` an eSIM's detail, when no `resourceUrl` is at hand (link). */
  esim: (esimId: string) => `/esims/${segment(esimId)}`,
  /** `GET` an eSIM's post-sale actions, when no `actionsUrl` is at hand (link). */
  esimActions: (esimId: string) => `/esims/${segment(esimId)}/actions`,
  /** `GET` the offers that can top up one eSIM (assumed). */
  esimTopUpOffers: (esimId: string) => `/esims/${segment(esimId)}/top-up-offers`,
  /** `POST` a post-sale action request for an eSIM (assumed). */
  esimActionRequests: (esimId: string) => `/esims/${segment(esimId)}/action-requests`,
  /** `GET` one action request (assumed). */
  actionRequest: (requestId: string) => `/action-requests/${segment(requestId)}`,
  /** `POST` a delivery link for an order (assumed). */
  orderDeliveryLinks: (orderId: string) => `/orders/${segment(orderId)}/delivery-links`,
  /** `POST` to revoke a delivery link (assumed). */
  revokeDeliveryLink: (linkId: string) => `/delivery-links/${segment(linkId)}/revoke`,
  /** `GET` the credential's capabilities (assumed). */
  capabilities: () => '/capabilities',
  /** `GET` the credential's own account: brand, balance, limits (assumed). */
  account: () => '/account',
} as const;
