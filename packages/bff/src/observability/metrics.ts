/**
 * @module
 * The BFF's Prometheus metrics, all in one place: their names, labels and meaning (docs/deployment.md,
 * "Operating it", lists the same). One registry per BFF, served on the operations listener
 * (`../operations-app.ts`). Counters and histograms are kept by this instance; the state gauges (checkouts still
 * moving, the webhook queue) are read from the shared store at scrape time (`state-gauges.ts`), the widgets that sell
 * nothing from their held catalogs (`sales-gauge.ts`).
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { RequestObserver } from '../http/request-observer';
import { requestObserver } from './http-metrics';

/** Seconds: from a cached read (sub-millisecond) to an upstream call near its timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics one BFF keeps, and the registry that serves them. */
export interface BffMetrics {
  readonly registry: Registry;
  /** Requests by route pattern of the API description, method and status class: count, errors and latency. */
  readonly httpRequestDuration: Histogram<'route' | 'method' | 'status_class'>;
  /** Records one request in `httpRequestDuration` (the app's middleware and the answer cache share it). */
  readonly observeRequest: RequestObserver;
  /** Upstream attempts by operation and outcome (`ok`, an error code, `timeout`, `network`). */
  readonly upstreamRequestDuration: Histogram<'operation' | 'outcome'>;
  /** Webhook delivery attempts by event type and outcome (`delivered`, `failed` and retried, `gave_up`). */
  readonly webhookAttempts: Counter<'type' | 'outcome'>;
  /** Checkouts this instance saw enter each status (created, placed, ready, failed, expired…). */
  readonly checkoutTransitions: Counter<'status'>;
  /** Store operations that failed (the store unreachable or not answering in time). */
  readonly storeErrors: Counter<'operation'>;
  /** Checkouts refused before payment by the funding check, by code and by the cap or room that refused them. */
  readonly fundingRefusals: Counter<'code' | 'cap'>;
  /** Upstream calls the key's budget refused before sending, by share (`address`, `session`, `key`, …). */
  readonly upstreamBudgetRefusals: Counter<'share'>;
}

/** A fresh registry with the BFF's metrics and Node's default ones (`process_*`, `nodejs_*`). */
export function createBffMetrics(): BffMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const httpRequestDuration = new Histogram({
    name: 'bff_http_request_duration_seconds',
    help: 'Requests answered, by route pattern of the API description (none: no route matched), method and status class.',
    labelNames: ['route', 'method', 'status_class'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  return {
    registry,
    httpRequestDuration,
    observeRequest: requestObserver(httpRequestDuration),
    upstreamRequestDuration: new Histogram({
      name: 'bff_upstream_request_duration_seconds',
      help: 'Attempts at an upstream call, by operation and outcome: ok, the upstream error code, timeout or network.',
      labelNames: ['operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'bff_webhook_attempts_total',
      help: 'Webhook delivery attempts, by event type and outcome: delivered, failed (retried later) or gave_up.',
      labelNames: ['type', 'outcome'],
      registers,
    }),
    checkoutTransitions: new Counter({
      name: 'bff_checkout_transitions_total',
      help: 'Checkouts this instance moved into each status (a new checkout counts in its first status).',
      labelNames: ['status'],
      registers,
    }),
    storeErrors: new Counter({
      name: 'bff_store_errors_total',
      help: 'Store operations that failed, by operation (get, insert, compareAndSet, compareAndDelete, increment).',
      labelNames: ['operation'],
      registers,
    }),
    fundingRefusals: new Counter({
      name: 'bff_funding_refusals_total',
      help: 'Checkouts and confirms refused by the funding check, by code and cap (session, address, account, unpaid, single_order, monthly_spend, balance).',
      labelNames: ['code', 'cap'],
      registers,
    }),
    upstreamBudgetRefusals: new Counter({
      name: 'bff_upstream_budget_refusals_total',
      help: 'Upstream calls the key budget refused before sending them, by share: address, session, widget, key, background, paused.',
      labelNames: ['share'],
      registers,
    }),
  };
}
