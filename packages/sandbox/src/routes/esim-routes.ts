/**
 * @module
 * `GET /esims`, `GET /esims/{id}` (installation data, `no-store`), `GET /esims/{id}/actions`,
 * `GET /esims/{id}/top-up-offers`, and post-sale action requests (`POST /esims/{id}/action-requests`,
 * `GET /action-requests/{id}`, `GET /action-requests`).
 */
import { ACTION_TYPE_BY_REASON, ActionRequestInputSchema } from '@esim-embed/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { isoTime } from '../clock';
import { requireScope } from '../http/api-key-auth';
import { normalizedQuery, paginate } from '../http/cursors';
import { linkBase, responseMeta, sendPage, sendResource } from '../http/envelope';
import { idempotentCreate } from '../http/idempotent-create';
import { readJsonBody, validate } from '../http/request-body';
import { actionRequestView, esimActionsView, esimDetailView, esimListView } from '../http/resource-views';
import type { AuthContext, SandboxEnv } from '../http/sandbox-env';
import { SandboxError } from '../http/sandbox-error';
import type { ActionRequestRecord, EsimRecord } from '../state/environment-state';
import { esimActionEligibility } from '../state/esim-action-policy';
import { topUpOptions } from '../state/order-desk';
import { markRefundRequested } from '../state/order-lifecycle';
import type { SandboxState } from '../state/sandbox-state';
import { PAGE_LIMIT } from './catalog-routes';

const ListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default),
  cursor: z.string().min(1).optional(),
});

function esimOf(auth: AuthContext, id: string): EsimRecord {
  const esim = auth.env.esims.get(id);
  if (!esim || esim.accountId !== auth.account.seed.id)
    throw new SandboxError('esim_not_found', { params: { esimId: id } });
  return esim;
}

/** The eSIM and action-request routes. */
export function esimRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();
  const base = (c: Context<SandboxEnv>) => linkBase(c, state.options);

  routes.get('/esims', function listEsims(c) {
    const auth = requireScope(c, 'esims:read');
    const query = validate(ListQuerySchema, c.req.query(), 'query');
    const esims = [...auth.env.esims.values()].filter((esim) => esim.accountId === auth.account.seed.id);
    const binding = {
      query: normalizedQuery('esims', `${auth.env.environment}:${auth.account.seed.id}`, {}),
      snapshot: 0,
    };
    const page = paginate(esims, {
      secret: state.cursorSecret,
      binding,
      cursor: query.cursor,
      limit: query.limit,
    });
    const nowMs = state.now();
    return sendPage(
      c,
      page.items.map((esim) => esimListView(auth.env, esim, base(c), nowMs)),
      { nextCursor: page.nextCursor, hasMore: page.hasMore },
    );
  });

  routes.get('/esims/:id', function readEsim(c) {
    const auth = requireScope(c, 'esims:read');
    const esim = esimOf(auth, c.req.param('id'));
    // Installation data is the product itself: never cached anywhere.
    c.header('Cache-Control', 'no-store');
    return sendResource(c, esimDetailView(auth.env, esim, base(c), state.now()));
  });

  routes.get('/esims/:id/actions', function readActions(c) {
    const auth = requireScope(c, 'actions:read');
    const esim = esimOf(auth, c.req.param('id'));
    const topUp = topUpOptions(state, auth.env, auth.account, esim);
    return sendResource(c, {
      esimId: esim.id,
      environment: auth.env.environment,
      actions: esimActionsView(auth.env, esim, base(c), state.now(), topUp.status === 'available'),
    });
  });

  routes.get('/esims/:id/top-up-offers', function listTopUpOffers(c) {
    const auth = requireScope(c, 'catalog:read');
    const esim = esimOf(auth, c.req.param('id'));
    const nowMs = state.now();
    const topUp = topUpOptions(state, auth.env, auth.account, esim);
    return c.json(
      {
        data: topUp.offers,
        meta: {
          ...responseMeta(c),
          esimId: esim.id,
          status: topUp.status,
          retryable: false,
          checkedAt: isoTime(nowMs),
          freshUntil: isoTime(nowMs + 5 * 60_000),
          catalogVersion: auth.env.catalogVersion,
          pricingVersion: `pv${auth.env.pricingEpoch}`,
        },
      },
      200,
    );
  });

  routes.post('/esims/:id/action-requests', async function postActionRequest(c) {
    const auth = requireScope(c, 'actions:write');
    const esim = esimOf(auth, c.req.param('id'));
    const body = await readJsonBody(c);
    const nowMs = state.now();
    return idempotentCreate(c, nowMs, body, () => {
      const input = validate(ActionRequestInputSchema, body, 'body');
      const type = ACTION_TYPE_BY_REASON[input.reasonCode];
      const existing = [...auth.env.actionRequests.values()].find(
        (request) => request.esimId === esim.id && request.type === type && request.status !== 'rejected',
      );
      if (existing) {
        throw new SandboxError('action_request_exists', { params: { actionRequestId: existing.id, type } });
      }
      // Top-up availability does not matter here: a top-up is bought with a quote, not requested.
      const eligibility = esimActionEligibility(auth.env, esim, false)[type];
      if (eligibility.availability === 'unavailable') {
        throw new SandboxError('action_not_available', {
          params: { action: type, esimId: esim.id, reason: eligibility.reasonCode },
        });
      }
      const request: ActionRequestRecord = {
        id: auth.env.ids.next('areq'),
        accountId: auth.account.seed.id,
        esimId: esim.id,
        orderId: esim.orderId,
        externalRef: input.externalRef,
        type,
        // Cancelling an unused profile is automatic; refunds and reissues go to manual review, which the
        // control API resolves (`POST /__sandbox/action-requests/{id}/resolve`).
        status: 'requested',
        stateRevision: 1,
        reasonCode: input.reasonCode,
        reasonDetail: input.reasonDetail ?? null,
        resolution: null,
        createdAtMs: nowMs,
        updatedAtMs: nowMs,
        completedAtMs: null,
        resolvesAtMs: type === 'cancellation' ? nowMs + state.options.stepDelaysMs.completion : null,
        reviewAtMs: type === 'cancellation' ? null : nowMs + state.options.stepDelaysMs.provisioning,
        replacementOrderId: null,
      };
      auth.env.actionRequests.set(request.id, request);
      const order = auth.env.orders.get(esim.orderId);
      if (type === 'refund' && order) markRefundRequested(order, nowMs);
      return {
        status: 201,
        body: { data: actionRequestView(auth.env, request, base(c)), meta: responseMeta(c) },
      };
    });
  });

  routes.get('/action-requests/:id', function readActionRequest(c) {
    const auth = requireScope(c, 'actions:read');
    const request = auth.env.actionRequests.get(c.req.param('id'));
    if (!request || request.accountId !== auth.account.seed.id) {
      throw new SandboxError('action_request_not_found', { params: { actionRequestId: c.req.param('id') } });
    }
    return sendResource(c, actionRequestView(auth.env, request, base(c)));
  });

  routes.get('/action-requests', function listActionRequests(c) {
    const auth = requireScope(c, 'actions:read');
    const query = validate(ListQuerySchema, c.req.query(), 'query');
    const requests = [...auth.env.actionRequests.values()].filter(
      (request) => request.accountId === auth.account.seed.id,
    );
    const binding = {
      query: normalizedQuery('action-requests', `${auth.env.environment}:${auth.account.seed.id}`, {}),
      snapshot: 0,
    };
    const page = paginate(requests, {
      secret: state.cursorSecret,
      binding,
      cursor: query.cursor,
      limit: query.limit,
    });
    return sendPage(
      c,
      page.items.map((request) => actionRequestView(auth.env, request, base(c))),
      { nextCursor: page.nextCursor, hasMore: page.hasMore },
    );
  });

  return routes;
}
