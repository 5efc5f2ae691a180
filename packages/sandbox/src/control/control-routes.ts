/**
 * @module
 * The control API (`/__sandbox/*`, header `X-Sandbox-Control: <secret>`): reset, move the clock, bump
 * pricing or the catalog snapshot, expire a quote, set balances, limits, rate limits, retail-brand
 * switches, status and live-checkout readiness, supply operations and unserved routes, arm provisioning and payment scenarios, simulate eSIM use, resolve refunds and reissues under
 * review, refund a sold order as if from outside the API, and set fault rules. Every answer is `{ data: ControlState, meta }`, but the outbox's
 * (`GET /__sandbox/outbox`: `{ data: OutboxEmail[], meta }`) and a resolve's (the action request as the contract
 * has it: `{ data: ActionRequest, meta }`).
 *
 * Over 300 lines: one short handler per control operation, so the whole control API reads in one place.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { isoTime } from '../clock';
import { linkBase, responseMeta } from '../http/envelope';
import { readJsonBody, validate } from '../http/request-body';
import { actionRequestView } from '../http/resource-views';
import type { SandboxEnv } from '../http/sandbox-env';
import { SandboxError } from '../http/sandbox-error';
import { SEED_SUPPLY_OPERATIONS } from '../seed/supply-operations';
import type { ProvisioningScenario } from '../state/environment-state';
import {
  advanceEnvironment,
  refreshAllowance,
  refundOrderFromOutside,
  resolveActionRequest,
} from '../state/order-lifecycle';
import type { SandboxState } from '../state/sandbox-state';
import {
  AccountControlRequestSchema,
  ActionResolveRequestSchema,
  CatalogBumpRequestSchema,
  ClockAdvanceRequestSchema,
  CONTROL_SECRET_HEADER,
  type ControlState,
  EsimControlRequestSchema,
  FaultsRequestSchema,
  type OutboxEmail,
  OutboxQuerySchema,
  PricingBumpRequestSchema,
  RateLimitRequestSchema,
  ScenarioRequestSchema,
  SupplyControlRequestSchema,
} from './control-schemas';

const SCENARIOS: Record<string, ProvisioningScenario> = {
  provisioning_failed: 'fail',
  slow_provisioning: 'slow',
  normal: 'normal',
  awaiting_payment: 'pay_later',
  expired_unpaid: 'unpaid',
};

/** The resolution a decision carries when the control call names none. */
const DEFAULT_RESOLUTIONS = {
  completed: {
    refund: { code: 'refunded', note: 'Refunded to the prepaid balance after review.' },
    reissue: { code: 'reissued', note: 'A replacement eSIM was issued; the old profile is revoked.' },
    cancellation: { code: 'refunded', note: 'Unused profile revoked and the order refunded to the balance.' },
  },
  rejected: {
    refund: { code: 'declined', note: 'The review found no ground for a refund.' },
    reissue: { code: 'declined', note: 'The review found the profile usable.' },
    cancellation: { code: 'declined', note: 'The profile was already in use.' },
  },
} as const;

/** A snapshot of the sandbox for control answers. */
export function controlState(state: SandboxState): ControlState {
  const nowMs = state.now();
  for (const env of Object.values(state.environments)) advanceEnvironment(state, env, nowMs);
  const summary = (environment: 'test' | 'live') => {
    const env = state.environments[environment];
    return { catalogVersion: env.catalogVersion, pricingEpoch: env.pricingEpoch, orders: env.orders.size };
  };
  return {
    now: isoTime(nowMs),
    clockOffsetMs: state.clock.offsetMs,
    faultInjection: state.options.faultInjection,
    faults: state.faults.map((rule) => ({ ...rule })),
    environments: { test: summary('test'), live: summary('live') },
  };
}

function controlSecret(state: SandboxState): MiddlewareHandler<SandboxEnv> {
  return async function controlSecretMiddleware(c, next) {
    if (c.req.header(CONTROL_SECRET_HEADER) !== state.options.controlSecret) {
      throw new SandboxError('unauthorized', { params: { header: CONTROL_SECRET_HEADER } });
    }
    await next();
  };
}

/** The control routes, mounted at `/__sandbox`. */
export function controlRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();
  routes.use('*', controlSecret(state));
  const answer = (c: Parameters<MiddlewareHandler<SandboxEnv>>[0]) =>
    c.json({ data: controlState(state), meta: responseMeta(c) }, 200);

  routes.get('/state', function readState(c) {
    return answer(c);
  });

  routes.post('/reset', function reset(c) {
    state.reset();
    return answer(c);
  });

  routes.post('/clock/advance', async function advanceClock(c) {
    const { ms } = validate(ClockAdvanceRequestSchema, await readJsonBody(c), 'body');
    state.clock.advance(ms);
    return answer(c);
  });

  routes.post('/pricing/bump', async function bumpPricing(c) {
    const request = validate(PricingBumpRequestSchema, await readJsonBody(c), 'body');
    if (request.offerId !== undefined && !state.catalog.offerById.has(request.offerId)) {
      throw new SandboxError('offer_not_found', { params: { offerId: request.offerId } });
    }
    state.environments[request.environment].bumpPricing(state.now(), request.offerId);
    return answer(c);
  });

  routes.post('/catalog/bump', async function bumpCatalog(c) {
    const request = validate(CatalogBumpRequestSchema, await readJsonBody(c), 'body');
    state.environments[request.environment].bumpCatalog(state.now());
    return answer(c);
  });

  routes.post('/quotes/:id/expire', function expireQuote(c) {
    const id = c.req.param('id');
    const quote = Object.values(state.environments)
      .map((env) => env.quotes.get(id))
      .find((found) => found !== undefined);
    if (!quote) throw new SandboxError('quote_not_found', { params: { quoteId: id } });
    quote.expiresAtMs = Math.min(quote.expiresAtMs, state.now());
    return answer(c);
  });

  routes.post('/accounts/:id', async function controlAccount(c) {
    const request = validate(AccountControlRequestSchema, await readJsonBody(c), 'body');
    const account = state.environments[request.environment].accounts.get(c.req.param('id'));
    if (!account) throw new SandboxError('account_not_found', { params: { accountId: c.req.param('id') } });
    if (request.balanceMinor !== undefined) account.balanceMinor = request.balanceMinor;
    if (request.singleOrderLimitMinor !== undefined)
      account.singleOrderLimitMinor = request.singleOrderLimitMinor;
    if (request.monthlySpendLimitMinor !== undefined)
      account.monthlySpendLimitMinor = request.monthlySpendLimitMinor;
    if (request.status !== undefined) account.status = request.status;
    if (request.retailBrandControls !== undefined) {
      for (const [key, controls] of account.retailBrandControls) {
        account.retailBrandControls.set(key, { ...controls, ...request.retailBrandControls });
      }
    }
    for (const launch of account.retailBrandLaunch.values()) {
      if (request.retailBrandStatus !== undefined) launch.status = request.retailBrandStatus;
      if (request.retailBrandLiveCheckoutReady !== undefined)
        launch.liveCheckoutReady = request.retailBrandLiveCheckoutReady;
    }
    account.updatedAtMs = state.now();
    return answer(c);
  });

  routes.post('/accounts/:id/supply', async function controlSupply(c) {
    const request = validate(SupplyControlRequestSchema, await readJsonBody(c), 'body');
    const account = state.environments[request.environment].accounts.get(c.req.param('id'));
    if (!account) throw new SandboxError('account_not_found', { params: { accountId: c.req.param('id') } });
    if (request.reset) {
      account.supplyOperations = SEED_SUPPLY_OPERATIONS.map((operation) => ({ ...operation }));
      account.routeUnservedOfferIds = new Set();
    }
    for (const operation of request.operations ?? []) {
      const others = account.supplyOperations.filter((candidate) => candidate.id !== operation.id);
      account.supplyOperations = [...others, { ...operation }];
    }
    if (request.routeUnservedOfferIds !== undefined) {
      account.routeUnservedOfferIds = new Set(request.routeUnservedOfferIds);
    }
    return answer(c);
  });

  routes.post('/keys/:key/rate-limit', async function controlRateLimit(c) {
    const { perMinute } = validate(RateLimitRequestSchema, await readJsonBody(c), 'body');
    const key = state.keys.get(c.req.param('key'));
    if (!key) throw new SandboxError('unauthorized', { params: { reason: 'unknown_key' } });
    key.rateLimitPerMinute = perMinute;
    key.windowCount = 0;
    return answer(c);
  });

  routes.post('/scenarios', async function armScenario(c) {
    const request = validate(ScenarioRequestSchema, await readJsonBody(c), 'body');
    const account = state.environments[request.environment].accounts.get(request.accountId);
    if (!account) throw new SandboxError('account_not_found', { params: { accountId: request.accountId } });
    const scenario = SCENARIOS[request.scenario] ?? 'normal';
    for (let i = 0; i < request.count; i++) account.armedScenarios.push(scenario);
    return answer(c);
  });

  routes.post('/esims/:id', async function controlEsim(c) {
    const request = validate(EsimControlRequestSchema, await readJsonBody(c), 'body');
    const id = c.req.param('id');
    const esim = Object.values(state.environments)
      .map((env) => env.esims.get(id))
      .find((found) => found !== undefined);
    if (!esim) throw new SandboxError('esim_not_found', { params: { esimId: id } });
    const nowMs = state.now();
    if (request.activate && esim.activatedAtMs === null && esim.state !== 'revoked') {
      esim.activatedAtMs = nowMs;
      esim.state = 'active';
      esim.profileState = 'enabled';
      esim.serviceState = 'active';
      esim.serviceExpiresAtMs ??= nowMs + esim.durationDays * 24 * 60 * 60 * 1000;
    }
    if (request.install && esim.activatedAtMs === null && esim.state !== 'revoked') {
      esim.state = 'installed';
      esim.profileState = 'installed';
    }
    if (request.topUpStatus !== undefined) esim.topUpStatusOverride = request.topUpStatus;
    if (request.usageStatus !== undefined) esim.usageStatusOverride = request.usageStatus;
    if (request.profileState !== undefined) esim.profileState = request.profileState;
    if (request.serviceState !== undefined) esim.serviceState = request.serviceState;
    if (request.allowanceState !== undefined) esim.allowanceState = request.allowanceState;
    if (request.usedMb !== undefined) {
      esim.usedMb = request.usedMb;
      esim.usageObservedAtMs = nowMs;
      refreshAllowance(esim);
      if (esim.allowanceState === 'depleted') {
        esim.state = 'depleted';
        esim.serviceState = 'depleted';
      }
    }
    return answer(c);
  });

  routes.post('/action-requests/:id/resolve', async function resolveActionRequestUnderReview(c) {
    const request = validate(ActionResolveRequestSchema, await readJsonBody(c), 'body');
    const id = c.req.param('id');
    const nowMs = state.now();
    for (const env of Object.values(state.environments)) {
      advanceEnvironment(state, env, nowMs);
      const found = env.actionRequests.get(id);
      if (!found) continue;
      if (found.status === 'completed' || found.status === 'rejected') {
        throw new SandboxError('invalid_transition', {
          params: { actionRequestId: id, status: found.status, reason: 'already_resolved' },
        });
      }
      const resolution = request.resolution ?? DEFAULT_RESOLUTIONS[request.outcome][found.type];
      resolveActionRequest(
        state,
        env,
        found,
        { outcome: request.outcome, resolution: { code: resolution.code, note: resolution.note } },
        nowMs,
      );
      // The request as decided, as `GET /action-requests/{id}` reads it: what a test checks next.
      return c.json(
        { data: actionRequestView(env, found, linkBase(c, state.options)), meta: responseMeta(c) },
        200,
      );
    }
    throw new SandboxError('action_request_not_found', { params: { actionRequestId: id } });
  });

  routes.post('/orders/:id/refund', function refundOrderOutsideTheApi(c) {
    const id = c.req.param('id');
    const nowMs = state.now();
    for (const env of Object.values(state.environments)) {
      advanceEnvironment(state, env, nowMs);
      const order = env.orders.get(id);
      if (!order) continue;
      if (!refundOrderFromOutside(env, order, nowMs)) {
        throw new SandboxError('invalid_transition', {
          params: { orderId: id, status: order.status, reason: 'not_refundable' },
        });
      }
      return answer(c);
    }
    throw new SandboxError('order_not_found', { params: { orderId: id } });
  });

  routes.get('/outbox', function readOutbox(c) {
    const query = validate(OutboxQuerySchema, c.req.query(), 'query');
    const env = state.environments[query.environment];
    advanceEnvironment(state, env, state.now());
    const base = linkBase(c, state.options);
    const emails: OutboxEmail[] = env.outbox
      .filter(
        (email) =>
          (query.to === undefined || email.to === query.to) &&
          (query.orderId === undefined || email.orderId === query.orderId),
      )
      .map(({ deliveryLinkId, sentAtMs, ...email }) => {
        const link = env.deliveryLinks.get(deliveryLinkId);
        const deliveryUrl = `${base}/d/${link?.token ?? 'unknown'}`;
        return {
          ...email,
          environment: env.environment,
          text: email.text.replace('{deliveryUrl}', deliveryUrl),
          deliveryUrl,
          sentAt: isoTime(sentAtMs),
        };
      });
    return c.json({ data: emails, meta: responseMeta(c) }, 200);
  });

  routes.put('/faults', async function setFaults(c) {
    if (!state.options.faultInjection) {
      throw new SandboxError('forbidden', {
        params: {
          reason: 'fault_injection_disabled',
          hint: 'start the sandbox with faultInjection (SANDBOX_FAULTS=1)',
        },
      });
    }
    const { rules } = validate(FaultsRequestSchema, await readJsonBody(c), 'body');
    state.faults = rules;
    return answer(c);
  });

  routes.delete('/faults', function clearFaults(c) {
    state.faults = [];
    return answer(c);
  });

  return routes;
}
