/**
 * Purchases while a Redis Cluster moves a slot, on real servers: the slot of the funding ledger, which every
 * purchase writes, is moved from one primary to another as an operator's resharding does it (`IMPORTING` and
 * `MIGRATING`, the key moved by `MIGRATE`, the slot handed over), with travellers buying through a BFF in every
 * phase. Every purchase is served — at once, or `503` and then served on the traveller's retry with the same key —
 * with one upstream order each, and never a 500.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, type Plan } from '@esim-embed/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningRedisCluster, startRedisCluster } from '../../testing/redis-server';
import { type Answer, call, newKey, openWidget, type RunningBff, startBff } from '../../testing/stack';
import { createRedisStore } from './redis-store';
import type { Store } from './store';

const KEY_PREFIX = `reshard-${randomBytes(4).toString('hex')}:`;
/** Purchases completed in each phase of the move before the next phase begins. */
const PER_PHASE = 2;

let cluster: RunningRedisCluster;
let sandbox: RunningSandbox;
let store: Store;
let running: RunningBff;

beforeAll(async () => {
  cluster = await startRedisCluster();
  sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
  store = createRedisStore({ target: cluster.target, keyPrefix: KEY_PREFIX, connectWaitMs: 5_000 });
  running = await startBff(sandbox.url, { sessionSecret: randomBytes(32), store });
}, 60_000);
afterAll(async () => {
  await running?.server.close();
  await store?.close();
  await sandbox?.close();
  await cluster?.stop();
});

const statuses: number[] = [];

/** A traveller's call: a 503, or a create still held by a holder cut off (409 in_progress), is asked again. */
async function asTraveller(send: () => Promise<Answer>): Promise<Answer> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await send();
    statuses.push(answer.status);
    const again =
      answer.status === 503 ||
      (answer.status === 409 && answer.body?.error?.params?.reason === 'in_progress');
    if (!again || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One purchase of the `direct` widget, to its order: answers the checkout's id. */
async function purchase(): Promise<string> {
  const page = await openWidget(running.server.url, 'shop');
  const destinations = await asTraveller(() => page.get('/v1/destinations?locale=en'));
  const country = (destinations.body.data as { code: string; kind: string }[]).find(
    (destination) => destination.kind === 'country',
  );
  const plans = await asTraveller(() => page.get(`/v1/destinations/${country?.code}/plans`));
  const offerId = (plans.body.data as Plan[])[0]?.offerId;
  const quoteKey = newKey();
  const quote = await asTraveller(() =>
    page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': quoteKey }),
  );
  expect(quote.status, quote.text).toBe(201);
  const createKey = newKey();
  const body = { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true };
  const created = await asTraveller(() => page.post('/v1/checkouts', body, { 'Idempotency-Key': createKey }));
  expect(created.status, created.text).toBe(201);
  const { id, clientSecret } = created.body.data as { id: string; clientSecret: string };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const read = await asTraveller(() =>
      call(running.server.url, `/v1/checkouts/${id}`, {
        headers: {
          Origin: 'https://shop.example',
          Authorization: `Bearer ${page.token}`,
          [CHECKOUT_SECRET_HEADER]: clientSecret,
        },
      }),
    );
    expect(read.status, read.text).toBe(200);
    if (read.body.data.status === 'ready') return id;
    if (Date.now() > deadline) throw new Error(`checkout ${id} is still ${read.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A store key of the funding ledger the purchases write — its entry book's, all in one hash tag — found by a scan
 * once a purchase made it.
 */
async function ledgerKey(): Promise<string> {
  let cursor: string | null = null;
  do {
    const page: { keys: string[]; cursor: string | null } = await store.scanKeys(
      'book:{funding-ledger:',
      cursor,
      100,
    );
    const found = page.keys[0];
    if (found !== undefined) return found;
    cursor = page.cursor;
  } while (cursor !== null);
  throw new Error('no funding ledger was written by the first purchase');
}

it('serves every purchase, with one order each, while the slot every purchase writes moves to another primary', async () => {
  const checkouts = [await purchase()];
  const slot = await cluster.slotOf(`${KEY_PREFIX}${await ledgerKey()}`);
  const sourcePort = await cluster.primaryOf(slot);
  const primaries = await cluster.primaries();
  const source = primaries.find(({ port }) => port === sourcePort) as { id: string; port: number };
  const target = primaries.find(({ port }) => port !== sourcePort) as { id: string; port: number };

  // Travellers buy one after another, two side by side, through every phase of the move.
  let phase = 'before';
  const byPhase = new Map<string, number>();
  let moving = true;
  const traveller = async () => {
    while (moving) {
      const started = phase;
      checkouts.push(await purchase());
      byPhase.set(started, (byPhase.get(started) ?? 0) + 1);
    }
  };
  const travellers = [traveller(), traveller()];
  const phaseDone = async (name: string) => {
    const deadline = Date.now() + 30_000;
    while ((byPhase.get(name) ?? 0) < PER_PHASE) {
      if (Date.now() > deadline) throw new Error(`no ${PER_PHASE} purchases ${name} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  await phaseDone('before');
  phase = 'migrating';
  await cluster.cli(target.port, 'CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', source.id);
  await cluster.cli(source.port, 'CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', target.id);
  await phaseDone('migrating');
  phase = 'keys moved';
  for (;;) {
    const keys = (await cluster.cli(source.port, 'CLUSTER', 'GETKEYSINSLOT', String(slot), '10'))
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
  await phaseDone('keys moved');
  phase = 'after';
  for (const { port } of primaries)
    await cluster.cli(port, 'CLUSTER', 'SETSLOT', String(slot), 'NODE', target.id);
  await phaseDone('after');
  moving = false;
  await Promise.all(travellers);

  expect(await cluster.primaryOf(slot)).toBe(target.port);
  expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
  const upstream = running.bff.widgets.get('shop')?.upstream;
  for (const id of checkouts) expect(await upstream?.findOrdersByExternalRef(id)).toHaveLength(1);
  expect((await sandbox.control.state()).environments.test?.orders).toBe(checkouts.length);
  console.info(
    `slot ${slot} moved under ${checkouts.length} purchases (${[...byPhase].map(([name, count]) => `${count} ${name}`).join(', ')}); ` +
      `${statuses.filter((status) => status === 503).length} × 503`,
  );
}, 90_000);
