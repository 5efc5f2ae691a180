/**
 * The idempotency middleware when a holder is lost: two "instances" (two middlewares on one store) where the
 * first one's store writes stop arriving — as if its process had died mid-request — so its lease runs out and
 * the second takes the key over with the same resource id, while a live holder's lease is kept by its
 * heartbeat; a stalled holder that wakes up cannot overwrite the newer answer; a "try again" answer keeps the id.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { createLogger } from '../logger';
import { keyedDigest } from '../security/keyed-digest';
import { createMemoryStore } from '../store/memory-store';
import type { Store } from '../store/store';
import { answerHeaders } from './answer';
import type { AppEnv } from './app-env';
import { createErrorHandler } from './error-handler';
import { idempotency } from './idempotency';
import { requestContext } from './request-context';

/** What the creates asked, as their keys keep it. */
const fingerprint = keyedDigest([randomBytes(32)], 'request-fingerprint');
const logs: string[] = [];
const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });

/** A store whose writes can be cut off, as they are for a process that died (or stalled) mid-request. */
function severableStore(store: Store) {
  let severed = false;
  const cut = async () => {
    if (severed) throw new Error('this instance is gone');
  };
  return {
    sever: (value: boolean) => {
      severed = value;
    },
    store: {
      ...store,
      async insert(key, value, ttlMs) {
        await cut();
        return await store.insert(key, value, ttlMs);
      },
      async compareAndSet(key, version, value, ttlMs) {
        await cut();
        return await store.compareAndSet(key, version, value, ttlMs);
      },
      async compareAndDelete(key, version) {
        await cut();
        return await store.compareAndDelete(key, version);
      },
    } satisfies Store,
  };
}

let ids = 0;
/** One instance's create route: counts its runs and answers the resource id it was given. */
function instance(store: Store, handle: (id: string) => Promise<void> = async () => {}, leaseMs = 300) {
  const runs: string[] = [];
  const app = new Hono<AppEnv>();
  app.onError(createErrorHandler(logger));
  app.use('*', answerHeaders({}));
  app.use('*', requestContext(logger));
  app.post(
    '/things',
    idempotency({
      store,
      ttlMs: 60_000,
      scope: () => 'test',
      fingerprint,
      resourceId: () => `res_${++ids}`,
      logger,
      leaseMs,
    }),
    async function createThing(c) {
      const id = c.get('idempotentResourceId');
      runs.push(id);
      await handle(id);
      return c.json({ id, run: runs.length }, 201);
    },
  );
  const post = (key: string) =>
    app.request('/things', {
      method: 'POST',
      headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ what: 'a thing' }),
    });
  return { runs, post };
}

/** A promise and its resolver: a handler that waits until the test lets it go on. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  logs.length = 0;
});

describe('a lost holder of an idempotency key', () => {
  it('is taken over once its lease runs out, with the same resource id; the stale holder cannot overwrite', async () => {
    const shared = createMemoryStore();
    const dying = severableStore(shared);
    const stuck = gate();
    const one = instance(dying.store, () => stuck.opened);
    const two = instance(shared);

    const first = one.post('key-1');
    // Alive past its lease (300 ms): the heartbeat keeps the key, a duplicate is told to wait.
    await sleep(500);
    expect(one.runs).toHaveLength(1);
    const early = await two.post('key-1');
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { params: unknown } }).error.params).toEqual({
      field: 'Idempotency-Key',
      reason: 'in_progress',
    });
    expect(Number(early.headers.get('Retry-After'))).toBe(1);
    expect(two.runs).toEqual([]);

    // Instance one "dies": its heartbeat no longer reaches the store, and its lease runs out.
    dying.sever(true);
    await sleep(350);
    const taken = await two.post('key-1');
    expect(taken.status).toBe(201);
    expect(await taken.json()).toEqual({ id: one.runs[0], run: 1 });
    expect(two.runs).toEqual(one.runs);
    expect(logs.some((line) => line.includes('idempotent create taken over from a lost holder'))).toBe(true);

    // The first holder was only stalled: it wakes up, finishes and tries to keep its own answer.
    dying.sever(false);
    stuck.open();
    expect((await first).status).toBe(201);
    const replay = await two.post('key-1');
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replay.json()).toEqual({ id: one.runs[0], run: 1 });
    expect(logs.some((line) => line.includes('finished after another request took its key over'))).toBe(true);
  });

  it('answers a duplicate of a live create with Retry-After about the rest of the lease', async () => {
    const store = createMemoryStore();
    const stuck = gate();
    const one = instance(store, () => stuck.opened, 5_000);
    const first = one.post('key-3');
    await sleep(20);
    const duplicate = await instance(store, undefined, 5_000).post('key-3');
    expect(duplicate.status).toBe(409);
    expect(Number(duplicate.headers.get('Retry-After'))).toBe(5);
    stuck.open();
    expect((await first).status).toBe(201);
  });

  it('keeps the resource id after a "try again" answer: the retry runs at once, for the same resource', async () => {
    const store = createMemoryStore();
    let failures = 1;
    const flaky = instance(store, async () => {
      if (failures-- > 0) throw new ApiError('upstream_unavailable');
    });
    const failed = await flaky.post('key-4');
    expect(failed.status).toBe(503);
    const retried = await flaky.post('key-4');
    expect(retried.status).toBe(201);
    expect(flaky.runs).toHaveLength(2);
    expect(flaky.runs[0]).toMatch(/^res_/);
    expect(flaky.runs[1]).toBe(flaky.runs[0]);
    // Not a lost holder: it answered, and let its key go.
    expect(logs.some((line) => line.includes('"message":"idempotent create retried"'))).toBe(true);
    expect(logs.some((line) => line.includes('taken over from a lost holder'))).toBe(false);
  });
});

describe('a kept answer with a bearer secret in it', () => {
  it('is kept without the secret, which is put back on a replay; an error answer is kept as it is', async () => {
    const store = createMemoryStore();
    const writes: string[] = [];
    const watched: Store = {
      ...store,
      insert: async (key, value, ttlMs) => {
        writes.push(value);
        return await store.insert(key, value, ttlMs);
      },
      compareAndSet: async (key, version, value, ttlMs) => {
        writes.push(value);
        return await store.compareAndSet(key, version, value, ttlMs);
      },
    };
    const putBacks: string[] = [];
    const app = new Hono<AppEnv>();
    app.onError(createErrorHandler(logger));
    app.use('*', answerHeaders({}));
    app.use('*', requestContext(logger));
    app.post(
      '/links',
      idempotency({
        store: watched,
        ttlMs: () => 30_000,
        scope: () => 'test',
        fingerprint,
        logger,
        secret: {
          leaveOut: ({ url: _url, ...kept }) => kept,
          putBack: async (_c, kept) => {
            putBacks.push(String(kept.id));
            return { ...kept, url: `https://links.example/${String(kept.id)}/secret-part` };
          },
        },
      }),
      async function createLink(c) {
        const body = (await c.req.json()) as { fail?: boolean };
        if (body.fail === true) throw new ApiError('quote_expired');
        return c.json(
          { data: { id: 'lnk_1', url: 'https://links.example/lnk_1/secret-part' }, meta: {} },
          201,
        );
      },
    );
    const post = (key: string, body: unknown) =>
      app.request('/links', {
        method: 'POST',
        headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    const first = await post('key-link', {});
    expect(((await first.json()) as { data: { url: string } }).data.url).toContain('secret-part');
    const replay = await post('key-link', {});
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replay.json()).toEqual({
      data: { id: 'lnk_1', url: 'https://links.example/lnk_1/secret-part' },
      meta: {},
    });
    expect(putBacks).toEqual(['lnk_1']);
    expect(writes.length).toBeGreaterThan(0);
    for (const value of writes) expect(value).not.toContain('secret-part');

    // A refusal carries no secret: it is kept and replayed as it was, with nothing put back.
    const refused = await post('key-refused', { fail: true });
    expect(refused.status).toBe(410);
    const replayed = await post('key-refused', { fail: true });
    expect(replayed.status).toBe(410);
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(putBacks).toEqual(['lnk_1']);
  });
});

describe('a request refused as sent', () => {
  it('keeps nothing under its key: the store is as before, and the corrected request with the key runs', async () => {
    const store = createMemoryStore();
    const written: string[] = [];
    const watched: Store = {
      ...store,
      compareAndSet: async (key, version, value, ttlMs) => {
        written.push(key);
        return await store.compareAndSet(key, version, value, ttlMs);
      },
    };
    const key = 'key-shape';
    const app = new Hono<AppEnv>();
    app.onError(createErrorHandler(logger));
    app.use('*', answerHeaders({}));
    app.use('*', requestContext(logger));
    app.post(
      '/things',
      idempotency({
        store: watched,
        ttlMs: 60_000,
        scope: () => 'test',
        fingerprint,
        resourceId: () => 'res_x',
        logger,
      }),
      async function createThing(c) {
        if (c.req.header('X-Manage-Token') === 'forged')
          throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_widget' } });
        const body = (await c.req.json()) as { what?: unknown };
        if (typeof body.what !== 'string')
          throw new ApiError('validation_failed', { params: { field: 'what' } });
        return c.json({ what: body.what }, 201);
      },
    );
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      app.request('/things', {
        method: 'POST',
        headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const refused = await post({ what: 42 });
    expect(refused.status).toBe(422);
    // A route that names its resource keeps a "try again" key for it; a refused credential leaves none either.
    const forged = await post({ what: 'a thing' }, { 'X-Manage-Token': 'forged' });
    expect(forged.status).toBe(401);
    expect(written).toEqual([]);
    const hashed = createHash('sha256').update(key).digest('base64url');
    expect(await store.get(`idempotency:test:${hashed}`)).toBeNull();
    // Not a conflict with the refused body: the refusal was not kept, so the corrected request runs.
    const corrected = await post({ what: 'a thing' });
    expect(corrected.status).toBe(201);
    expect(written).toHaveLength(1);
  });
});

describe('what a kept create asked', () => {
  /** A create route over `store` whose fingerprints are made under `roots`; answers what it was sent. */
  function route(store: Store, roots: Buffer[]) {
    const app = new Hono<AppEnv>();
    app.onError(createErrorHandler(logger));
    app.use('*', answerHeaders({}));
    app.use('*', requestContext(logger));
    app.post(
      '/checkouts',
      idempotency({
        store,
        ttlMs: 60_000,
        scope: () => 'test',
        fingerprint: keyedDigest(roots, 'request-fingerprint'),
        logger,
      }),
      async (c) => c.json(await c.req.json(), 201),
    );
    return (key: string, body: unknown) =>
      app.request('/checkouts', {
        method: 'POST',
        headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
  }

  it('is kept as nothing a dictionary of addresses reverses, and records of before and of a rotated root still replay', async () => {
    const store = createMemoryStore();
    const first = randomBytes(32);
    const body = { quoteId: 'quo_1', locale: 'en', termsAccepted: true, email: 'ada.lovelace@example.com' };
    expect((await route(store, [first])('one', body)).status).toBe(201);
    const kept = JSON.stringify(
      await store.get(`idempotency:test:${createHash('sha256').update('one').digest('base64url')}`),
    );
    // The dictionary attack: the body rebuilt around each address a copy of the store could be tested with.
    for (const email of ['ada.lovelace@example.com', 'grace.hopper@example.org']) {
      const asked = `POST /checkouts\n${JSON.stringify({ ...body, email })}`;
      expect(kept).not.toContain(createHash('sha256').update(asked).digest('base64url').slice(0, 12));
      expect(kept).not.toContain(createHash('sha256').update(asked).digest('hex').slice(0, 12));
    }
    // A record the release before kept (a plain SHA-256 fingerprint) is still this request's: replayed, not a conflict.
    const asked = `POST /checkouts\n${JSON.stringify(body)}`;
    const legacyKey = `idempotency:test:${createHash('sha256').update('before').digest('base64url')}`;
    await store.insert(
      legacyKey,
      JSON.stringify({
        state: 'done',
        fingerprint: createHash('sha256').update(asked).digest('base64url'),
        status: 201,
        body: JSON.stringify(body),
        contentType: 'application/json',
      }),
      60_000,
    );
    const replayedBefore = await route(store, [first])('before', body);
    expect(replayedBefore.status).toBe(201);
    expect(replayedBefore.headers.get('Idempotent-Replayed')).toBe('true');
    // After a rotation (the first root listed as previous), the first root's record replays; another body conflicts.
    const rotated = route(store, [randomBytes(32), first]);
    const again = await rotated('one', body);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await rotated('one', { ...body, email: 'grace.hopper@example.org' })).status).toBe(422);
  });
});
