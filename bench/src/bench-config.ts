/**
 * @module
 * The BFF config the load runs use: one `direct` widget on the sandbox's Blue Lagoon account (no order
 * limits, a large balance), its per-IP and per-session limits at their maximum so that one load generator
 * on one address measures the routes rather than the limiter, one trusted proxy hop so the sessions run can
 * present many client addresses, and status polls passed through to the upstream (`statusCacheMs: 0`).
 */
import type { BffConfigInput } from '@esim-embed/bff';
import { SANDBOX_KEYS } from '@esim-embed/sandbox';

/** The origin the load's widget pages claim. */
export const BENCH_ORIGIN = 'https://shop.example';
/** The bench widget's id. */
export const BENCH_WIDGET = 'bench';
/** The env the bench config's secrets are read from. */
export const BENCH_ENV = { BENCH_UPSTREAM_KEY: SANDBOX_KEYS.lagoon };

/** The bench config against the sandbox at `sandboxUrl`. */
export function benchConfig(sandboxUrl: string, overrides: Partial<BffConfigInput> = {}): BffConfigInput {
  return {
    trustedProxyHops: 1,
    statusCacheMs: 0,
    // One load generator: the upstream budget's shares per address, session and widget are the whole key.
    upstreamBudget: { addressPercent: 100, sessionPercent: 100, widgetPercent: 100 },
    widgets: [
      {
        id: BENCH_WIDGET,
        displayName: 'Bench Shop',
        environment: 'test',
        upstream: {
          baseUrl: sandboxUrl,
          apiKeyEnv: 'BENCH_UPSTREAM_KEY',
          timeoutMs: 10_000,
          rateLimitPerMinute: 1_000_000,
        },
        allowedOrigins: [BENCH_ORIGIN],
        checkoutMode: 'direct',
        limits: {
          sessionsPerIpPerMinute: 10_000,
          requestsPerSessionPerMinute: 100_000,
          quotesPerSession: 1_000,
          checkoutsPerSession: 100,
        },
      },
    ],
    ...overrides,
  };
}
