/**
 * @module
 * The control API (`/__sandbox/*`, header `X-Sandbox-Control: <secret>`): reset, move the clock, bump
 * pricing or the catalog snapshot, expire a quote, set balances, limits and rate limits, arm provisioning
 * scenarios, simulate eSIM use, and set fault rules. Every answer is `{ data: ControlState, meta }`.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { isoTime } from '../clock';
import { responseMeta } from '../http/envelope';
import { readJsonBody, validate } from '../http/request-body';
import type { SandboxEnv } from '../http/sandbox-env';
import { SandboxError } from '../http/sandbox-error';
import type { ProvisioningScenario } from '../state/environment-state';
import { advanceEnvironment, refreshAllowance } from '../state/order-lifecycle';
import type { SandboxState } from '../state/sandbox-state';
import {
  AccountControlRequestSchema,
  CatalogBumpRequestSchema,
  ClockAdvanceRequestSchema,
  CONTROL_SECRET_HEADER,
  type ControlState,
  EsimControlRequestSchema,
  FaultsRequestSchema,
  PricingBumpRequestSchema,
  RateLimitRequestSchema,
  ScenarioRequestSchema,
} from './control-schemas';

const SCENARIOS: Record<string, ProvisioningScenario> = {
  provisioning_failed: 'fail',
  slow_provisioning: 'slow',
  normal: 'normal',
};

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
    account.updatedAtMs = state.now();
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
