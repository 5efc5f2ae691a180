/**
 * The client's types come from the API's description: each call's path parameters, body and answer are its
 * route's, and a route added to the description is typed for the client with no edit here.
 */
import type { ApiRoute, Checkout, CheckoutResponseSchema, Quote } from '@esim-embed/shared';
import { describe, expectTypeOf, it } from 'vitest';
import type { ApiClient, ClientAnswer, ClientRequest, ClientRoute, ClientRouteAt } from './api-client';

describe('the API client follows the description', () => {
  it('answers each call with its route’s schema', () => {
    expectTypeOf<ReturnType<ApiClient['checkout']>>().toEqualTypeOf<Promise<Checkout>>();
    expectTypeOf<ReturnType<ApiClient['createQuote']>>().toEqualTypeOf<Promise<Quote>>();
    expectTypeOf<ClientAnswer<'GET', '/v1/checkouts/{id}'>['data']>().toEqualTypeOf<Checkout>();
  });

  it('asks for the path parameters, body and credentials its route has', () => {
    expectTypeOf<ClientRequest<ClientRouteAt<'GET', '/v1/checkouts/{id}'>>['params']>().toEqualTypeOf<{
      id: string;
    }>();
    expectTypeOf<ClientRequest<ClientRouteAt<'POST', '/v1/quotes'>>['body']>().toHaveProperty('offerId');
    // The credentials of its auth: a checkout's secret, an eSIM's manage token.
    expectTypeOf<
      ClientRequest<ClientRouteAt<'GET', '/v1/checkouts/{id}'>>['secret']
    >().toEqualTypeOf<string>();
    expectTypeOf<ClientRequest<ClientRouteAt<'GET', '/v1/my-esim'>>['manageToken']>().toEqualTypeOf<string>();
    // A partner route or a path nobody described is no route of the client.
    expectTypeOf<ClientRouteAt<'GET', '/v1/partner/checkouts/{id}'>>().toBeNever();
    expectTypeOf<ClientRouteAt<'GET', '/v1/checkout/{id}'>>().toBeNever();
  });

  it('types a route added to the description with no other edit', () => {
    /** A route as a new module under the shared `api/routes/` would describe it. */
    interface AddedRoute {
      id: 'readCheckoutReceipt';
      method: 'GET';
      path: '/v1/checkouts/{id}/receipt/{format}';
      summary: string;
      auth: 'session+secret';
      status: 200;
      response: typeof CheckoutResponseSchema;
    }
    type Described = ApiRoute | AddedRoute;
    expectTypeOf<AddedRoute>().toExtend<ClientRoute<Described>>();
    expectTypeOf<
      ClientRequest<ClientRouteAt<'GET', '/v1/checkouts/{id}/receipt/{format}', Described>>['params']
    >().toEqualTypeOf<{ id: string; format: string }>();
    expectTypeOf<
      ClientAnswer<'GET', '/v1/checkouts/{id}/receipt/{format}', Described>['data']
    >().toEqualTypeOf<Checkout>();
    expectTypeOf<ClientRouteAt<'GET', '/v1/checkouts/{id}/receipt/{format}'>>().toBeNever();
  });
});
