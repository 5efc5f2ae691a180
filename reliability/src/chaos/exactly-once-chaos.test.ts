/**
 * Exactly one order per checkout under chaos: 40 checkouts at once (20 `direct`, 20 `partner_confirm`), each
 * submitted twice concurrently, while the sandbox adds latency past the BFF's upstream timeout, answers 5xx,
 * drops connections before and after it committed the order, and fails the reconciliation lookups. Afterwards
 * every checkout is terminal or resumable, each confirmed one has exactly one upstream order, the others none,
 * and the sandbox holds no order that no checkout owns.
 */
import { SANDBOX_ACCOUNTS } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, CheckoutStatusSchema, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  TEST_ENV,
  testConfig,
  type WidgetPage,
} from '../harness/bff-testing';
import { recordFigures } from '../harness/figures';
import { findSecrets, serverSecrets } from '../harness/secret-scan';

const CHECKOUTS_PER_MODE = 20;
const UPSTREAM_TIMEOUT_MS = 500;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    sandbox: { faultInjection: true },
    config: (url) => {
      const config = testConfig(url);
      const limits = {
        sessionsPerIpPerMinute: 10_000,
        requestsPerSessionPerMinute: 100_000,
        checkoutsPerSession: 100,
        quotesPerSession: 1_000,
      };
      const upstream = {
        baseUrl: url,
        apiKeyEnv: 'TEST_UPSTREAM_KEY',
        timeoutMs: UPSTREAM_TIMEOUT_MS,
        maxRetries: 2,
        rateLimitPerMinute: 100_000,
      };
      return { ...config, widgets: config.widgets.map((widget) => ({ ...widget, upstream, limits })) };
    },
  });
  await stack.sandbox.control.setAccount(SANDBOX_ACCOUNTS.globetrotter, {
    balanceMinor: 1_000_000_000,
    singleOrderLimitMinor: null,
    monthlySpendLimitMinor: null,
  });
});
afterAll(async () => {
  await stack?.close();
});

interface Sale {
  widgetId: 'shop' | 'shop-pay';
  page: WidgetPage;
  quoteId: string;
  checkout?: { id: string; clientSecret: string };
  answers: Answer[];
}

async function prepare(widgetId: Sale['widgetId'], offerId: string): Promise<Sale> {
  const page = await openWidget(stack.server.url, widgetId);
  const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
  expect(quote.status).toBe(201);
  return { widgetId, page, quoteId: quote.body.data.id, answers: [] };
}

const FAULTS = [
  { kind: 'drop_after_commit', method: 'POST', path: '/orders', times: 8 },
  { kind: 'latency', method: 'POST', path: '/orders', latencyMs: UPSTREAM_TIMEOUT_MS + 400, times: 8 },
  { kind: 'error', method: 'POST', path: '/orders', status: 503, times: 12 },
  { kind: 'error', method: 'POST', path: '/orders', status: 500, times: 40 },
  { kind: 'drop', method: 'POST', path: '/orders', times: 6 },
  { kind: 'error', method: 'GET', path: '/orders', status: 500, times: 6 },
] as const;

describe('exactly once under chaos', () => {
  it('places exactly one order per confirmed checkout and none for the rest', async () => {
    const shop = await openWidget(stack.server.url, 'shop');
    const destinations = await shop.get('/v1/destinations');
    const plans = await shop.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    const offerId: string = plans.body.data[0].offerId;
    const sales = await Promise.all([
      ...Array.from({ length: CHECKOUTS_PER_MODE }, () => prepare('shop', offerId)),
      ...Array.from({ length: CHECKOUTS_PER_MODE }, () => prepare('shop-pay', offerId)),
    ]);
    const ordersBefore = (await stack.sandbox.control.state()).environments.test?.orders ?? 0;

    await stack.sandbox.control.setFaults(FAULTS.map((rule) => ({ ...rule })));
    const started = Date.now();
    await Promise.all(
      sales.map(async (sale, index) => {
        const body = { quoteId: sale.quoteId, locale: 'en', termsAccepted: true };
        // A double click: the same request twice at once — with the same key (a retry) or a new one (a re-submit).
        const keys = index % 2 === 0 ? [newKey(), newKey()] : Array(2).fill(newKey());
        const created = await Promise.all(
          keys.map((key) => sale.page.post('/v1/checkouts', body, { 'Idempotency-Key': key })),
        );
        sale.answers.push(...created);
        const winner = created.find((answer) => answer.status === 201);
        if (winner !== undefined) sale.checkout = winner.body.data;
        if (sale.widgetId === 'shop-pay' && sale.checkout !== undefined) {
          const id = sale.checkout.id;
          const partner = (action: 'confirm' | 'cancel') =>
            call(stack.server.url, `/v1/partner/checkouts/${id}/${action}`, {
              method: 'POST',
              headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
            });
          // The partner's server confirms twice at once (its own retry after a slow answer); one in four
          // payments never completes (no confirm), and one in four is cancelled while a confirm races it.
          const actions: Array<'confirm' | 'cancel'> =
            index % 4 === 1 ? [] : index % 4 === 3 ? ['confirm', 'cancel'] : ['confirm', 'confirm'];
          sale.answers.push(...(await Promise.all(actions.map(partner))));
        }
      }),
    );
    const chaosMs = Date.now() - started;
    const left = (await stack.sandbox.control.state()).faults;
    const injected = FAULTS.map((rule) => {
      const remaining =
        left.find(
          (other) =>
            other.kind === rule.kind &&
            other.method === rule.method &&
            (rule.kind !== 'error' || other.status === rule.status),
        )?.times ?? 0;
      return `${rule.kind}${rule.kind === 'error' ? ` ${rule.status}` : ''} on ${rule.method} ${rule.path}: ${rule.times - remaining}`;
    });
    await stack.sandbox.control.clearFaults();

    // Every answer during the chaos was an answer: a success, or an error envelope a client can act on.
    const answerStatuses = new Map<number, number>();
    for (const answer of sales.flatMap((sale) => sale.answers)) {
      answerStatuses.set(answer.status, (answerStatuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 400) expect(answer.body?.error?.code, answer.text).toBeTypeOf('string');
      expect(answer.status, answer.text).not.toBe(500);
    }
    const lost = sales.filter((sale) => sale.checkout === undefined);
    // A lost checkout is a create that never answered 201: it must have no order either (checked below).
    expect(lost.length).toBeLessThan(sales.length);

    // Once the upstream is healthy again, every checkout settles (ready, failed, cancelled, or still awaiting a
    // payment that never came): none stays placing.
    // Each traveller's widget polls its own checkout, all at once as they would.
    const finals = new Map<string, string>();
    const deadline = Date.now() + 45_000;
    await Promise.all(
      sales.map(async (sale) => {
        if (sale.checkout === undefined) return;
        const { id, clientSecret } = sale.checkout;
        for (;;) {
          const answer = await sale.page.get(`/v1/checkouts/${id}`, {
            [CHECKOUT_SECRET_HEADER]: clientSecret,
          });
          expect(answer.status).toBe(200);
          const status = CheckoutStatusSchema.parse(answer.body.data.status);
          if (!['placing', 'provisioning'].includes(status) || Date.now() > deadline) {
            finals.set(id, status);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }),
    );
    const resumable = ['placing', 'provisioning', 'awaiting_payment'];
    for (const status of finals.values())
      expect(['ready', 'failed', 'cancelled', 'expired', ...resumable]).toContain(status);

    const perCheckout = new Map<number, number>();
    let ownedOrders = 0;
    const ordersOf = await Promise.all(
      sales.map((sale) =>
        sale.checkout === undefined
          ? undefined
          : stack.bff.widgets.get(sale.widgetId)?.upstream.findOrdersByExternalRef(sale.checkout.id),
      ),
    );
    for (const [index, sale] of sales.entries()) {
      const id = sale.checkout?.id;
      const orders = ordersOf[index];
      if (id === undefined || orders === undefined) continue;
      perCheckout.set(orders.length, (perCheckout.get(orders.length) ?? 0) + 1);
      ownedOrders += orders.length;
      const status = finals.get(id);
      if (status === 'ready' || status === 'provisioning')
        expect(orders, `checkout ${id} (${status})`).toHaveLength(1);
      else expect(orders, `checkout ${id} (${status})`).toHaveLength(0);
    }
    const ordersAfter = (await stack.sandbox.control.state()).environments.test?.orders ?? 0;
    // No orphan: every order the sandbox took belongs to one checkout.
    expect(ordersAfter - ordersBefore).toBe(ownedOrders);
    const statusCounts = new Map<string, number>();
    for (const status of finals.values()) statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
    const confirmed = (statusCounts.get('ready') ?? 0) + (statusCounts.get('provisioning') ?? 0);
    expect(confirmed).toBeGreaterThan(0);
    expect(ownedOrders).toBe(confirmed);

    // Failures are logged with their causes: none of them may carry a secret.
    const book = serverSecrets(TEST_ENV, PARTNER_SECRET, stack.sessionSecret);
    sales.forEach((sale, index) => {
      book.set(`session token ${index}`, sale.page.token);
      if (sale.checkout !== undefined) book.set(`client secret ${index}`, sale.checkout.clientSecret);
    });
    expect(findSecrets(stack.logs, book)).toEqual([]);

    const list = (map: Map<string | number, number>) =>
      [...map]
        .sort(([a], [b]) => String(a).localeCompare(String(b)))
        .map(([key, count]) => `${key}×${count}`)
        .join(' ');
    recordFigures('exactly once under chaos', [
      [
        'checkouts (direct + partner_confirm)',
        `${sales.length - lost.length} (${CHECKOUTS_PER_MODE} + ${CHECKOUTS_PER_MODE} attempted, each submitted twice at once)`,
      ],
      ['creates that never answered 201 (retryable)', lost.length],
      ['answers during the chaos (status×count)', list(answerStatuses)],
      ...injected.map((line) => ['fault injected', line] as const),
      ['chaos phase', `${(chaosMs / 1000).toFixed(1)} s`],
      ['final checkout statuses', list(statusCounts)],
      ['upstream orders per checkout (orders×checkouts)', list(perCheckout)],
      ['orders for confirmed checkouts', `${ownedOrders} for ${confirmed} confirmed`],
      ['orphan upstream orders', ordersAfter - ordersBefore - ownedOrders],
      ['log lines searched for secrets', `${stack.logs.length} lines, ${book.size} secrets, 0 found`],
    ]);
  });
});
