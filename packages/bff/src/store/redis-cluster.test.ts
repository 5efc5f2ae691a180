/**
 * The Redis store on a real Redis Cluster (three primaries with a replica each, started once for the file): keys
 * are scanned and exported from every primary (and imported back), the durability check reads every primary, a BFF on the cluster sells with no 500, a slot moved from one
 * primary to another while the store writes to it answers only successes or `StoreUnavailableError` (503) and
 * loses nothing, and a primary killed is answered 503 until its replica is promoted, then served.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedisCluster, startRedisCluster } from '../../testing/redis-server';
import { call, eventually, newKey, openWidget, startBff } from '../../testing/stack';
import { readRedisDurability } from './redis-durability';
import { redisStateTransfer } from './redis-state-transfer';
import { createRedisStore } from './redis-store';
import type { StateRecord } from './state-transfer';
import { type Store, StoreUnavailableError } from './store';

const TTL_MS = 600_000;

let cluster: RunningRedisCluster;
const opened: Store[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await cluster?.stop();
});

/** A store on the cluster under a prefix of its own (closed after the file). */
function clusterStore(keyPrefix = `cluster-${randomBytes(4).toString('hex')}:`): Store {
  // Two seconds per command, not half of one: six nodes, a BFF and a sandbox share a busy machine here, and a write
  // held up longer than half the timeout is refused as late (503) — right in production, noise in these tests.
  const store = createRedisStore({
    target: cluster.target,
    keyPrefix,
    connectWaitMs: 5_000,
    commandTimeoutMs: 2_000,
  });
  opened.push(store);
  return store;
}

/** Runs `operation`; a refusal must be a 503's ({@link StoreUnavailableError}). Answers whether it succeeded. */
async function servedOrUnavailable<T>(
  operation: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await operation() };
  } catch (error) {
    expect(error).toBeInstanceOf(StoreUnavailableError);
    return { ok: false };
  }
}

describe('the Redis store on a cluster', () => {
  it('scans and exports the keys of every primary, not only one', async () => {
    const keyPrefix = `scan-${randomBytes(4).toString('hex')}:`;
    const store = clusterStore(keyPrefix);
    const names = Array.from({ length: 40 }, (_, index) => `entry:${index}`);
    for (const name of names) expect(await store.insert(name, `value of ${name}`, TTL_MS)).toBe(true);
    const slots = await Promise.all(names.map((name) => cluster.slotOf(`${keyPrefix}${name}`)));
    const owners = new Set(await Promise.all(slots.map((slot) => cluster.primaryOf(slot))));
    expect(owners.size).toBe(3);

    const scanned: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { keys: string[]; cursor: string | null } = await store.scanKeys('entry:', cursor, 7);
      scanned.push(...page.keys);
      cursor = page.cursor;
    } while (cursor !== null);
    expect([...new Set(scanned)].sort()).toEqual([...names].sort());

    const transfer = redisStateTransfer({ target: cluster.target, keyPrefix, store });
    const records: StateRecord[] = [];
    try {
      for await (const record of transfer.exportState()) records.push(record);
    } finally {
      await transfer.close();
    }
    const exported = records.flatMap((record) => (record.type === 'entry' ? [record.key] : []));
    expect(exported.sort()).toEqual([...names].sort());

    // Imported under another prefix on the same cluster: every entry lands, on whichever primary holds its slot.
    const movedPrefix = `moved-${randomBytes(4).toString('hex')}:`;
    const moved = clusterStore(movedPrefix);
    const into = redisStateTransfer({ target: cluster.target, keyPrefix: movedPrefix, store: moved });
    try {
      const counts = await into.importState(
        (async function* () {
          yield* records;
        })(),
      );
      expect(counts.imported.entry).toBe(names.length);
    } finally {
      await into.close();
    }
    for (const name of names) expect((await moved.get(name))?.value).toBe(`value of ${name}`);
  });

  it('sells through a BFF on the cluster (quote, checkout, ready) with no 500', async () => {
    const sandbox: RunningSandbox = await startSandbox({
      stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
      offerCount: 50,
    });
    const bff = await startBff(sandbox.url, { sessionSecret: randomBytes(32), store: clusterStore() });
    try {
      const statuses: number[] = [];
      const page = await openWidget(bff.server.url, 'shop');
      const destinations = await page.get('/v1/destinations');
      const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
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
      statuses.push(destinations.status, plans.status, quote.status, created.status);
      expect(created.status).toBe(201);
      const checkout = created.body.data as { id: string; clientSecret: string };
      await eventually(async () => {
        const answer = await call(bff.server.url, `/v1/checkouts/${checkout.id}`, {
          headers: {
            Origin: 'https://shop.example',
            Authorization: `Bearer ${page.token}`,
            [CHECKOUT_SECRET_HEADER]: checkout.clientSecret,
          },
        });
        statuses.push(answer.status);
        return answer.body?.data?.status === 'ready' ? true : undefined;
      });
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      expect(bff.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    } finally {
      await bff.server.close();
      await sandbox.close();
    }
  });

  it('answers only successes or 503 while a slot moves to another primary, and loses nothing', async () => {
    const tag = `moving-${randomBytes(4).toString('hex')}`;
    const keyPrefix = 'migration:';
    const store = clusterStore(keyPrefix);
    // Entries, a counter and a work queue in one slot (a queue's keys are tagged with its name).
    const queue = store.queue(tag);
    const entry = (index: number) => `{${tag}}entry:${index}`;
    for (let index = 0; index < 20; index += 1)
      expect(await store.insert(entry(index), `v${index}`, TTL_MS)).toBe(true);
    for (let index = 0; index < 10; index += 1) {
      expect(await queue.add({ id: `before-${index}`, partition: `p${index % 3}`, dueAtMs: 0 })).toBe(true);
    }
    const slot = await cluster.slotOf(`${keyPrefix}{${tag}}entry:0`);
    expect(await cluster.slotOf(`${keyPrefix}queue:{${tag}}:items`)).toBe(slot);
    const sourcePort = await cluster.primaryOf(slot);
    const primaries = await cluster.primaries();
    const source = primaries.find(({ port }) => port === sourcePort) as { id: string; port: number };
    const target = primaries.find(({ port }) => port !== sourcePort) as { id: string; port: number };

    let moving = true;
    const inserted: number[] = [];
    const added: string[] = [];
    let increments = 0;
    let attempts = 0;
    let duringMove = 0;
    const traffic = (async () => {
      for (let index = 20; moving || index < 60; index += 1) {
        attempts += 1;
        if (moving) duringMove += 1;
        const insert = await servedOrUnavailable(() => store.insert(entry(index), `v${index}`, TTL_MS));
        if (insert.ok && insert.value) inserted.push(index);
        const increment = await servedOrUnavailable(() => store.increment(`{${tag}}count`, 1, TTL_MS));
        if (increment.ok) increments += 1;
        const add = await servedOrUnavailable(() =>
          queue.add({ id: `during-${index}`, partition: `p${index % 3}`, dueAtMs: 0 }),
        );
        if (add.ok && add.value) added.push(`during-${index}`);
        await servedOrUnavailable(() => store.get(entry(index - 1)));
      }
    })();

    // An operator's resharding of one slot, a few keys at a time (what `redis-cli --cluster reshard` does).
    await cluster.cli(target.port, 'CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', source.id);
    await cluster.cli(source.port, 'CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', target.id);
    for (;;) {
      const keys = (await cluster.cli(source.port, 'CLUSTER', 'GETKEYSINSLOT', String(slot), '3'))
        .split('\n')
        .filter((line) => line !== '');
      if (keys.length === 0) break;
      await cluster.cli(
        source.port,
        'MIGRATE',
        '127.0.0.1',
        String(target.port),
        '',
        '0',
        '5000',
        'KEYS',
        ...keys,
      );
    }
    for (const { port } of primaries) {
      await cluster.cli(port, 'CLUSTER', 'SETSLOT', String(slot), 'NODE', target.id);
    }
    moving = false;
    await traffic;
    console.info(`slot ${slot} moved: ${duringMove} of ${attempts} rounds of writes ran during the move`);
    expect(await cluster.primaryOf(slot)).toBe(target.port);

    // Everything written before and during the move is there, on the new primary.
    for (let index = 0; index < 20; index += 1)
      expect((await store.get(entry(index)))?.value).toBe(`v${index}`);
    for (const index of inserted) expect((await store.get(entry(index)))?.value).toBe(`v${index}`);
    expect(inserted.length).toBeGreaterThan(0);
    const count = await store.increment(`{${tag}}count`, 0, TTL_MS);
    expect(count.count).toBeGreaterThanOrEqual(increments);
    expect(count.count).toBeLessThanOrEqual(attempts);
    const claimed = await queue.claim(Date.now(), { limit: 1_000, perPartition: 1_000, leaseMs: 30_000 });
    const claimedIds = claimed.map((item) => item.id);
    for (const id of [...Array.from({ length: 10 }, (_, index) => `before-${index}`), ...added]) {
      expect(claimedIds).toContain(id);
    }
  });

  it('reads the durability settings of every primary at start, and tells the least durable', async () => {
    expect((await readRedisDurability(cluster.target)).maxmemoryPolicy).toBe('noeviction');
    const [, evicting] = await cluster.primaries();
    const port = String(evicting?.port);
    await cluster.cli(Number(port), 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      expect((await readRedisDurability(cluster.target)).maxmemoryPolicy).toBe('allkeys-lru');
    } finally {
      await cluster.cli(Number(port), 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    }
  });

  // Last: it leaves the cluster with one node dead.
  it('answers 503 while a primary is lost, and is served by its promoted replica within 10 s', async () => {
    const tag = `failover-${randomBytes(4).toString('hex')}`;
    const keyPrefix = 'failover:';
    const store = clusterStore(keyPrefix);
    // A BFF on the cluster too, selling while the primary is lost.
    const sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
    const bff = await startBff(sandbox.url, { sessionSecret: randomBytes(32), store: clusterStore() });
    const page = await openWidget(bff.server.url, 'shop');
    const destinations = await page.get('/v1/destinations');
    const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    const answers: Array<{ status: number; retryAfter: string | null }> = [];
    /** A quote and a checkout; answers whether both were made. */
    async function sell(): Promise<boolean> {
      const quote = await page.post(
        '/v1/quotes',
        { offerId: plans.body.data[0].offerId },
        { 'Idempotency-Key': newKey() },
      );
      answers.push({ status: quote.status, retryAfter: quote.headers.get('retry-after') });
      if (quote.status !== 201) return false;
      const created = await page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      );
      answers.push({ status: created.status, retryAfter: created.headers.get('retry-after') });
      return created.status === 201;
    }

    try {
      const before = `${keyPrefix}{${tag}}before`;
      expect(await store.insert(`{${tag}}before`, 'written before the failover', TTL_MS)).toBe(true);
      const slot = await cluster.slotOf(before);
      // The primary holds it and its replica has all the primary has (a failover loses what the replica has not
      // received: the durability settings say how much). A failover a starved node made on its own before this
      // one may have lost it already: then it is written again, to whichever node serves its slot now.
      const primaryPort = await eventually(async () => {
        const port = await cluster.primaryOf(slot);
        if ((await cluster.cli(port, 'EXISTS', before)).trim() !== '1') {
          await servedOrUnavailable(() =>
            store.insert(`{${tag}}before`, 'written before the failover', TTL_MS),
          );
          return undefined;
        }
        const replication = await cluster.cli(port, 'INFO', 'replication');
        const primaryOffset = /master_repl_offset:(\d+)/.exec(replication)?.[1];
        const replicaOffset = /slave0:.*offset=(\d+)/.exec(replication)?.[1];
        return primaryOffset !== undefined && primaryOffset === replicaOffset ? port : undefined;
      }, 20_000);

      const started = Date.now();
      await cluster.nodes.find(({ port }) => port === primaryPort)?.kill();
      let refused = 0;
      let windowMs: number | null = null;
      for (let attempt = 0; ; attempt += 1) {
        if (windowMs === null) {
          const written = await servedOrUnavailable(() =>
            store.insert(`{${tag}}after-${attempt}`, 'after', TTL_MS),
          );
          if (written.ok) {
            expect(written.value).toBe(true);
            windowMs = Date.now() - started;
          } else refused += 1;
        }
        // A sale every fifth attempt while the store refuses (a session may make 50 quotes: a slow failover on a
        // busy machine must not spend them), every attempt once it writes again.
        if ((windowMs !== null || attempt % 5 === 0) && (await sell()) && windowMs !== null) break;
        if (Date.now() - started > 20_000) {
          const statuses = answers.map(({ status }) => status).join(' ');
          throw new Error(
            `not served within 20 s of the primary lost (${refused} store refusals, written again after ` +
              `${windowMs ?? '—'} ms; HTTP answers: ${statuses})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const unavailable = answers.filter(({ status }) => status === 503).length;
      console.info(
        `primary killed: ${refused} store refusals, written again after ${windowMs} ms; ` +
          `over HTTP ${unavailable} × 503 of ${answers.length} answers`,
      );
      expect(refused).toBeGreaterThan(0);
      expect(windowMs).toBeLessThan(10_000);
      expect(await cluster.primaryOf(slot)).not.toBe(primaryPort);
      const read = await store.get(`{${tag}}before`);
      if (read?.value !== 'written before the failover') {
        // Seen on busy-core runs, about one in five, cause not yet known: what each node holds then.
        for (const node of cluster.nodes) {
          const role = await cluster.cli(node.port, 'ROLE').catch((error: Error) => error.message);
          const held = await cluster.cli(node.port, 'EXISTS', before).catch((error: Error) => error.message);
          console.info(
            `after the failover, :${node.port}: ${role.replace(/\s+/g, ' ')}; EXISTS ${held.trim()}`,
          );
        }
      }
      expect(read?.value).toBe('written before the failover');
      // Over HTTP: served, or 503 with a Retry-After; never a 500.
      for (const answer of answers) {
        if (answer.status === 503) expect(answer.retryAfter).not.toBeNull();
        else expect(answer.status).toBe(201);
      }
    } finally {
      await bff.server.close();
      await sandbox.close();
    }
  }, 40_000);
});
