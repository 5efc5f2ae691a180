/**
 * The catalog's session reads (`GET /v1/destinations…` with a token) kept by the answer cache as the public
 * catalog's are, against the real sandbox: one answer per widget and page origin, served to every session of it
 * with its own request id; never to a token the session auth would refuse there (issued to another origin, of
 * another widget, expired); and every kept read spends its session's rate limit.
 */
import { ApiErrorEnvelopeSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  openWidget,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testClock,
  testConfig,
} from '../../testing/stack';

/** A second page origin the widgets allow. */
const OTHER_SHOP = 'https://other-shop.example';
const clock = testClock();
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    bffOptions: { now: clock.now },
    config: (url) => {
      const config = testConfig(url);
      const shop = config.widgets[0] as (typeof config.widgets)[number];
      return {
        ...config,
        widgets: [
          ...config.widgets,
          { ...shop, id: 'two-shops', allowedOrigins: [SHOP_ORIGIN, OTHER_SHOP] },
          // Same origin, other prices: its catalog reads differ from `two-shops`' at the same address.
          {
            ...shop,
            id: 'marked-up',
            allowedOrigins: [SHOP_ORIGIN],
            pricing: { kind: 'markup' as const, percent: 30, rounding: 'ninety_nine' as const },
          },
          { ...shop, id: 'chatty', limits: { requestsPerSessionPerMinute: 40 } },
        ],
      };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(ApiErrorEnvelopeSchema.parse(answer.body).error.code).toBe(code);
}

describe('session reads of the catalog, kept', () => {
  it('keeps one answer per widget and origin, each session its own request id, another widget’s session its own', async () => {
    const keptBefore = stack.bff.answers.size;
    const page = await openWidget(stack.server.url, 'two-shops');
    const first = await page.get('/v1/destinations');
    expect(first.status).toBe(200);
    expect(stack.bff.answers.size).toBe(keptBefore + 1);
    const another = await openWidget(stack.server.url, 'two-shops');
    const again = await another.get('/v1/destinations');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    expect(again.body.meta.requestId).toBe(again.headers.get('x-request-id'));
    expect(again.body.meta.requestId).not.toBe(first.body.meta.requestId);
    expect(stack.bff.answers.size).toBe(keptBefore + 1);

    // A token of another widget that allows the same origin, at the same address: its widget's answer.
    const marked = await openWidget(stack.server.url, 'marked-up');
    const theirs = await marked.get('/v1/destinations');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).not.toEqual(first.body.data);
    expect(stack.bff.answers.size).toBe(keptBefore + 2);
    for (let round = 0; round < 2; round += 1) {
      expect((await marked.get('/v1/destinations')).body.data).toEqual(theirs.body.data);
      expect((await page.get('/v1/destinations')).body.data).toEqual(first.body.data);
    }
  });

  it('spends the session’s rate limit on every kept read', async () => {
    const keptBefore = stack.bff.answers.size;
    const page = await openWidget(stack.server.url, 'chatty');
    const statuses: number[] = [];
    for (let index = 0; index < 42; index += 1) statuses.push((await page.get('/v1/destinations')).status);
    expect(stack.bff.answers.size).toBe(keptBefore + 1);
    expect(statuses.slice(0, 40)).toEqual(Array(40).fill(200));
    expect(statuses.slice(40)).toEqual([429, 429]);
  });

  it('refuses a kept read to a token issued to another origin, and to one whose session ended', async () => {
    const keptBefore = stack.bff.answers.size;
    const onOther = await openWidget(stack.server.url, 'two-shops', OTHER_SHOP);
    expect((await onOther.get('/v1/destinations')).status).toBe(200);
    expect(stack.bff.answers.size).toBe(keptBefore + 1);
    const onShop = await openWidget(stack.server.url, 'two-shops', SHOP_ORIGIN);
    expect((await onShop.get('/v1/destinations')).status).toBe(200);
    // The shop's token from the other shop's page, whose answer is kept: refused as the app refuses it.
    const replayed = await call(stack.server.url, '/v1/destinations', {
      headers: { Origin: OTHER_SHOP, Authorization: `Bearer ${onShop.token}` },
    });
    expectError(replayed, 401, 'widget_session_invalid');
    // Past the session's 15 minutes (the catalog refreshed meanwhile is kept again by a live session's read).
    clock.advance(15 * 60_000 + 1_000);
    expectError(await onShop.get('/v1/destinations'), 401, 'widget_session_invalid');
    const fresh = await openWidget(stack.server.url, 'two-shops', SHOP_ORIGIN);
    expect((await fresh.get('/v1/destinations')).status).toBe(200);
    expect((await fresh.get('/v1/destinations')).status).toBe(200);
    expectError(await onShop.get('/v1/destinations'), 401, 'widget_session_invalid');
  });
});
