/** The inferred types of the upstream schemas: nullable-and-required, optional, literals and defaults. */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  Account,
  AccountMemberPatchRequest,
  Capabilities,
  CreateOrderRequest,
  DeliveryLinkCreateRequest,
  DeliveryLinkCreateRequestSchema,
  ErrorCode,
  ErrorEnvelope,
  EsimDetail,
  Money,
  Order,
  Quote,
  RecipientPatchRequest,
  TopUpOfferPage,
} from './index';

describe('inferred upstream types', () => {
  it('Order: esim is a link or null, targetEsimId is string | null, both required', () => {
    expectTypeOf<Order['esim']>().toEqualTypeOf<{ id: string; resourceUrl: string } | null>();
    expectTypeOf<Order['targetEsimId']>().toEqualTypeOf<string | null>();
    expectTypeOf<Order>().toHaveProperty('esim');
    expectTypeOf<Order['recipient']['locale']>().toEqualTypeOf<'ru' | 'en' | 'es' | 'de' | 'fr' | null>();
    expectTypeOf<Order['billing']['capturedAmount']>().toEqualTypeOf<Money | null>();
  });

  it('money is integer minor units in RUB or USD', () => {
    expectTypeOf<Money>().toEqualTypeOf<{ amountMinor: number; currency: 'RUB' | 'USD' }>();
  });

  it('Quote records kind and versions', () => {
    expectTypeOf<Quote['kind']>().toEqualTypeOf<'issue' | 'top_up'>();
    expectTypeOf<Quote['catalogVersion']>().toEqualTypeOf<number>();
  });

  it('CreateOrderRequest: optional delivery mode and recipient', () => {
    expectTypeOf<CreateOrderRequest['deliveryMode']>().toEqualTypeOf<'partner' | 'platform' | undefined>();
    expectTypeOf<NonNullable<CreateOrderRequest['recipient']>['email']>().toEqualTypeOf<string | undefined>();
  });

  it('DeliveryLinkCreateRequest: defaults make the output required and the input optional', () => {
    expectTypeOf<DeliveryLinkCreateRequest>().toEqualTypeOf<{ maxViews: number; expiresInMinutes: number }>();
    expectTypeOf<z.input<typeof DeliveryLinkCreateRequestSchema>>().toEqualTypeOf<{
      maxViews?: number | undefined;
      expiresInMinutes?: number | undefined;
    }>();
  });

  it('patches: every property optional, nullable where the contract clears with null', () => {
    expectTypeOf<RecipientPatchRequest['name']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<RecipientPatchRequest['archived']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<AccountMemberPatchRequest['status']>().toEqualTypeOf<'revoked' | undefined>();
  });

  it('constants are literal types', () => {
    expectTypeOf<Capabilities['settlement']['fundingMode']>().toEqualTypeOf<'prepaid'>();
    expectTypeOf<NonNullable<Capabilities['tenantAttestation']>['schemaVersion']>().toEqualTypeOf<1>();
    expectTypeOf<ErrorEnvelope['meta']['apiVersion']>().toEqualTypeOf<'2.0.0'>();
    expectTypeOf<TopUpOfferPage['meta']['apiVersion']>().toEqualTypeOf<'2.0.0'>();
    expectTypeOf<
      Account['retailBrands'][number]['readiness']['tracks']['web']['blockers'][number]['sensitive']
    >().toEqualTypeOf<false>();
  });

  it('the error code is a union of the contract codes, not string', () => {
    expectTypeOf<'quote_expired'>().toExtend<ErrorCode>();
    expectTypeOf<string>().not.toExtend<ErrorCode>();
  });

  it('eSIM detail extends the list item with installation links', () => {
    expectTypeOf<EsimDetail['installation']['ios']>().toEqualTypeOf<string>();
    expectTypeOf<EsimDetail['usage']['totalMb']>().toEqualTypeOf<number | null>();
  });
});
