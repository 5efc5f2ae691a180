/**
 * @module
 * `@esim-embed/shared`: the upstream contract (`partner/`), the BFF's widget API (`api/`) and pure helpers
 * (`format/`: money and data sizes; `http/`: reading a request body).
 *
 * Both halves name a quote `Quote`. At the root the widget API's `QuoteSchema`, `Quote` and
 * `QuoteResponseSchema` keep their names; the upstream contract's are exported as `PartnerQuoteSchema`,
 * `PartnerQuote` and `PartnerQuoteResponseSchema`, and every upstream schema is also under the `partner`
 * namespace (`partner.QuoteSchema`).
 */
export * from './api/index';
export { type Quote, QuoteResponseSchema, QuoteSchema } from './api/index';
export * from './format/index';
export * from './http/index';
export * from './partner/index';
export * as partner from './partner/index';
export {
  type Quote as PartnerQuote,
  type QuoteResponse as PartnerQuoteResponse,
  QuoteResponseSchema as PartnerQuoteResponseSchema,
  QuoteSchema as PartnerQuoteSchema,
} from './partner/quote';
