/**
 * @module
 * `GET /v1/partner/sales/{checkoutId}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerSaleResponseSchema } from '../sales-ledger';

export const id = 'readPartnerSale';
export const method = 'GET';
export const path = '/v1/partner/sales/{checkoutId}';
export const summary =
  'One sale of the partner’s ledger, by the id of the checkout that made it (also after that checkout is no longer kept).';
export const auth = 'partner';
export const status = 200;
export const response = PartnerSaleResponseSchema;
export const errors = ['checkout_not_found'] as const;
