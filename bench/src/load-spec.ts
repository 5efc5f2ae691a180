/**
 * @module
 * What the harness asks of the load generator (`load-runner.ts`, its own process): requests to send, how
 * they vary (a pool of paths and headers taken in turn, a fresh `Idempotency-Key`, a forwarded client IP),
 * and the two measurements — an autocannon run for throughput and a sequential probe on one keep-alive
 * connection for latency with sub-millisecond resolution (autocannon's histogram counts whole ms).
 */

/** One variant of a request (a different session token, checkout, destination, …). */
export interface RequestVariant {
  path: string;
  headers?: Record<string, string>;
}

/** A load to send to one server. */
export interface LoadSpec {
  /** `http://127.0.0.1:port`. */
  baseUrl: string;
  method: 'GET' | 'POST';
  /** Taken in turn, request after request. */
  variants: RequestVariant[];
  /** Headers of every request. */
  headers?: Record<string, string>;
  body?: string;
  /** Adds a unique `Idempotency-Key` to every request. */
  idempotencyKey?: boolean;
  /** Adds a random `X-Forwarded-For` client address to every request (a BFF trusting one proxy hop). */
  forwardedFor?: boolean;
  /** Concurrent connections of the throughput run. */
  connections: number;
  /** Seconds of the throughput run. */
  durationSeconds: number;
  /** Seconds of load sent first and not counted (0: none). */
  warmupSeconds: number;
  /** Requests of the sequential latency probe (one connection, one request at a time). */
  probeRequests: number;
}

/** The `p`th percentile (0–100) of ascending `sorted`; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Latency percentiles in milliseconds. */
export interface Latency {
  p50: number;
  p99: number;
}

/** What one throughput run measured. */
export interface ThroughputResult {
  /** Requests per second (2xx and 3xx answers only). */
  rps: number;
  /** Latency under that load (autocannon, whole milliseconds). */
  loaded: Latency;
  /** Answers with a 4xx/5xx status, and connection errors. */
  failures: number;
  /** The statuses seen, with counts (`201: 41230`). */
  statuses: Record<string, number>;
  requests: number;
  /** CPU time the server under test used during the run (µs), when the harness measured it. */
  serverCpuMicros?: number;
}

/** What one sequential probe measured. */
export interface ProbeResult {
  /** Sub-millisecond latency of one request at a time on one keep-alive connection. */
  latency: Latency;
  failures: number;
  statuses: Record<string, number>;
}
