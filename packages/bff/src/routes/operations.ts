/**
 * @module
 * `GET /healthz` (the process answers) and `GET /readyz` (every widget's upstream answers its
 * capabilities with our key, and the store answers). Readiness is cached for a few seconds so that a
 * load balancer's probes never hammer the upstream. Anyone hears the status; which check failed (and so
 * which widgets exist) only the holder of the operations token.
 */
import type { Context } from 'hono';
import { assessCapabilities, credentialProblem, type FitnessCheck } from '../catalog/widget-fitness';
import { constantTimeEqual } from '../checkout/checkout-access';
import { ApiError } from '../errors';
import { answerJson } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { RouteHandlers } from './mount-routes';

export interface OperationsRoutesOptions {
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  /** How long one readiness result is reused (default {@link READINESS_CACHE_MS}). */
  readinessCacheMs?: number;
  /** The clock the reuse is measured on (tests move it on). */
  now?: () => number;
  /** `Authorization: Bearer <token>` that opens the per-check details (absent: never shown). */
  operationsToken?: string | undefined;
}

/** A check's result: ok, an outage, or what stops a widget (`catalog/widget-fitness.ts`). */
type Check = 'ok' | 'upstream_unavailable' | 'store_unavailable' | FitnessCheck;
interface Readiness {
  ready: boolean;
  checks: Record<string, Check>;
}

/** How long one readiness result is reused unless the options say otherwise. */
export const READINESS_CACHE_MS = 5_000;

/** The operations routes. */
export function operationsHandlers(options: OperationsRoutesOptions): RouteHandlers<'health' | 'ready'> {
  const cacheMs = options.readinessCacheMs ?? READINESS_CACHE_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; result: Promise<Readiness> } | undefined;

  /**
   * What the catalog's last refresh met that capabilities do not show (mTLS, CIDR, a scope). While the catalog
   * never answered (its first reads failed or timed out), the widget's state is unknown: it is not ready, as an
   * outage, until a first answer says whether it can sell.
   */
  async function catalogCheck(widget: WidgetRuntime): Promise<Check> {
    const [problem] = (await widget.catalog.fitness()).problems;
    if (problem) return problem.check;
    return widget.catalog.status().loaded ? 'ok' : 'upstream_unavailable';
  }

  async function checkWidget(widget: WidgetRuntime): Promise<Check> {
    try {
      const capabilities = await widget.upstream.getCapabilities();
      // Scopes, environment (a live widget on a test key would sell in the wrong world), brand binding.
      const [problem] = assessCapabilities(capabilities, widget.config).problems;
      if (problem) return problem.check;
      return await catalogCheck(widget);
    } catch (error) {
      const problem = credentialProblem(error);
      if (problem) return problem.check;
      // The key's minute is spent (by sales, or a probe refused by the budget): the key itself is not at fault.
      if (error instanceof ApiError && error.code === 'rate_limited') {
        return await catalogCheck(widget);
      }
      return error instanceof ApiError && error.code === 'upstream_unavailable'
        ? 'upstream_unavailable'
        : 'upstream_key_invalid';
    }
  }

  async function readiness(): Promise<Readiness> {
    const checks: Record<string, Check> = {};
    const widgets = [...options.widgets.values()];
    const [store, ...results] = await Promise.all([options.store.ping(), ...widgets.map(checkWidget)]);
    checks.store = store ? 'ok' : 'store_unavailable';
    widgets.forEach((widget, index) => {
      checks[`widget:${widget.config.id}`] = results[index] ?? 'upstream_unavailable';
    });
    return { ready: Object.values(checks).every((check) => check === 'ok'), checks };
  }

  function health(c: Context<AppEnv>) {
    return answerJson(c, { status: 'ok' }, 200, { 'Cache-Control': 'no-store' });
  }

  async function ready(c: Context<AppEnv>) {
    const time = now();
    if (cached === undefined || time - cached.at > cacheMs) cached = { at: time, result: readiness() };
    const result = await cached.result;
    const status = result.ready ? 'ready' : 'not_ready';
    const token = options.operationsToken;
    const detailed =
      token !== undefined && constantTimeEqual(c.req.header('Authorization') ?? '', `Bearer ${token}`);
    return answerJson(
      c,
      detailed ? { status, checks: result.checks } : { status },
      result.ready ? 200 : 503,
      {
        'Cache-Control': 'no-store',
      },
    );
  }

  return { health, ready };
}
