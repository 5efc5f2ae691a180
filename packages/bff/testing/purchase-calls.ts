/**
 * @module
 * Test support: the store calls of one real purchase (its writes and its reads of values), recorded through the BFF
 * and the sandbox, and made again as many purchases as wanted, each with every id in it (checkout, quote, session, order, eSIM, idempotency keys
 * and digests) replaced by a fresh random one of the same length — records of their real shapes and sizes, at the
 * speed of the store alone. The embedded store's size test and the benchmark of its record layout use it.
 */
import { randomBytes } from 'node:crypto';
import { CHECKOUT_SECRET_HEADER, type Plan } from '@esim-embed/shared';
import { createMemoryStore } from '../src/store/memory-store';
import type { Store } from '../src/store/store';
import { untilReady } from './after-sale-flow';
import { newKey, openWidget, startStack } from './stack';

/** One call the BFF made on its store: a write on the store itself, a work queue or a sorted index, or a read. */
export interface StoreCall {
  on: 'store' | 'queue' | 'index';
  /** The queue's or index's name. */
  name: string;
  method: string;
  args: unknown[];
}

const STORE_CALLS = new Set(['get', 'insert', 'compareAndSet', 'compareAndDelete', 'increment']);
const QUEUE_WRITES = new Set(['add', 'claim', 'reschedule', 'pausePartition', 'remove']);
const INDEX_WRITES = new Set(['add', 'remove']);

/** `inner`, with every value read and every write it is asked for (and its arguments) kept in `calls`. */
function recordingCalls(inner: Store): { store: Store; calls: StoreCall[] } {
  const calls: StoreCall[] = [];
  const recorded = <T extends object>(target: T, on: StoreCall['on'], name: string, writes: Set<string>): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof property !== 'string' || typeof value !== 'function') return value;
        if (on === 'store' && property === 'queue')
          return (queue: string) => recorded(inner.queue(queue), 'queue', queue, QUEUE_WRITES);
        if (on === 'store' && property === 'sortedIndex')
          return (index: string) => recorded(inner.sortedIndex(index), 'index', index, INDEX_WRITES);
        if (!writes.has(property)) return value.bind(object);
        return (...args: unknown[]) => {
          calls.push({ on, name, method: property, args: structuredClone(args) });
          return value.apply(object, args);
        };
      },
    });
  return { store: recorded(inner, 'store', '', STORE_CALLS), calls };
}

/** One purchase as the capacity funnel makes it: a quote, a `direct` checkout polled until ready, its installation. */
async function purchase(bffUrl: string): Promise<void> {
  const page = await openWidget(bffUrl, 'shop');
  const destinations = await page.get('/v1/destinations?locale=en');
  const country = (destinations.body.data as { code: string; kind: string }[]).find(
    (destination) => destination.kind === 'country',
  );
  const plans = await page.get(`/v1/destinations/${country?.code}/plans`);
  const plan = (plans.body.data as Plan[])[0];
  if (plan === undefined) throw new Error(`no plan to buy: ${plans.text}`);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  if (quote.status !== 201) throw new Error(`quote refused: ${quote.text}`);
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  if (checkout.status !== 201) throw new Error(`checkout refused: ${checkout.text}`);
  const { id, clientSecret } = checkout.body.data as { id: string; clientSecret: string };
  await untilReady(page, id, clientSecret);
  const installation = await page.get(`/v1/checkouts/${id}/installation`, {
    [CHECKOUT_SECRET_HEADER]: clientSecret,
  });
  if (installation.status !== 200) throw new Error(`installation refused: ${installation.text}`);
}

/**
 * The store calls of one purchase through a BFF on the test stack (real sandbox). The first purchase reads and
 * indexes what every later one finds done; the second one's calls are answered, those of a purchase among others.
 */
export async function recordPurchaseCalls(): Promise<StoreCall[]> {
  const recording = recordingCalls(createMemoryStore());
  const stack = await startStack({ store: recording.store });
  try {
    await purchase(stack.server.url);
    const from = recording.calls.length;
    await purchase(stack.server.url);
    return recording.calls.slice(from);
  } finally {
    await stack.close();
  }
}

/** Ids, keys and digests: long runs of base64url characters with a digit or a capital in them. */
const ID_LIKE = /[A-Za-z0-9_-]{16,}/g;
const isId = (token: string) => /[0-9A-Z]/.test(token);

/** `value` with every id in it replaced as `fresh` says (strings, and the strings inside arrays and objects). */
function withFreshIds(value: unknown, fresh: (id: string) => string): unknown {
  if (typeof value === 'string')
    return value.replace(ID_LIKE, (token) => (isId(token) ? fresh(token) : token));
  if (Array.isArray(value)) return value.map((item) => withFreshIds(item, fresh));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withFreshIds(item, fresh)]));
  return value;
}

/** `calls` as another purchase makes them: every id replaced by a fresh random one of the same length. */
function anotherPurchase(calls: StoreCall[]): StoreCall[] {
  const ids = new Map<string, string>();
  return withFreshIds(calls, (id) => {
    let replaced = ids.get(id);
    if (replaced === undefined) {
      replaced = randomBytes(id.length).toString('base64url').slice(0, id.length);
      ids.set(id, replaced);
    }
    return replaced;
  }) as StoreCall[];
}

/** Make `calls` on `store`, one after another, as one more purchase (fresh ids). */
export async function makePurchase(store: Store, calls: StoreCall[]): Promise<void> {
  for (const call of anotherPurchase(calls)) {
    const target: object =
      call.on === 'store'
        ? store
        : call.on === 'queue'
          ? store.queue(call.name)
          : store.sortedIndex(call.name);
    await (target as Record<string, (...args: unknown[]) => Promise<unknown>>)[call.method]?.(...call.args);
  }
}
