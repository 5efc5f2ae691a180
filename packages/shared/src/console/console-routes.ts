/**
 * @module
 * Every route of the console API, described once: its method, path (under `/console/api`), the least role it
 * needs (`signedOut` for the sign-in itself, which needs no session), its query, body and answer. The BFF mounts
 * them from this table (a route without a handler stops the start) and the console page calls them through it.
 * Writes (every method but GET) need the session's `X-CSRF-Token` as well.
 */
import { z } from 'zod';
import {
  CreateActionRequestSchema,
  CreatePartnerDeliveryLinkRequestSchema,
  ManageLinkSchema,
  PartnerActionRequestSchema,
  PartnerDeliveryLinkSchema,
} from '../api/after-sale';
import { PartnerCheckoutSchema } from '../api/checkout';
import { apiEnvelope } from '../api/common';
import { listPageEnvelope } from '../api/list-page';
import { PrivacyErasureSchema } from '../api/privacy-erasure';
import { PartnerSaleExportQuerySchema } from '../api/sales-ledger';
import { PartnerWebhookDeliverySchema } from '../api/webhook-deliveries';
import {
  ConsoleFunnelChartSchema,
  ConsoleMoneySchema,
  ConsolePeriodQuerySchema,
  ConsoleSalesChartSchema,
  ConsoleWebhooksHealthSchema,
  ResendFailedDeliveriesRequestSchema,
  ResendFailedDeliveriesResultSchema,
} from './console-operations';
import type { ConsoleRole } from './console-roles';
import { ConsoleSalePageSchema, ConsoleSalesQuerySchema } from './console-sales';
import { ConsoleSessionSchema, ConsoleSignInRequestSchema } from './console-session';
import {
  ConsoleAuditEntrySchema,
  ConsoleAuditQuerySchema,
  ConsoleUserSchema,
  CreateConsoleUserRequestSchema,
  CreatedConsoleUserSchema,
  UpdateConsoleUserRequestSchema,
} from './console-users';

/** Where the console's API lives; the page itself is served at `/console/`. */
export const CONSOLE_API_PREFIX = '/console/api';

/** A method of the console API. */
export type ConsoleMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One route of the console API: everything but its handler, which the BFF registers by `id`. */
export interface ConsoleRouteSpec<Id extends string = string> {
  readonly id: Id;
  readonly method: ConsoleMethod;
  /** Under {@link CONSOLE_API_PREFIX}, OpenAPI-style parameters (`/sales/{checkoutId}`). */
  readonly path: string;
  /** The least role that may call it; `signedOut`: no session needed (signing in). */
  readonly role: ConsoleRole | 'signedOut';
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly status: 200 | 201 | 202;
  /** `{ data, meta }` (or a list page); absent for a non-JSON answer (`contentType`). */
  readonly response?: z.ZodType;
  readonly contentType?: string;
}

const route = <const Id extends string>(spec: ConsoleRouteSpec<Id>) => spec;
const noBody = z.strictObject({});

/** The routes, in the order the BFF mounts them. */
export const CONSOLE_ROUTES = [
  route({
    id: 'signIn',
    method: 'POST',
    path: '/session',
    role: 'signedOut',
    body: ConsoleSignInRequestSchema,
    status: 200,
    response: apiEnvelope(ConsoleSessionSchema),
  }),
  route({
    id: 'readSession',
    method: 'GET',
    path: '/session',
    role: 'viewer',
    status: 200,
    response: apiEnvelope(ConsoleSessionSchema),
  }),
  route({
    id: 'signOut',
    method: 'DELETE',
    path: '/session',
    role: 'viewer',
    status: 200,
    response: apiEnvelope(z.strictObject({ signedOut: z.literal(true) })),
  }),
  route({
    id: 'searchSales',
    method: 'GET',
    path: '/sales',
    role: 'viewer',
    query: ConsoleSalesQuerySchema,
    status: 200,
    response: listPageEnvelope(PartnerCheckoutSchema),
  }),
  route({
    id: 'exportSales',
    method: 'GET',
    path: '/sales.csv',
    role: 'viewer',
    query: PartnerSaleExportQuerySchema,
    status: 200,
    contentType: 'text/csv; charset=utf-8',
  }),
  route({
    id: 'readSale',
    method: 'GET',
    path: '/sales/{checkoutId}',
    role: 'viewer',
    status: 200,
    response: apiEnvelope(ConsoleSalePageSchema),
  }),
  route({
    id: 'readWebhooksHealth',
    method: 'GET',
    path: '/webhooks',
    role: 'viewer',
    status: 200,
    response: apiEnvelope(ConsoleWebhooksHealthSchema),
  }),
  route({
    id: 'readMoney',
    method: 'GET',
    path: '/money',
    role: 'viewer',
    status: 200,
    response: apiEnvelope(ConsoleMoneySchema),
  }),
  route({
    id: 'readSalesChart',
    method: 'GET',
    path: '/charts/sales',
    role: 'viewer',
    query: ConsolePeriodQuerySchema,
    status: 200,
    response: apiEnvelope(ConsoleSalesChartSchema),
  }),
  route({
    id: 'readFunnelChart',
    method: 'GET',
    path: '/charts/funnel',
    role: 'viewer',
    query: ConsolePeriodQuerySchema,
    status: 200,
    response: apiEnvelope(ConsoleFunnelChartSchema),
  }),
  route({
    id: 'resendWebhookDelivery',
    method: 'POST',
    path: '/webhook-deliveries/{id}/resend',
    role: 'support',
    body: noBody,
    status: 200,
    response: apiEnvelope(PartnerWebhookDeliverySchema),
  }),
  route({
    id: 'resendFailedWebhookDeliveries',
    method: 'POST',
    path: '/webhook-deliveries/resend-failed',
    role: 'support',
    body: ResendFailedDeliveriesRequestSchema,
    status: 200,
    response: apiEnvelope(ResendFailedDeliveriesResultSchema),
  }),
  route({
    id: 'requestHelp',
    method: 'POST',
    path: '/sales/{checkoutId}/help-requests',
    role: 'support',
    body: CreateActionRequestSchema,
    status: 201,
    response: apiEnvelope(PartnerActionRequestSchema),
  }),
  route({
    id: 'createDeliveryLink',
    method: 'POST',
    path: '/sales/{checkoutId}/delivery-links',
    role: 'support',
    body: CreatePartnerDeliveryLinkRequestSchema,
    status: 201,
    response: apiEnvelope(PartnerDeliveryLinkSchema),
  }),
  route({
    id: 'createManageLink',
    method: 'POST',
    path: '/sales/{checkoutId}/manage-links',
    role: 'support',
    body: noBody,
    status: 201,
    response: apiEnvelope(ManageLinkSchema),
  }),
  route({
    id: 'eraseTraveller',
    method: 'POST',
    path: '/sales/{checkoutId}/erasure',
    role: 'admin',
    body: noBody,
    status: 202,
    response: apiEnvelope(PrivacyErasureSchema),
  }),
  route({
    id: 'listUsers',
    method: 'GET',
    path: '/users',
    role: 'admin',
    status: 200,
    response: apiEnvelope(z.array(ConsoleUserSchema)),
  }),
  route({
    id: 'addUser',
    method: 'POST',
    path: '/users',
    role: 'admin',
    body: CreateConsoleUserRequestSchema,
    status: 201,
    response: apiEnvelope(CreatedConsoleUserSchema),
  }),
  route({
    id: 'changeUser',
    method: 'PATCH',
    path: '/users/{id}',
    role: 'admin',
    body: UpdateConsoleUserRequestSchema,
    status: 200,
    response: apiEnvelope(ConsoleUserSchema),
  }),
  route({
    id: 'listAudit',
    method: 'GET',
    path: '/audit',
    role: 'admin',
    query: ConsoleAuditQuerySchema,
    status: 200,
    response: listPageEnvelope(ConsoleAuditEntrySchema),
  }),
] as const;

/** A console route's id. */
export type ConsoleRouteId = (typeof CONSOLE_ROUTES)[number]['id'];
/** The route of an id. */
export type ConsoleRouteOf<Id extends ConsoleRouteId> = Extract<(typeof CONSOLE_ROUTES)[number], { id: Id }>;

/** Each route by its id: `consoleRoutes.readSale.path`. */
export const consoleRoutes = Object.fromEntries(CONSOLE_ROUTES.map((spec) => [spec.id, spec])) as {
  readonly [Id in ConsoleRouteId]: ConsoleRouteOf<Id>;
};
