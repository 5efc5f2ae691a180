/**
 * @module
 * A tiny typed client of the sandbox's control API, for the BFF's and the end-to-end tests.
 */
import { type ActionRequest, ActionRequestSchema } from '@esim-embed/shared';
import { z } from 'zod';
import {
  type AccountControlRequest,
  type ActionResolveRequest,
  CONTROL_SECRET_HEADER,
  type ControlState,
  ControlStateSchema,
  type EsimControlRequest,
  type FaultRuleInput,
  type OutboxEmail,
  OutboxEmailSchema,
  type OutboxQuery,
  type PricingBumpRequest,
  type ScenarioRequest,
  type SupplyControlRequest,
} from './control/control-schemas';

/**
 * The control API of one sandbox. Every call answers the sandbox's state after the change, but the outbox (its
 * emails) and a resolve (the action request decided).
 */
export interface ControlClient {
  state(): Promise<ControlState>;
  /** Back to the seed: balances, orders, versions, keys' rate limits, faults, clock offset. */
  reset(): Promise<ControlState>;
  /** Moves the sandbox's clock forward (quotes expire, orders progress). */
  advanceClock(ms: number): Promise<ControlState>;
  /** A new pricing version for every offer, or one offer: open quotes then fail with `price_changed`. */
  bumpPricing(request?: PricingBumpRequest): Promise<ControlState>;
  /** A new catalog snapshot: outstanding cursors answer `cursor_expired`. */
  bumpCatalog(environment?: 'test' | 'live'): Promise<ControlState>;
  /** Makes a quote expire now. */
  expireQuote(quoteId: string): Promise<ControlState>;
  /** Sets an account's balance, limits or status, and its retail brands' switches, status and readiness. */
  setAccount(accountId: string, request: AccountControlRequest): Promise<ControlState>;
  /** Sets an account's supply operations (`GET /capabilities`) and the offers whose route is not served. */
  setSupply(accountId: string, request: SupplyControlRequest): Promise<ControlState>;
  /** Sets a key's requests per minute (null: unlimited). */
  setRateLimit(apiKey: string, perMinute: number | null): Promise<ControlState>;
  /** Forces the provisioning path of an account's next orders. */
  armScenario(request: ScenarioRequest): Promise<ControlState>;
  /**
   * Simulates the traveller installing (`install`), activating (`activate`) and using (`usedMb`) a profile, and
   * forces its top-up status (`topUpStatus`) or usage status (`usageStatus`) for after-sale tests.
   */
  setEsim(esimId: string, request: EsimControlRequest): Promise<ControlState>;
  /**
   * Ends a refund or reissue under review: `completed` (a reissue issues a replacement eSIM) or `rejected`. Answers
   * the action request as decided, as the contract has it (its `resolution`, its `replacementOrder`).
   */
  resolveActionRequest(actionRequestId: string, request: ActionResolveRequest): Promise<ActionRequest>;
  /** Refund a sold order as the service would on its own or at the partner's direct request (no action request). */
  refundOrder(orderId: string): Promise<ControlState>;
  /** The emails the sandbox would have sent for `platform` delivery orders (oldest first). */
  outbox(query?: OutboxQuery): Promise<OutboxEmail[]>;
  /** Replaces the fault rules (the sandbox must run with fault injection enabled). */
  setFaults(rules: FaultRuleInput[]): Promise<ControlState>;
  clearFaults(): Promise<ControlState>;
}

/** Where the sandbox is and its control secret. */
export interface ControlClientOptions {
  baseUrl: string;
  secret: string;
  fetch?: typeof fetch;
}

/** Builds a control client. Throws with the error envelope's code when a control call fails. */
export function createControlClient(options: ControlClientOptions): ControlClient {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  async function request(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await doFetch(`${base}/__sandbox${path}`, {
      method,
      headers: {
        [CONTROL_SECRET_HEADER]: options.secret,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data?: unknown; error?: { code: string; params: unknown } };
    if (!response.ok) {
      throw new Error(
        `sandbox control ${method} ${path} failed: ${response.status} ${json.error?.code ?? 'unknown'} ${JSON.stringify(json.error?.params ?? {})}`,
      );
    }
    return json.data;
  }
  const call = async (method: string, path: string, body?: unknown) =>
    ControlStateSchema.parse(await request(method, path, body));
  return {
    state: () => call('GET', '/state'),
    reset: () => call('POST', '/reset'),
    advanceClock: (ms) => call('POST', '/clock/advance', { ms }),
    bumpPricing: (request = {}) => call('POST', '/pricing/bump', request),
    bumpCatalog: (environment = 'test') => call('POST', '/catalog/bump', { environment }),
    expireQuote: (quoteId) => call('POST', `/quotes/${encodeURIComponent(quoteId)}/expire`),
    setAccount: (accountId, request) => call('POST', `/accounts/${encodeURIComponent(accountId)}`, request),
    setSupply: (accountId, request) =>
      call('POST', `/accounts/${encodeURIComponent(accountId)}/supply`, request),
    setRateLimit: (apiKey, perMinute) =>
      call('POST', `/keys/${encodeURIComponent(apiKey)}/rate-limit`, { perMinute }),
    armScenario: (request) => call('POST', '/scenarios', request),
    setEsim: (esimId, request) => call('POST', `/esims/${encodeURIComponent(esimId)}`, request),
    resolveActionRequest: async (id, body) =>
      ActionRequestSchema.parse(
        await request('POST', `/action-requests/${encodeURIComponent(id)}/resolve`, body),
      ),
    refundOrder: (id) => call('POST', `/orders/${encodeURIComponent(id)}/refund`),
    async outbox(query = {}) {
      const params = new URLSearchParams(
        Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
      return z.array(OutboxEmailSchema).parse(await request('GET', `/outbox?${params}`));
    },
    setFaults: (rules) => call('PUT', '/faults', { rules }),
    clearFaults: () => call('DELETE', '/faults'),
  };
}
