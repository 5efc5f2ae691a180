/**
 * @module
 * Idempotent creates, as the HTTP Idempotency-Key draft and Stripe do them. A create without
 * `Idempotency-Key` is refused; the first request with a key runs and its answer is kept (24 h by default);
 * a replay gets that answer again (`Idempotent-Replayed: true`); the same key with another body is a
 * conflict (422). A request refused as sent (`validation_failed`, `unsupported_media_type`, a manage token
 * `widget_session_invalid`) keeps nothing: its key stays free for the corrected request; so does one its route
 * says changed nothing (`changedNothing`). Keys are scoped to the session, so two travellers can never collide.
 *
 * A running request holds its key with a short lease that a heartbeat renews while it works. A duplicate that
 * arrives meanwhile is a conflict (409, `Retry-After` the lease's remainder) that is safe to retry; one that
 * finds the lease run out — the holder's instance died — takes the key over and runs the create again, for
 * the same resource id when the route names one (chosen before any side effect and kept with the key), so
 * the create resumes where the lost holder stopped instead of stranding the traveller.
 *
 * A kept answer never holds a bearer secret: a route whose answer carries one (a checkout's client secret, a
 * delivery link's URL) says how to leave it out and how to put it back on a replay ({@link SecretInAnswer});
 * the same way keeps out what the replayed request itself carries again (the traveller's email of a checkout).
 *
 * Over 300 lines: one protocol (keys, leases, takeovers, replays, secrets left out) whose cases read in order.
 */
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyKeySchema } from '@esim-embed/shared';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { KeyedDigest } from '../security/keyed-digest';
import { startLeaseHeartbeat } from '../store/lease-heartbeat';
import { STORE_KEYS, type Store, type Versioned } from '../store/store';
import { leaveValue, storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import { answerBody, plainBodyOf } from './answer';
import type { AppEnv } from './app-env';
import { bodyText } from './json-body';

/** How long a running request holds its key without a heartbeat before its holder is presumed gone. */
export const IDEMPOTENCY_LEASE_MS = 5_000;

/** The lease of a holder that answered "try again": anyone may take the key at once. */
const RELEASED = 0;

const InFlightSchema = z.object({
  state: z.literal('in_flight'),
  fingerprint: z.string(),
  /** What the create makes (the checkout id), chosen before any side effect; null where the route names none. */
  resourceId: z.string().nullable().default(null),
  /**
   * Until when (ms since the epoch) the holder is presumed alive. Records of earlier releases have none: they
   * count as held until they expire (their own time to live was the lock).
   */
  leaseUntil: z.number().default(Number.MAX_SAFE_INTEGER),
});
type InFlight = z.infer<typeof InFlightSchema>;

const IdempotencyRecordSchema = z.discriminatedUnion('state', [
  InFlightSchema,
  z.object({
    state: z.literal('done'),
    fingerprint: z.string(),
    status: z.int(),
    body: z.string(),
    contentType: z.string(),
    /** The answer's secret was left out of `body` and is put back on a replay. */
    secretLeftOut: z.boolean().default(false),
  }),
]);
type IdempotencyRecord = z.infer<typeof IdempotencyRecordSchema>;

/**
 * How a route's answer that carries a bearer secret is kept: `data` without the secret, and the secret put back
 * on a replay (recomputed, or asked again of whoever issued it under the same key).
 */
export interface SecretInAnswer {
  /** The answer's `data` as kept, without its secret. */
  leaveOut(data: Record<string, unknown>): Record<string, unknown>;
  /** The kept `data` with its secret put back, for a replay of the request `c`. */
  putBack(c: Context<AppEnv>, kept: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export interface IdempotencyOptions {
  store: Store;
  /**
   * How long answers are kept and replayed (and a lost holder's resource id remembered): a fixed time, or one
   * per request (no longer than the session that can replay them).
   */
  ttlMs: number | ((c: Context<AppEnv>) => number);
  /** Set when the route's successful answer carries a bearer secret, which is then never kept. */
  secret?: SecretInAnswer;
  /** The scope of keys: the session id (partner routes: the widget id). */
  scope: (c: Context<AppEnv>) => string;
  /**
   * The fingerprint of what a create asks (method, path, body) kept with its key: a keyed digest (the key ring's
   * `request-fingerprint` key), since a body may hold a traveller's e-mail address, which a plain hash of a body
   * rebuilt from the store would give away to a dictionary. A record's fingerprint under a root rotated out, or the
   * plain SHA-256 of the release before, still matches its request.
   */
  fingerprint: KeyedDigest;
  /**
   * Names the resource the create makes before it runs (`idempotentResourceId` on the context), so that a
   * takeover after a lost holder makes the same one. Given the key as stored (its scope and the client's key): a
   * name derived from it is the same again for a retry whose record a Redis failover lost. Routes without it
   * simply run again.
   */
  resourceId?: (createKey: string) => string;
  /** Hears takeovers. */
  logger: Logger;
  /** How long a holder's lease lasts between heartbeats. Default {@link IDEMPOTENCY_LEASE_MS}. */
  leaseMs?: number;
  /** The clock of the leases (ms since the epoch). Default `Date.now`; tests move it to run a lease out. */
  now?: () => number;
}

const conflict = (reason: 'different_request' | 'in_progress', retryAfterSeconds?: number) =>
  new ApiError('idempotency_conflict', {
    status: reason === 'different_request' ? 422 : 409,
    params: { field: IDEMPOTENCY_KEY_HEADER, reason },
    retryAfterSeconds,
  });

/**
 * Answers worth replaying: successes and final refusals (`price_changed`, `quote_consumed`, …) — not the
 * "try again" ones (server errors, rate limits, an expired session).
 */
function keepAnswer(status: number): boolean {
  return status < 500 && status !== 429 && status !== 401;
}

/**
 * Refusals of the request as sent — its body, its content type, a credential the route checks itself (the
 * manage token of a top-up) — answered before the create does anything.
 */
const REFUSED_AS_SENT = new Set([
  'validation_failed',
  'unsupported_media_type',
  'payload_too_large',
  'widget_session_invalid',
]);

/**
 * True when the answer refuses the request as it was sent: nothing was done, so nothing is kept — the key is let
 * go (as Stripe does for a request that fails validation), and a request refused only for its shape stores
 * nothing. The same key with a corrected body then runs.
 */
async function refusedAsSent(response: Response): Promise<boolean> {
  if (response.status < 400 || response.status >= 500) return false;
  try {
    const answer = (await response.clone().json()) as { error?: { code?: unknown } };
    return REFUSED_AS_SENT.has(String(answer.error?.code));
  } catch {
    return false;
  }
}

/**
 * The store key of the request's `Idempotency-Key` in its scope, the fingerprint of what it asks, and whether a
 * kept record's fingerprint is this request's (under any listed root, or unkeyed as the release before kept it).
 */
async function keyedRequest(
  c: Context<AppEnv>,
  options: Pick<IdempotencyOptions, 'scope' | 'fingerprint'>,
): Promise<{ key: string; fingerprint: string; matches: (kept: string) => boolean }> {
  const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (header === undefined) {
    throw new ApiError('validation_failed', {
      status: 400,
      params: { field: IDEMPOTENCY_KEY_HEADER, reason: 'required' },
    });
  }
  if (!IdempotencyKeySchema.safeParse(header).success) {
    throw new ApiError('validation_failed', {
      status: 400,
      params: { field: IDEMPOTENCY_KEY_HEADER, reason: 'invalid', maxLength: 255 },
    });
  }
  const asked = `${c.req.method} ${c.req.path}\n${await bodyText(c)}`;
  const fingerprint = options.fingerprint(asked);
  const matches = (kept: string) =>
    kept === fingerprint ||
    options.fingerprint.earlier(asked).includes(kept) ||
    kept === createHash('sha256').update(asked).digest('base64url');
  const key = STORE_KEYS.idempotency(
    options.scope(c),
    createHash('sha256').update(header).digest('base64url'),
  );
  return { key, fingerprint, matches };
}

/** A kept answer given again: its secret put back where it was left out. */
async function replayed(
  c: Context<AppEnv>,
  record: Extract<IdempotencyRecord, { state: 'done' }>,
  secret: SecretInAnswer | undefined,
): Promise<Response> {
  let body = record.body;
  if (record.secretLeftOut && secret !== undefined) {
    const answer = JSON.parse(record.body) as { data: Record<string, unknown> };
    body = JSON.stringify({ ...answer, data: await secret.putBack(c, answer.data) });
  }
  return answerBody(c, body, record.status, {
    'Content-Type': record.contentType,
    'Idempotent-Replayed': 'true',
    'Cache-Control': 'no-store',
  });
}

/** The key is held by a request still at work (its lease runs `remainingMs` more): try again after it. */
const stillRunning = (remainingMs: number, leaseMs: number) =>
  conflict('in_progress', Math.ceil(Math.min(remainingMs, leaseMs) / 1000));

/**
 * The answer a request may only read back, never make (`endedSessions` of `routes/session-auth.ts`: a session that
 * ended, asking again for what its create made): the kept answer of the same request under its key, as any replay
 * gets it; "in progress" (409, safe to retry) while that create still runs; and otherwise `next`'s refusal — no
 * record (the create never arrived, or its answer is no longer kept), another request under the key, or a
 * create whose holder stopped without an answer (one that only a live session's retry may take over and finish).
 * It writes nothing, and never runs the route's handler.
 */
export function keptAnswerReplay(options: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  return async function replayOnly(c, refuse) {
    const { key, matches } = await keyedRequest(c, options);
    const stored = await options.store.get(key);
    const record = stored === null ? null : IdempotencyRecordSchema.parse(JSON.parse(stored.value));
    if (record !== null && matches(record.fingerprint)) {
      if (record.state === 'done') return await replayed(c, record, options.secret);
      const remainingMs = record.leaseUntil - now();
      if (remainingMs > 0) throw stillRunning(remainingMs, leaseMs);
    }
    await refuse();
  };
}

/** The idempotency middleware for one create route. */
export function idempotency(options: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  const { store, logger } = options;
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  // Three beats per lease: one lost renewal (a slow store) does not yet let anyone take over.
  const heartbeatMs = Math.floor(leaseMs * 0.3);
  const ttlOf = (c: Context<AppEnv>) =>
    typeof options.ttlMs === 'number' ? options.ttlMs : Math.max(1_000, options.ttlMs(c));
  const write = (c: Context<AppEnv>, key: string, version: number, record: IdempotencyRecord) =>
    store.compareAndSet(key, version, JSON.stringify(record), ttlOf(c));

  /** The answer as kept: a success's secret left out (the route says how). */
  async function keptBody(
    c: Context<AppEnv>,
    response: Response,
  ): Promise<{ body: string; secretLeftOut: boolean }> {
    const body = await plainBodyOf(c, response);
    if (options.secret === undefined || response.status >= 300) return { body, secretLeftOut: false };
    const answer = JSON.parse(body) as { data: Record<string, unknown> };
    return {
      body: JSON.stringify({ ...answer, data: options.secret.leaveOut(answer.data) }),
      secretLeftOut: true,
    };
  }

  /** The key held by this request (inserted, or taken over from a lost holder), or the answer to give now. */
  async function claim(
    c: Context<AppEnv>,
    key: string,
    fingerprint: string,
    matches: (kept: string) => boolean,
  ): Promise<{ version: number; record: InFlight } | Response> {
    const fresh: InFlight = {
      state: 'in_flight',
      fingerprint,
      resourceId: options.resourceId?.(key) ?? null,
      leaseUntil: now() + leaseMs,
    };
    /** The key held by this request, and how it was got when it was taken over from another holder. */
    type Held = { record: InFlight; takeover: { released: boolean; expiredMsAgo: number } | null };
    const outcome = await versionedUpdate<Versioned, string, Held | Response>(
      storeSlot(store, key, ttlOf(c)),
      async (existing) => {
        if (existing === null) return writeValue(JSON.stringify(fresh), { record: fresh, takeover: null });
        const record = IdempotencyRecordSchema.parse(JSON.parse(existing.value));
        if (!matches(record.fingerprint)) throw conflict('different_request');
        if (record.state === 'done') return leaveValue(await replayed(c, record, options.secret));
        const remainingMs = record.leaseUntil - now();
        if (remainingMs > 0) throw stillRunning(remainingMs, leaseMs);
        const taken: InFlight = { ...record, leaseUntil: now() + leaseMs };
        const takeover = { released: record.leaseUntil === RELEASED, expiredMsAgo: -remainingMs };
        return writeValue(JSON.stringify(taken), { record: taken, takeover });
      },
      // Most keys are new: the first round inserts without reading.
      { initial: null },
    );
    if (outcome.kind === 'left' && outcome.result instanceof Response) return outcome.result;
    // The key changed hands five times while this request looked at it: the others are at work.
    if (outcome.kind !== 'written' || outcome.result instanceof Response) throw conflict('in_progress', 1);
    const { record, takeover } = outcome.result;
    if (takeover !== null) {
      const fields = { requestId: c.get('requestId'), path: c.req.path, resourceId: record.resourceId };
      // A lease let go (leaseUntil 0) was answered "try again" by its holder; one that ran out, lost with it.
      if (takeover.released) logger.info('idempotent create retried', fields);
      else {
        logger.warn('idempotent create taken over from a lost holder', {
          ...fields,
          leaseExpiredMsAgo: takeover.expiredMsAgo,
        });
      }
    }
    return { version: outcome.stored.version, record };
  }

  return async function idempotentCreate(c, next) {
    const { key, fingerprint, matches } = await keyedRequest(c, options);
    const claimed = await claim(c, key, fingerprint, matches);
    if (claimed instanceof Response) return claimed;
    const { record } = claimed;
    let version = claimed.version;
    if (record.resourceId !== null) c.set('idempotentResourceId', record.resourceId);

    const heartbeat = startLeaseHeartbeat(async () => {
      const renewed = await write(c, key, version, { ...record, leaseUntil: now() + leaseMs });
      if (renewed) version += 1;
      return renewed;
    }, heartbeatMs);
    try {
      await next();
    } finally {
      await heartbeat.stop();
    }

    // Every write below is a compare-and-set on the version this request last wrote: a holder that stalled past
    // its lease and was taken over cannot overwrite the newer holder's record.
    const status = c.res.status;
    if (c.get('changedNothing') === true || (await refusedAsSent(c.res))) {
      // Nothing of a named resource can exist yet: the key goes, its resource id with it.
      await store.compareAndDelete(key, version);
      return;
    }
    if (!keepAnswer(status)) {
      // A "try again" answer: the key is let go at once. A named resource may exist in part already, so its id
      // stays with the key and the retry resumes it.
      if (record.resourceId === null) await store.compareAndDelete(key, version);
      else await write(c, key, version, { ...record, leaseUntil: RELEASED });
      return;
    }
    const done: IdempotencyRecord = {
      state: 'done',
      fingerprint,
      status,
      ...(await keptBody(c, c.res)),
      contentType: c.res.headers.get('Content-Type') ?? 'application/json',
    };
    if (!(await write(c, key, version, done))) {
      logger.warn('idempotent create finished after another request took its key over', {
        requestId: c.get('requestId'),
        path: c.req.path,
        resourceId: record.resourceId,
      });
    }
  };
}
