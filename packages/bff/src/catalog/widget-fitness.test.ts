/**
 * The upstream key's capabilities decide what a widget offers, over HTTP against the sandbox: a key without
 * `esims:read`, a live key on a test widget or a key bound to another brand stop the widget (`/readyz` names
 * the check, sessions are refused with `widget_misconfigured`) before anyone pays; `supplyOperations` and
 * `contractStatus`, set by a relay, decide whether new eSIMs and top-ups are offered.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim, myEsim } from '../../testing/after-sale-flow';
import {
  call,
  newKey,
  openWidget,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  testConfig,
} from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import type { BffConfigInput } from '../config/config-schema';

const OPERATIONS_TOKEN = `ops-${randomBytes(24).toString('base64url')}`;
const OPERATIONS = { Authorization: `Bearer ${OPERATIONS_TOKEN}` };
const ENV = {
  TEST_OPERATIONS_TOKEN: OPERATIONS_TOKEN,
  TEST_LIMITED_KEY: SANDBOX_KEYS.globetrotterLimited,
  TEST_LIVE_KEY: SANDBOX_KEYS.globetrotterLive,
  TEST_AURORA_KEY: SANDBOX_KEYS.aurora,
};

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('a widget whose key cannot sell as configured', () => {
  let bff: RunningBff;
  beforeAll(async () => {
    const base = testConfig(sandbox.url);
    const widget = (id: string, apiKeyEnv: string, upstream: object = {}) => ({
      id,
      displayName: id,
      environment: 'test' as const,
      // A timeout no busy machine reaches (a slow start-up sync would read as `upstream_unavailable`).
      upstream: { baseUrl: sandbox.url, apiKeyEnv, timeoutMs: 30_000, maxRetries: 0, ...upstream },
      allowedOrigins: [SHOP_ORIGIN],
      checkoutMode: 'direct' as const,
    });
    const config: BffConfigInput = {
      ...base,
      operationsTokenEnv: 'TEST_OPERATIONS_TOKEN',
      widgets: [
        ...base.widgets,
        widget('no-esims', 'TEST_LIMITED_KEY'),
        widget('live-key', 'TEST_LIVE_KEY'),
        widget('other-brand', 'TEST_AURORA_KEY', { brandKey: 'harbour-mobile' }),
        widget('own-brand', 'TEST_AURORA_KEY', { brandKey: 'aurora-travel' }),
      ],
    };
    bff = await startBff(sandbox.url, { sessionSecret: randomBytes(32), config: () => config, env: ENV });
  });
  afterAll(async () => {
    await bff?.server.close();
  });

  it('fails /readyz naming the check of each stopped widget', async () => {
    const answer = await call(bff.server.url, '/readyz', { headers: OPERATIONS });
    expect(answer.status).toBe(503);
    expect(answer.body.checks).toMatchObject({
      'widget:shop': 'ok',
      'widget:own-brand': 'ok',
      'widget:no-esims': 'scope_missing',
      'widget:live-key': 'environment_mismatch',
      'widget:other-brand': 'brand_mismatch',
    });
  });

  it.each(['no-esims', 'live-key', 'other-brand'])(
    'refuses sessions of %s before anyone pays',
    async (id) => {
      const answer = await call(bff.server.url, '/v1/sessions', {
        method: 'POST',
        headers: { Origin: SHOP_ORIGIN },
        body: { widgetId: id },
      });
      expect(answer.status).toBe(503);
      expect(answer.body.error).toEqual({ code: 'widget_misconfigured', params: { widgetId: id } });
      const said = bff.logs.filter(
        (line) => line.includes(`"widgetId":"${id}"`) && line.includes('widget stopped'),
      );
      expect(said.length).toBeGreaterThan(0);
    },
  );

  it('opens sessions of the widgets whose key fits', async () => {
    expect((await openWidget(bff.server.url, 'own-brand')).session.widget.widgetId).toBe('own-brand');
    expect((await openWidget(bff.server.url, 'shop')).session.widget.widgetId).toBe('shop');
  });
});

describe('what the upstream supplies', () => {
  let relay: TestRelay;
  let bff: RunningBff;
  /** The capabilities' supply operations and contract status, as the relay rewrites them. */
  let supply: { issue?: string; topUp?: string; contractStatus?: string } = {};
  beforeAll(async () => {
    relay = await startTestRelay(sandbox.url);
    relay.hooks.rewrite = (request, body) => {
      if (!request.path.endsWith('/capabilities')) return body;
      const answer = body as {
        data: { contractStatus: string; supplyOperations: { id: string; availability: string }[] };
      };
      const availability = { issue: supply.issue, top_up: supply.topUp } as Record<
        string,
        string | undefined
      >;
      answer.data.supplyOperations = answer.data.supplyOperations.map((operation) => ({
        ...operation,
        availability: availability[operation.id] ?? operation.availability,
      }));
      answer.data.contractStatus = supply.contractStatus ?? answer.data.contractStatus;
      return answer;
    };
    bff = await startBff(relay.url, { sessionSecret: randomBytes(32) });
  });
  afterAll(async () => {
    await bff?.server.close();
    await relay?.close();
  });

  const refresh = async (next: typeof supply) => {
    supply = next;
    await bff.bff.widgets.get('shop')?.catalog.refresh({ force: true });
  };

  it('offers no top-up when top_up is unavailable, and the top-up quote is refused', async () => {
    await refresh({});
    const page = await openWidget(bff.server.url, 'shop');
    const bought = await buyEsim(page);
    expect((await myEsim(page, bought.manageToken)).body.data.topUp.offers.length).toBeGreaterThan(0);
    await refresh({ topUp: 'unavailable' });
    const mine = await myEsim(page, bought.manageToken);
    expect(mine.status).toBe(200);
    expect(mine.body.data.topUp).toEqual({ status: 'not_enabled', retryable: false, offers: [] });
    const quote = await page.post(
      '/v1/quotes',
      { offerId: bought.plan.offerId, esimId: bought.esimId },
      { 'Idempotency-Key': newKey(), 'X-Manage-Token': bought.manageToken },
    );
    expect(quote.body.error?.code).toBe('action_not_available');
  });

  it('sells nothing when issue is unavailable, and logs a preview contract', async () => {
    await refresh({ issue: 'unavailable', contractStatus: 'preview' });
    const page = await openWidget(bff.server.url, 'shop');
    const destinations = await page.get('/v1/destinations?locale=en');
    expect(destinations.status).toBe(403);
    expect(destinations.body.error).toMatchObject({
      code: 'storefront_app_disabled',
      params: { reason: 'supply_not_sellable', availability: 'unavailable' },
    });
    expect(bff.logs.some((line) => line.includes('contract is in preview'))).toBe(true);
    expect(bff.logs.some((line) => line.includes('new eSIMs cannot be sold through the API'))).toBe(true);
    await refresh({});
    expect((await page.get('/v1/destinations?locale=en')).body.data.length).toBeGreaterThan(0);
  });
});
