/**
 * @module
 * The BFF's partner API (`/v1/partner/*`) as the client calls it: the partner routes of the API's one description
 * (`PARTNER_API_ROUTES` of the private shared package, bundled into this one, and none of the other routes), with their
 * method, path, idempotency and schemas, and the types a call of each takes and answers. A partner route added to
 * the description is callable with `client.call(id, …)`, typed, with no edit here.
 */
import {
  type ApiRoute,
  PARTNER_API_ROUTES,
  type RouteBody,
  type RouteData,
  type RouteParams,
  type RouteQuery,
  type RouteSpec,
} from '@esim-embed/shared';

/** The partner routes among `Routes` (by default the API's): those a partner secret opens. */
export type PartnerRouteOf<Routes extends RouteSpec = ApiRoute> = Extract<Routes, { auth: 'partner' }>;

/** One partner route: what the client needs to call it and read its answer. */
export type PartnerRoute = PartnerRouteOf;

/** The id of a partner route (the BFF's name for it). */
export type PartnerRouteId<Routes extends RouteSpec = ApiRoute> = PartnerRouteOf<Routes>['id'];

/** The partner route of one id. */
type RouteOfId<Routes extends RouteSpec, Id> = Extract<PartnerRouteOf<Routes>, { id: Id }>;

/**
 * What a route answers in `data`; for a route that answers a file instead of JSON (the sales ledger's CSV), its
 * bytes as a stream.
 */
export type PartnerRouteData<Id extends PartnerRouteId<Routes>, Routes extends RouteSpec = ApiRoute> =
  RouteOfId<Routes, Id> extends { contentType: string }
    ? ReadableStream<Uint8Array>
    : RouteData<RouteOfId<Routes, Id>>;

/** What a call of a route takes: its path parameters, query and body where it has them, a create's key. */
export type PartnerCallInput<Id extends PartnerRouteId<Routes>, Routes extends RouteSpec = ApiRoute> = ([
  keyof RouteParams<RouteOfId<Routes, Id>>,
] extends [never]
  ? { params?: undefined }
  : { params: RouteParams<RouteOfId<Routes, Id>> }) &
  ([RouteQuery<RouteOfId<Routes, Id>>] extends [never]
    ? { query?: undefined }
    : { query?: RouteQuery<RouteOfId<Routes, Id>> }) &
  ([RouteBody<RouteOfId<Routes, Id>>] extends [never]
    ? { body?: undefined }
    : RouteOfId<Routes, Id> extends { bodyOptional: true }
      ? { body?: RouteBody<RouteOfId<Routes, Id>> }
      : { body: RouteBody<RouteOfId<Routes, Id>> }) &
  (RouteOfId<Routes, Id> extends { idempotent: true } ? { idempotencyKey?: string } : unknown);

/** The partner routes, by the BFF's route id. */
export const PARTNER_ROUTES = Object.fromEntries(PARTNER_API_ROUTES.map((route) => [route.id, route])) as {
  readonly [Id in PartnerRouteId]: RouteOfId<ApiRoute, Id>;
};

/** The routes that answer a page of a list (`{ data, nextCursor }`). */
export type PartnerListRouteId =
  | 'listPartnerCheckouts'
  | 'listPartnerEsims'
  | 'listPartnerActionRequests'
  | 'listPartnerWebhookDeliveries'
  | 'listPartnerSales';

/** One page of a list: its items, newest first, and the cursor of the next page (null on the last). */
export interface PartnerPage<T> {
  data: T[];
  nextCursor: string | null;
}

/** One item of a list route's page. */
export type PartnerListItem<Id extends PartnerListRouteId> =
  PartnerRouteData<Id> extends readonly (infer Item)[] ? Item : never;
