/**
 * @module
 * The partner's support desk over HTTP: its checkouts (searched by status, date, e-mail, eSIM and payment
 * reference), the eSIMs it sold, its help requests and its webhook deliveries, listed newest first by cursor, and a
 * delivery read and resent. Behind the partner auth: only what the widgets its secret opens sold or sent.
 */
import {
  ActionRequestListQuerySchema,
  PARTNER_SECRET_HEADER,
  PartnerCheckoutListQuerySchema,
  PartnerEsimListQuerySchema,
  type PartnerWebhookDeliveryDetail,
  ResendWebhookDeliveryRequestSchema,
  WebhookDeliveryListQuerySchema,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import { listActionRequests } from '../after-sale/action-request-desk';
import { ApiError } from '../errors';
import { answerJson, answerMeta } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { parseOrThrow, readJsonBody } from '../http/json-body';
import { answerPageAfter, type CursorBinding } from '../http/list-page';
import type { Logger } from '../logger';
import type { Store } from '../store/store';
import type { SupportDesk } from '../support-desk/support-desk';
import type { WebhookDeliveryDesk } from '../webhooks/webhook-delivery-desk';
import type { RouteHandlers } from './mount-routes';

export interface PartnerDeskRoutesOptions {
  /** The lists of the partner's checkouts and eSIMs. */
  supportDesk: SupportDesk;
  /** Where the help requests the partner made are kept, with their indexes. */
  store: Store;
  /** The webhook deliveries of the partner's widgets: listed, read, resent. */
  webhookDesk: WebhookDeliveryDesk;
  /** Hears a delivery resent. */
  logger: Logger;
}

/**
 * The widgets a support-desk list reads: every widget the partner secret opens, or the one `?widgetId=` names
 * (`validation_failed` when the secret does not open it).
 */
export function listedWidgets(c: Context<AppEnv>, widgetId: string | undefined): string[] {
  const widgets = c.get('partnerWidgets');
  if (widgetId === undefined) return [...widgets.keys()];
  if (!widgets.has(widgetId))
    throw new ApiError('validation_failed', { params: { field: 'widgetId', reason: 'unknown' } });
  return [widgetId];
}

/** What a list's cursors are bound to: the caller's partner secret, the list and its filters. */
export const cursorBinding = (c: Context<AppEnv>, list: string): CursorBinding => ({
  partnerSecret: c.req.header(PARTNER_SECRET_HEADER) ?? '',
  list,
});

type PartnerDeskRouteId =
  | 'listPartnerCheckouts'
  | 'listPartnerEsims'
  | 'listPartnerActionRequests'
  | 'listPartnerWebhookDeliveries'
  | 'readPartnerWebhookDelivery'
  | 'resendPartnerWebhookDelivery';

/** The support desk's routes (behind the partner auth; a resend idempotent). */
export function partnerDeskHandlers(options: PartnerDeskRoutesOptions): RouteHandlers<PartnerDeskRouteId> {
  async function listPartnerCheckouts(c: Context<AppEnv>) {
    const { limit, cursor, ...filters } = parseOrThrow(
      PartnerCheckoutListQuerySchema,
      c.req.query(),
      400,
      'query',
    );
    // The filters as written are part of the cursor's binding: a cursor continues only the search that made it.
    const binding = cursorBinding(c, `checkouts ${JSON.stringify(Object.entries(filters).sort())}`);
    return answerPageAfter(c, binding, cursor, (after) =>
      options.supportDesk.listCheckouts(c.get('partnerWidgets'), filters, { after, limit }),
    );
  }

  async function listPartnerEsims(c: Context<AppEnv>) {
    const { limit, cursor } = parseOrThrow(PartnerEsimListQuerySchema, c.req.query(), 400, 'query');
    return answerPageAfter(c, cursorBinding(c, 'esims'), cursor, (after) =>
      options.supportDesk.listEsims(c.get('partnerWidgets'), { after, limit }),
    );
  }

  async function listPartnerActionRequests(c: Context<AppEnv>) {
    const { limit, cursor, widgetId, ...filters } = parseOrThrow(
      ActionRequestListQuerySchema,
      c.req.query(),
      400,
      'query',
    );
    const widgetIds = listedWidgets(c, widgetId);
    const binding = cursorBinding(c, `action-requests ${JSON.stringify({ widgetId, ...filters })}`);
    return answerPageAfter(c, binding, cursor, (after) =>
      listActionRequests(options.store, widgetIds, filters, after, limit),
    );
  }

  async function listPartnerWebhookDeliveries(c: Context<AppEnv>) {
    const { limit, cursor, widgetId, ...filters } = parseOrThrow(
      WebhookDeliveryListQuerySchema,
      c.req.query(),
      400,
      'query',
    );
    const widgetIds = listedWidgets(c, widgetId);
    const binding = cursorBinding(c, `webhook-deliveries ${JSON.stringify({ widgetId, ...filters })}`);
    return answerPageAfter(c, binding, cursor, (after) =>
      options.webhookDesk.list(widgetIds, filters, after, limit),
    );
  }

  async function readPartnerWebhookDelivery(c: Context<AppEnv>) {
    const ownWidgets = new Set(c.get('partnerWidgets').keys());
    const delivery = await options.webhookDesk.read(ownWidgets, c.req.param('id') ?? '');
    return answerJson(c, { data: delivery, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  async function resendPartnerWebhookDelivery(c: Context<AppEnv>) {
    await readJsonBody(c, ResendWebhookDeliveryRequestSchema);
    const ownWidgets = new Set(c.get('partnerWidgets').keys());
    const { resent, delivery } = await options.webhookDesk.resend(ownWidgets, c.req.param('id') ?? '');
    if (resent)
      options.logger.info('webhook delivery resent', { eventId: delivery.id, widgetId: delivery.widgetId });
    // Still on its way: answered as it is, and the Idempotency-Key keeps nothing of a request that did nothing.
    else c.set('changedNothing', true);
    return answerJson(c, { data: delivery, meta: answerMeta(c) }, 200, { 'Cache-Control': 'no-store' });
  }

  return {
    listPartnerCheckouts,
    listPartnerEsims,
    listPartnerActionRequests,
    listPartnerWebhookDeliveries,
    readPartnerWebhookDelivery,
    // The answer's event names the traveller: kept without the address, which a replay reads from the checkout.
    resendPartnerWebhookDelivery: {
      handle: resendPartnerWebhookDelivery,
      idempotency: {
        secret: {
          leaveOut: (data) => options.webhookDesk.keptWithoutTraveller(data as PartnerWebhookDeliveryDetail),
          putBack: async (_c, kept) =>
            await options.webhookDesk.withTraveller(kept as PartnerWebhookDeliveryDetail),
        },
      },
    },
  };
}
