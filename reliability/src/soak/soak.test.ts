/**
 * A bounded soak on loopback: autocannon drives new sessions, catalog reads and checkout status polling against a
 * BFF process for a minute (`RELIABILITY_SOAK_SECONDS`, default 60, to shorten it locally). No request may fail, and
 * after a settle and a full garbage collection the process's heap is back at its level from before the load.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER } from '@esim-embed/shared';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, startBffProcess } from '../harness/bff-process';
import {
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  TEST_ENV,
  testConfig,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { findSecrets } from '../harness/secret-scan';

const SOAK_SECONDS = Number(process.env.RELIABILITY_SOAK_SECONDS ?? 60);
const RATE_PER_SECOND = 300;
/** Heap growth allowed after the soak: GC timing and lazily built caches, not a leak (a leak grows per request). */
const HEAP_TOLERANCE_BYTES = 4 * 1024 * 1024;

let sandbox: RunningSandbox;
let bff: BffProcess;
const sessionSecret = randomBytes(32).toString('base64url');
const figures: Figure[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  const base = testConfig(sandbox.url);
  const limits = { sessionsPerIpPerMinute: 10_000, requestsPerSessionPerMinute: 100_000 };
  bff = await startBffProcess({
    config: { ...base, widgets: base.widgets.map((widget) => ({ ...widget, limits })) },
    env: { ...TEST_ENV, ESIM_BFF_SESSION_SECRET: sessionSecret },
    memoryProbe: true,
  });
});
afterAll(async () => {
  recordFigures('soak', figures);
  await bff?.kill();
  await sandbox?.close();
});

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

describe('soak', () => {
  it(
    `serves ${SOAK_SECONDS} s of sessions, catalog and status polling without an error or a leak`,
    async () => {
      const page = await openWidget(bff.url, 'shop');
      const destinations = await page.get('/v1/destinations');
      const code: string = destinations.body.data[0].code;
      const plans = await page.get(`/v1/destinations/${code}/plans`);
      const quote = await page.post(
        '/v1/quotes',
        { offerId: plans.body.data[0].offerId },
        { 'Idempotency-Key': newKey() },
      );
      const created = await page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      );
      const { id, clientSecret } = created.body.data as { id: string; clientSecret: string };
      await eventually(async () => {
        const answer = await page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
        return answer.body.data.status === 'ready' ? true : undefined;
      });
      const auth = { origin: SHOP_ORIGIN, authorization: `Bearer ${page.token}` };
      const requests: autocannon.Request[] = [
        {
          method: 'POST',
          path: '/v1/sessions',
          headers: { origin: SHOP_ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ widgetId: 'shop' }),
        },
        { method: 'GET', path: '/v1/destinations', headers: auth },
        { method: 'GET', path: `/v1/destinations/${code}/plans?locale=de`, headers: auth },
        {
          method: 'GET',
          path: `/v1/checkouts/${id}`,
          headers: { ...auth, [CHECKOUT_SECRET_HEADER]: clientSecret },
        },
      ];
      const load = (seconds: number) =>
        autocannon({
          url: bff.url,
          connections: 8,
          duration: seconds,
          overallRate: RATE_PER_SECOND,
          requests,
        });

      // Warm up (JIT, caches, first snapshot projections), then take the baseline.
      const warmup = await load(3);
      expect(warmup.non2xx + warmup.errors).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const before = await bff.memory();

      const result = await load(SOAK_SECONDS);
      const during = await bff.memory();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const after = await bff.memory();

      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      expect(result.non2xx).toBe(0);
      expect(result['2xx']).toBeGreaterThan(SOAK_SECONDS * RATE_PER_SECOND * 0.8);
      expect(after.heapUsed).toBeLessThan(before.heapUsed + HEAP_TOLERANCE_BYTES);

      const secrets = new Map([
        ['upstream API key', SANDBOX_KEYS.globetrotter],
        ['partner secret', PARTNER_SECRET],
        ['session-signing secret', sessionSecret],
        ['session token', page.token],
        ['client secret', clientSecret],
      ]);
      expect(findSecrets(bff.logs, secrets)).toEqual([]);

      figures.push(
        ['duration', `${SOAK_SECONDS} s`],
        [
          'load',
          `${RATE_PER_SECOND} req/s over 8 connections: sessions, destinations, plans, status polling`,
        ],
        [
          'requests',
          `${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
        ],
        [
          'latency',
          `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
        ],
        [
          'heap after GC: before / during / after',
          `${mb(before.heapUsed)} / ${mb(during.heapUsed)} / ${mb(after.heapUsed)} (tolerance +${mb(HEAP_TOLERANCE_BYTES)})`,
        ],
        ['RSS: before / after', `${mb(before.rss)} / ${mb(after.rss)}`],
        ['log lines searched for secrets', `${bff.logs.length}, 0 found`],
      );
    },
    60_000 + SOAK_SECONDS * 2_000,
  );
});
