/**
 * @module
 * `POST /quotes`, `GET /quotes/{id}`, `POST /orders`, `GET /orders/{id}`, `GET /orders?externalRef=…` and
 * `GET /orders?createdSince=…` (oldest first, so pages stay put while orders are added): quotes and orders,
 * creates under `Idempotency-Key`.
 */
import {
  CreateOrderRequestSchema,
  DateTimeSchema,
  OrderStatusSchema,
  QuoteRequestSchema,
} from '@esim-embed/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireScope } from '../http/api-key-auth';
import { normalizedQuery, paginate } from '../http/cursors';
import { linkBase, responseMeta, sendPage, sendResource } from '../http/envelope';
import { idempotentCreate } from '../http/idempotent-create';
import { readJsonBody, validate } from '../http/request-body';
import { orderView, quoteView } from '../http/resource-views';
import type { SandboxEnv } from '../http/sandbox-env';
import { SandboxError } from '../http/sandbox-error';
import { createQuote, placeOrder } from '../state/order-desk';
import type { SandboxState } from '../state/sandbox-state';
import { PAGE_LIMIT } from './catalog-routes';

/** Query of `GET /orders`. */
export const OrderListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default),
  cursor: z.string().min(1).optional(),
  externalRef: z.string().min(1).max(128).optional(),
  status: OrderStatusSchema.optional(),
  /** Only orders created at or after this instant (the BFF's reconciliation reads the recent ones). */
  createdSince: DateTimeSchema.optional(),
});

/** The quote and order routes. */
export function orderRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();

  routes.post('/quotes', async function postQuote(c) {
    const auth = requireScope(c, 'quotes:write');
    const body = await readJsonBody(c);
    const nowMs = state.now();
    return idempotentCreate(c, nowMs, body, () => {
      const request = validate(QuoteRequestSchema, body, 'body');
      const quote = createQuote(state, auth.env, auth.account, request, state.now());
      return { status: 201, body: { data: quoteView(auth.env, quote), meta: responseMeta(c) } };
    });
  });

  routes.get('/quotes/:id', function readQuote(c) {
    const auth = requireScope(c, 'quotes:write');
    const quote = auth.env.quotes.get(c.req.param('id'));
    if (!quote || quote.accountId !== auth.account.seed.id) {
      throw new SandboxError('quote_not_found', { params: { quoteId: c.req.param('id') } });
    }
    return sendResource(c, quoteView(auth.env, quote));
  });

  routes.post('/orders', async function postOrder(c) {
    const auth = requireScope(c, 'orders:write');
    const body = await readJsonBody(c);
    const nowMs = state.now();
    return idempotentCreate(c, nowMs, body, () => {
      const request = validate(CreateOrderRequestSchema, body, 'body');
      const order = placeOrder(state, auth.env, auth.account, request, state.now());
      return {
        status: 201,
        body: { data: orderView(auth, order, linkBase(c, state.options)), meta: responseMeta(c) },
      };
    });
  });

  routes.get('/orders/:id', function readOrder(c) {
    const auth = requireScope(c, 'orders:read');
    const order = auth.env.orders.get(c.req.param('id'));
    if (!order || order.accountId !== auth.account.seed.id) {
      throw new SandboxError('order_not_found', { params: { orderId: c.req.param('id') } });
    }
    return sendResource(c, orderView(auth, order, linkBase(c, state.options)));
  });

  routes.get('/orders', function listOrders(c) {
    const auth = requireScope(c, 'orders:read');
    const query = validate(OrderListQuerySchema, c.req.query(), 'query');
    const since = query.createdSince === undefined ? undefined : Date.parse(query.createdSince);
    const orders = [...auth.env.orders.values()].filter(
      (order) =>
        order.accountId === auth.account.seed.id &&
        (query.externalRef === undefined || order.externalRef === query.externalRef) &&
        (query.status === undefined || order.status === query.status) &&
        (since === undefined || order.createdAtMs >= since),
    );
    const binding = {
      query: normalizedQuery('orders', `${auth.env.environment}:${auth.account.seed.id}`, {
        externalRef: query.externalRef,
        status: query.status,
        createdSince: since,
      }),
      snapshot: 0,
    };
    const page = paginate(orders, {
      secret: state.cursorSecret,
      binding,
      cursor: query.cursor,
      limit: query.limit,
    });
    const base = linkBase(c, state.options);
    return sendPage(
      c,
      page.items.map((order) => orderView(auth, order, base)),
      { nextCursor: page.nextCursor, hasMore: page.hasMore },
    );
  });

  return routes;
}
