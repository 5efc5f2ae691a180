/**
 * @module
 * `@esim-embed/shared`: the upstream contract (`upstream/`), the BFF's widget API (`api/`: its schemas, and every
 * route described once in `api/routes/`, each also under `apiRoutes.<id>`) and pure helpers
 * (`format/`: money and data sizes; `http/`: reading a request body).
 *
 * "Partner" means our partner API (`PartnerCheckout`, `/v1/partner/*`); the service we buy from is the
 * upstream (its contract is the Partner eSIM Commerce API, in `upstream/`). Both halves name a quote `Quote`: at
 * the root the widget API's `QuoteSchema`, `Quote` and `QuoteResponseSchema` keep their names; the upstream
 * contract's are exported as `UpstreamQuoteSchema`, `UpstreamQuote`, `UpstreamQuoteResponse` and
 * `UpstreamQuoteResponseSchema`, and every upstream schema is also under the `upstream` namespace
 * (`upstream.QuoteSchema`).
 */
export * from './api/index';
export { type Quote, QuoteResponseSchema, QuoteSchema } from './api/index';
export * as apiRoutes from './api/routes/index';
export {
  API_ROUTES,
  type ApiRoute,
  type ApiRouteId,
  type ApiRouteOf,
} from './api/routes/index';
export { PARTNER_API_ROUTES } from './api/routes/partner-api-routes';
export * from './design/design-tokens';
export * from './design/style-recipes';
export * from './design/theme-vars';
export * from './format/index';
export * from './http/index';
export * from './upstream/index';
export * as upstream from './upstream/index';
export {
  type Quote as UpstreamQuote,
  type QuoteResponse as UpstreamQuoteResponse,
  QuoteResponseSchema as UpstreamQuoteResponseSchema,
  QuoteSchema as UpstreamQuoteSchema,
} from './upstream/quote';
