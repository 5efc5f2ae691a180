/**
 * @module
 * The test config of the scenarios that kill a BFF process while the sandbox holds its order request: what the
 * killed instance held is taken over sooner than in production, and the upstream call outlasts the held request.
 */
import type { BffConfigInput } from '@esim-embed/bff';
import { testConfig } from './bff-testing';

/**
 * How long a dead instance's work (a create under its `Idempotency-Key`, a placement) stays its own: shorter than
 * the production default (5 s), so that the takeover comes sooner; the same mechanism either way.
 */
export const TAKEOVER_AFTER_MS = 2_500;

/**
 * The test config on `sandboxUrl` with {@link TAKEOVER_AFTER_MS}, no status cache, and every widget's upstream
 * waiting for an order request the sandbox holds `orderLatencyMs` (one retry, no rate limit in the way).
 */
export function killedInstanceConfig(sandboxUrl: string, orderLatencyMs: number): BffConfigInput {
  const base = testConfig(sandboxUrl);
  const upstream = {
    baseUrl: sandboxUrl,
    apiKeyEnv: 'TEST_UPSTREAM_KEY',
    timeoutMs: orderLatencyMs + 3_000,
    maxRetries: 1,
    rateLimitPerMinute: 100_000,
  };
  return {
    ...base,
    statusCacheMs: 0,
    takeoverAfterMs: TAKEOVER_AFTER_MS,
    widgets: base.widgets.map((widget) => ({ ...widget, upstream })),
  };
}
