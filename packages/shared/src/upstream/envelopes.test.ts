/** Every single-resource and page envelope the contract lists, around its fixture. */
import { expect, it } from 'vitest';
import type { z } from 'zod';
import { fixture, issuesOf } from '../../testing/test-kit';
import * as partner from './index';

const meta = { requestId: 'req_01JD8Z4M7Q2V5N3K8T6W1X9Y0A', apiVersion: '2.0.0' };
const pageMeta = { ...meta, nextCursor: null, hasMore: false };
const catalogMeta = fixture('product-page').meta as Record<string, unknown>;

/** `[name, envelope schema, fixture of its resource, kind]`. */
const envelopes: [string, z.ZodType, string, 'single' | 'page' | 'catalog'][] = [
  ['CapabilitiesResponseSchema', partner.CapabilitiesResponseSchema, 'capabilities', 'single'],
  ['OfferResponseSchema', partner.OfferResponseSchema, 'offer', 'single'],
  ['OfferPageSchema', partner.OfferPageSchema, 'offer', 'catalog'],
  ['ProductPageSchema', partner.ProductPageSchema, 'product', 'catalog'],
  ['QuoteResponseSchema', partner.QuoteResponseSchema, 'quote', 'single'],
  ['OrderResponseSchema', partner.OrderResponseSchema, 'order', 'single'],
  ['OrderPageSchema', partner.OrderPageSchema, 'order', 'page'],
  ['RecipientResponseSchema', partner.RecipientResponseSchema, 'recipient', 'single'],
  ['RecipientPageSchema', partner.RecipientPageSchema, 'recipient', 'page'],
  ['DeliveryLinkResponseSchema', partner.DeliveryLinkResponseSchema, 'delivery-link', 'single'],
  [
    'DeliveryLinkRevocationResponseSchema',
    partner.DeliveryLinkRevocationResponseSchema,
    'delivery-link-revocation',
    'single',
  ],
  ['EsimPageSchema', partner.EsimPageSchema, 'esim-list-item', 'page'],
  ['EsimDetailResponseSchema', partner.EsimDetailResponseSchema, 'esim-detail', 'single'],
  ['EsimActionsResponseSchema', partner.EsimActionsResponseSchema, 'esim-actions', 'single'],
  ['ActionRequestResponseSchema', partner.ActionRequestResponseSchema, 'action-request', 'single'],
  ['ActionRequestPageSchema', partner.ActionRequestPageSchema, 'action-request', 'page'],
  ['AccountResponseSchema', partner.AccountResponseSchema, 'account', 'single'],
  ['AccountPageSchema', partner.AccountPageSchema, 'account', 'page'],
  ['AccountBalanceResponseSchema', partner.AccountBalanceResponseSchema, 'account-balance', 'single'],
  ['BrandResponseSchema', partner.BrandResponseSchema, 'brand', 'single'],
  ['AccountSummaryResponseSchema', partner.AccountSummaryResponseSchema, 'account-summary', 'single'],
  ['AccountMemberResponseSchema', partner.AccountMemberResponseSchema, 'account-member', 'single'],
  ['AccountMemberPageSchema', partner.AccountMemberPageSchema, 'account-member', 'page'],
  ['PriceBookResponseSchema', partner.PriceBookResponseSchema, 'price-book', 'single'],
  ['PriceBookPageSchema', partner.PriceBookPageSchema, 'price-book', 'page'],
  ['AllocationResponseSchema', partner.AllocationResponseSchema, 'allocation-result', 'single'],
  ['ApiKeyCreateResponseSchema', partner.ApiKeyCreateResponseSchema, 'api-key-create-result', 'single'],
  ['ApiKeyPageSchema', partner.ApiKeyPageSchema, 'api-key', 'page'],
  ['StorefrontDomainResponseSchema', partner.StorefrontDomainResponseSchema, 'storefront-domain', 'single'],
];

it.each(envelopes)('%s around its resource fixture', (_name, schema, resource, kind) => {
  const item = fixture(resource);
  const body =
    kind === 'single'
      ? { data: item, meta }
      : { data: [item, item], meta: kind === 'page' ? pageMeta : catalogMeta };
  expect(issuesOf(schema, body)).toEqual([]);
  expect(issuesOf(schema, { ...body, meta: { ...body.meta, apiVersion: '1.0.0' } })).toEqual([
    { path: 'meta.apiVersion', code: 'invalid_value' },
  ]);
  expect(issuesOf(schema, { ...body, extra: true })).toEqual([{ path: '', code: 'unrecognized_keys' }]);
  if (kind !== 'single') {
    expect(issuesOf(schema, { data: item, meta: body.meta })).toEqual([
      { path: 'data', code: 'invalid_type' },
    ]);
  }
});
