/**
 * Webhook deliveries and help requests written by the release before the partner lists (records without their
 * newer fields, no index entries) in a memory store, an embedded (SQLite) store and a real Redis: a BFF started on
 * them indexes them once at its start — a help request of that release is read from the upstream for its view, an
 * ended one included — and the partner's desk lists them, filters too, over HTTP against the real sandbox. Two BFFs
 * started together on one Redis build once between them (one scans, the other waits for its mark); a lease left
 * by a builder that died is taken over once it runs out; a stop while the build waits on an upstream that does not
 * answer waits no longer than its bound, and the next start builds.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARTNER_SECRET_HEADER, type PartnerActionRequest } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim } from '../../testing/after-sale-flow';
import { startHoldingServer } from '../../testing/holding-server';
import {
  type RunningRedis,
  type RunningRedisCluster,
  startRedisCluster,
  startRedisServer,
} from '../../testing/redis-server';
import {
  call,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  type Stack,
  startBff,
  startStack,
  testConfig,
  UNANSWERED_UPSTREAM,
  withUpstream,
} from '../../testing/stack';
import { postingWebhooksTo, startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { eventId } from '../webhooks/webhook-events';
import { createMemoryStore } from './memory-store';
import { createRedisStore } from './redis-store';
import { openSqliteStore } from './sqlite-store';
import { STORE_KEYS, type Store } from './store';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const root = mkdtempSync(join(tmpdir(), 'esim-index-rebuild-'));
let receiver: WebhookReceiver;
let redis: RunningRedis;
let cluster: RunningRedisCluster;
let stack: Stack;
/** What the release before left in its store: keys and values as it wrote them. */
let lastMonths: Map<string, string>;
/** What a BFF that indexed them itself lists (each item's id, checkout and eSIM, in order, by list and filter). */
let expected: Record<string, string[]>;
let rejected: PartnerActionRequest;
/** The help request still open (under review). */
let reviewed: PartnerActionRequest;

const config = (url: string) => postingWebhooksTo(testConfig(url), receiver.url);
const env = { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET };

/** The lists and filters compared: the deliveries by state and type, the help requests by status and eSIM. */
let lists: string[];

const asPartner = (url: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
  call(url, path, {
    method,
    body,
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
  });
async function itemsOf(url: string, path: string): Promise<string[]> {
  const answer = await asPartner(url, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=100`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map(
    (item: { id: string; checkoutId?: string | null; esimId: string | null }) =>
      `${item.id} checkout ${item.checkoutId} eSIM ${item.esimId}`,
  );
}
async function listed(url: string): Promise<Record<string, string[]>> {
  const answers: Record<string, string[]> = {};
  for (const path of lists) answers[path] = await itemsOf(url, path);
  return answers;
}

/** A record as the release before the desk wrote it (its later fields dropped; its indexes never written). */
function asLastMonthsRelease(key: string, value: string): string {
  const record = JSON.parse(value);
  if (key.startsWith(STORE_KEYS.webhookDelivery(''))) {
    const { schemaVersion, checkoutId, esimId, history, resentAtMs, ...before } = record;
    return JSON.stringify(before);
  }
  if (key.startsWith(STORE_KEYS.actionRequest(''))) {
    const { id, widgetId, esimId, status, updatedAt } = record;
    return JSON.stringify({ schemaVersion: 1, id, widgetId, esimId, status, updatedAt });
  }
  const { indexedAt, ...before } = record;
  return JSON.stringify(before);
}

async function keysOf(store: Store, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { keys: string[]; cursor: string | null } = await store.scanKeys(prefix, cursor, 100);
    keys.push(...page.keys);
    cursor = page.cursor;
  } while (cursor !== null);
  return keys;
}

/** Write last month's records into `store` as that release did: the records alone. */
async function writeLastMonths(store: Store): Promise<void> {
  for (const [key, value] of lastMonths)
    expect(await store.insert(key, value, 24 * 60 * 60 * 1000)).toBe(true);
}

/** `store`, noting every key scan asked of it: its prefix and when. */
function countingScans(store: Store): { store: Store; scans: { prefix: string; atMs: number }[] } {
  const scans: { prefix: string; atMs: number }[] = [];
  const counted: Store = new Proxy(store, {
    get(target, operation, receiver) {
      if (operation === 'scanKeys') {
        return (prefix: string, cursor: string | null, count: number) => {
          scans.push({ prefix, atMs: Date.now() });
          return target.scanKeys(prefix, cursor, count);
        };
      }
      const value = Reflect.get(target, operation, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: counted, scans };
}

const startOn = (store: Store) =>
  startBff(stack.sandbox.url, {
    config,
    env,
    sessionSecret: stack.sessionSecret,
    store,
    bffOptions: { startWorkers: false },
  });

beforeAll(async () => {
  receiver = await startReceiver(0);
  [redis, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
  // A BFF of this release makes the records (and indexes them itself: its lists are what the rebuilt ones must
  // show). No background work: only what the test does changes them.
  stack = await startStack({ config, env, bffOptions: { startWorkers: false } });
  const url = stack.server.url;
  const page = await openWidget(url, 'shop');
  const first = await buyEsim(page);
  await stack.bff.webhookSender.deliverDue();
  const second = await buyEsim(page);
  const ask = async (esimId: string) => {
    const created = await asPartner(url, 'POST', `/v1/partner/esims/${esimId}/action-requests`, {
      reasonCode: 'service_defective',
    });
    expect(created.status, created.text).toBe(201);
    return created.body.data as PartnerActionRequest;
  };
  const older = await ask(first.esimId);
  // Distinct creation times upstream, so that "newest first" is one order.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const open = await ask(second.esimId);
  // The older one ends (rejected) and the BFF reads it so: the release before stopped following it then.
  await stack.sandbox.control.resolveActionRequest(older.id, {
    outcome: 'rejected',
    resolution: { code: 'service_confirmed', note: 'The network logs show data use.' },
  });
  const read = await asPartner(url, 'GET', `/v1/partner/action-requests/${older.id}`);
  expect(read.body.data.status).toBe('rejected');
  rejected = read.body.data;
  // The open one as the release before last read it: under review (the sandbox reviews at once).
  const review = await asPartner(url, 'GET', `/v1/partner/action-requests/${open.id}`);
  expect(review.body.data.status).toBe('in_review');
  reviewed = review.body.data;

  lists = [
    '/v1/partner/webhook-deliveries',
    '/v1/partner/webhook-deliveries?status=delivered',
    '/v1/partner/webhook-deliveries?status=pending',
    '/v1/partner/webhook-deliveries?type=esim.ready',
    '/v1/partner/webhook-deliveries?type=action_request.updated',
    `/v1/partner/webhook-deliveries?checkoutId=${first.checkoutId}`,
    '/v1/partner/action-requests',
    '/v1/partner/action-requests?status=rejected',
    '/v1/partner/action-requests?status=in_review',
    `/v1/partner/action-requests?esimId=${second.esimId}`,
  ];
  expected = await listed(url);
  expect(expected['/v1/partner/action-requests']?.map((item) => item.split(' ')[0])).toEqual([
    open.id,
    older.id,
  ]);
  expect(expected[`/v1/partner/webhook-deliveries?checkoutId=${first.checkoutId}`]?.length).toBeGreaterThan(
    0,
  );
  expect(expected['/v1/partner/webhook-deliveries?status=delivered']?.length).toBeGreaterThan(0);
  expect(expected['/v1/partner/webhook-deliveries?status=pending']?.length).toBeGreaterThan(0);

  lastMonths = new Map();
  for (const prefix of [
    STORE_KEYS.checkout(''),
    STORE_KEYS.webhookDelivery(''),
    STORE_KEYS.actionRequest(''),
  ]) {
    for (const key of await keysOf(stack.bff.store, prefix)) {
      const stored = await stack.bff.store.get(key);
      if (stored !== null) lastMonths.set(key, asLastMonthsRelease(key, stored.value));
    }
  }
  // One that release could write and this one cannot read: skipped, as a read of it by id fails.
  lastMonths.set(STORE_KEYS.webhookDelivery('evt_unreadable'), '{"id":"evt_unreadable"');
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await Promise.all([redis?.stop(), cluster?.stop()]);
  await receiver?.close();
  rmSync(root, { recursive: true, force: true });
});

/** How many records of each kind last month's store holds that this release reads. */
const readable = () => {
  const count = (prefix: string) =>
    [...lastMonths.keys()].filter(
      (key) => key.startsWith(prefix) && key !== 'webhook-delivery:evt_unreadable',
    ).length;
  return {
    checkout: count(STORE_KEYS.checkout('')),
    'webhook-delivery': count(STORE_KEYS.webhookDelivery('')),
    'action-request': count(STORE_KEYS.actionRequest('')),
    // The sales ledger: no sale records yet, and every checkout read once for the sale it may be.
    sale: count(STORE_KEYS.sale('')),
    'checkout-sale': count(STORE_KEYS.checkout('')),
  };
};

describe('records of the release before the support desk', () => {
  const stores: Record<string, () => Store> = {
    memory: () => createMemoryStore(),
    embedded: () => openSqliteStore({ dataDir: mkdtempSync(join(root, 'data-')) }),
    redis: () => createRedisStore({ url: redis.url, keyPrefix: `old-${randomBytes(4).toString('hex')}:` }),
    // Its records spread over three primaries: the rebuild scans each.
    'redis cluster': () =>
      createRedisStore({
        target: cluster.target,
        keyPrefix: `old-${randomBytes(4).toString('hex')}:`,
        connectWaitMs: 5_000,
      }),
  };

  it.each(Object.keys(stores))(
    'in a %s store are indexed at start and listed, ended help requests too',
    async (name) => {
      const store = (stores[name] as () => Store)();
      await writeLastMonths(store);
      const bff = await startOn(store);
      try {
        expect(await bff.bff.indexesBuilt).toEqual(readable());
        expect(await listed(bff.server.url)).toEqual(expected);
        // The ended help request as the upstream has it (read for its view: the release before kept none).
        const [ended] = (
          await asPartner(bff.server.url, 'GET', '/v1/partner/action-requests?status=rejected')
        ).body.data;
        expect(ended).toEqual(rejected);
      } finally {
        await bff.server.close();
      }
    },
  );
});

describe('a help request whose status moved while the release before was stopped', () => {
  it('is observed as the watch would: told to the partner, listed under its new status', async () => {
    // The release before last read it `requested` (and told that); the upstream has it under review since.
    const told = STORE_KEYS.webhookDelivery(eventId(`${reviewed.id}:in_review`, 'action_request.updated'));
    const key = STORE_KEYS.actionRequest(reviewed.id);
    const store = createMemoryStore();
    for (const [name, value] of lastMonths) {
      if (name === told) continue;
      const before = name === key ? JSON.stringify({ ...JSON.parse(value), status: 'requested' }) : value;
      await store.insert(name, before, 24 * 60 * 60 * 1000);
    }
    const bff = await startOn(store);
    try {
      expect((await bff.bff.indexesBuilt)['action-request']).toBe(2);
      const underReview = await asPartner(
        bff.server.url,
        'GET',
        '/v1/partner/action-requests?status=in_review',
      );
      expect(underReview.body.data).toEqual([reviewed]);
      expect(await itemsOf(bff.server.url, '/v1/partner/action-requests?status=requested')).toEqual([]);
      const delivery = await store.get(told);
      expect(JSON.parse(delivery?.value ?? '{}')).toMatchObject({
        type: 'action_request.updated',
        state: 'pending',
      });
    } finally {
      await bff.server.close();
    }
  });
});

describe('two BFFs started together on one Redis', () => {
  it('build once between them (one scans, the other waits for its mark) and both list everything', async () => {
    const keyPrefix = `two-${randomBytes(4).toString('hex')}:`;
    const setUp = createRedisStore({ url: redis.url, keyPrefix });
    await writeLastMonths(setUp);
    await setUp.close();
    const [a, b] = [
      countingScans(createRedisStore({ url: redis.url, keyPrefix })),
      countingScans(createRedisStore({ url: redis.url, keyPrefix })),
    ];
    // Started in the same tick: both ask for the marks before either could have set one.
    const [one, two] = await Promise.all([startOn(a.store), startOn(b.store)]);
    try {
      const [builtOne, builtTwo] = await Promise.all([one.bff.indexesBuilt, two.bff.indexesBuilt]);
      for (const [kind, count] of Object.entries(readable())) {
        const byKind = [builtOne[kind as keyof typeof builtOne], builtTwo[kind as keyof typeof builtTwo]];
        expect(byKind.sort(), kind).toEqual([0, count]);
      }
      // Each kind's build reads its few records in one page, on one instance: the other waits for its mark. The
      // checkouts are read by two builds, their indexes' and the sales ledger's.
      for (const [prefix, builds] of [
        [STORE_KEYS.checkout(''), 2],
        [STORE_KEYS.webhookDelivery(''), 1],
        [STORE_KEYS.actionRequest(''), 1],
        [STORE_KEYS.sale(''), 1],
      ] as const) {
        const scanned = [a.scans, b.scans].map(
          (scans) => scans.filter((scan) => scan.prefix === prefix).length,
        );
        expect(
          scanned.reduce((sum, count) => sum + count, 0),
          prefix,
        ).toBe(builds);
      }
      expect(await listed(one.server.url)).toEqual(expected);
      expect(await listed(two.server.url)).toEqual(expected);
    } finally {
      await one.server.close();
      await two.server.close();
    }
  });

  it('take the build over once the lease of a builder that died runs out', async () => {
    const keyPrefix = `dead-${randomBytes(4).toString('hex')}:`;
    const setUp = createRedisStore({ url: redis.url, keyPrefix });
    await writeLastMonths(setUp);
    const leaseMs = 1_500;
    const leftAt = Date.now();
    await setUp.insert(STORE_KEYS.indexBuildLease('webhook-delivery'), 'a builder that died', leaseMs);
    const counted = countingScans(createRedisStore({ url: redis.url, keyPrefix }));
    const bff: RunningBff = await startOn(counted.store);
    try {
      expect(await bff.bff.indexesBuilt).toEqual(readable());
      // Not one scan of the deliveries while the dead builder's lease stood.
      const scannedAt = counted.scans
        .filter((scan) => scan.prefix === STORE_KEYS.webhookDelivery(''))
        .map((scan) => scan.atMs);
      expect(scannedAt.length).toBeGreaterThan(0);
      expect(Math.min(...scannedAt) - leftAt).toBeGreaterThanOrEqual(leaseMs);
      expect(await listed(bff.server.url)).toEqual(expected);
      expect(await setUp.get(STORE_KEYS.indexBuilt('webhook-delivery'))).not.toBeNull();
    } finally {
      await bff.server.close();
      await setUp.close();
    }
  });
});

describe('a stop while the build waits on the upstream', () => {
  it('waits for it no longer than the stop’s bound, and the next start builds again', async () => {
    // An upstream that takes every request and answers none within the test: the help request's read waits.
    const silent = await startHoldingServer();
    // The embedded store: a restart opens the same state again.
    const dataDir = mkdtempSync(join(root, 'stop-'));
    const store = openSqliteStore({ dataDir });
    await writeLastMonths(store);
    const bff = await startBff(silent.url, {
      config: (url) => withUpstream(config(url), UNANSWERED_UPSTREAM),
      env,
      sessionSecret: stack.sessionSecret,
      store,
      bffOptions: { startWorkers: false, stopWaitMs: 300 },
    });
    try {
      const startedAt = Date.now();
      await bff.server.close();
      expect(Date.now() - startedAt).toBeLessThan(3_000);
      const warning = bff.logs.find((line) => line.includes('background work still running at the stop'));
      expect(JSON.parse(warning as string)).toMatchObject({
        running: expect.arrayContaining(['index build']),
      });
    } finally {
      await silent.close();
    }
    // Not marked built: the next start, on an upstream that answers, indexes everything.
    const reopened = openSqliteStore({ dataDir });
    expect(await reopened.get(STORE_KEYS.indexBuilt('action-request'))).toBeNull();
    const again = await startOn(reopened);
    try {
      await again.bff.indexesBuilt;
      expect(await listed(again.server.url)).toEqual(expected);
    } finally {
      await again.server.close();
    }
  }, 30_000);
});
