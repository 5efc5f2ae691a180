/**
 * @module
 * What a BFF observes, when asked: its metrics and tracing, the observer of its outgoing calls, its store's
 * errors counted, the answers the server serves again before the app, and the gauges read at scrape time. With
 * both off, none of it exists and none of it costs anything.
 */
import type { RequestObserver } from '../http/request-observer';
import type { Store } from '../store/store';
import type { OutgoingCalls } from '../upstream/outgoing-call-observer';
import type { WebhookQueue } from '../webhooks/webhook-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type BffMetrics, createBffMetrics } from './metrics';
import { outgoingCalls } from './outgoing-calls';
import { registerSalesGauge } from './sales-gauge';
import { registerStateGauges } from './state-gauges';
import { countingStoreErrors } from './store-errors';
import type { Tracing } from './tracing';

export interface BffObservabilityOptions {
  /** Prometheus metrics (default off). */
  metrics?: boolean;
  /** OpenTelemetry tracing (default none). */
  tracing?: Tracing | null;
}

export interface BffObservability {
  /** The metrics, when on. */
  metrics: BffMetrics | null;
  /** The tracing, when on. */
  tracing: Tracing | null;
  /** Told of every outgoing call (upstream attempts, webhook deliveries); absent when both are off. */
  outgoingCalls: OutgoingCalls | undefined;
  /** The store, its errors counted when metrics are on. */
  observedStore(store: Store): Store;
  /**
   * Counts and traces the requests answered from the answer cache, before the app's middleware would; absent
   * when both are off.
   */
  keptAnswers: RequestObserver | undefined;
  /** The gauges read at scrape time, when metrics are on. */
  registerGauges(sources: {
    store: Store;
    webhookQueue: WebhookQueue;
    widgets: ReadonlyMap<string, WidgetRuntime>;
  }): void;
}

/** The observability a BFF was asked for. */
export function createBffObservability(options: BffObservabilityOptions = {}): BffObservability {
  const metrics = options.metrics === true ? createBffMetrics() : null;
  const tracing = options.tracing ?? null;
  return {
    metrics,
    tracing,
    outgoingCalls: outgoingCalls(metrics, tracing),
    observedStore: (store) => (metrics === null ? store : countingStoreErrors(store, metrics.storeErrors)),
    keptAnswers:
      metrics === null && tracing === null
        ? undefined
        : (route, method, status, seconds) => {
            metrics?.observeRequest(route, method, status, seconds);
            tracing?.observeKeptAnswer(route, method, status, seconds);
          },
    registerGauges({ store, webhookQueue, widgets }) {
      if (metrics === null) return;
      registerStateGauges(metrics.registry, { store, webhookQueue });
      registerSalesGauge(metrics.registry, widgets);
    },
  };
}
