/**
 * @module
 * Idempotent creates, as the HTTP Idempotency-Key draft and Stripe do them. A create without
 * `Idempotency-Key` is refused; the first request with a key runs and its answer is kept (24 h by default);
 * a replay gets that answer again (`Idempotent-Replayed: true`); the same key with another body is a
 * conflict (422); a duplicate that arrives while the first is still running is a conflict too (409) that is
 * safe to retry. Keys are scoped to the session, so two travellers can never collide.
 */
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyKeySchema } from '@esim-embed/shared';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { ApiError } from '../errors';
import { STORE_KEYS, type Store } from '../store/store';
import { answerBody } from './answer';
import type { AppEnv } from './app-env';
import { bodyText } from './json-body';

/** How long a running request holds its key before a crashed holder is assumed gone. */
const IN_FLIGHT_LOCK_MS = 60_000;

const IdempotencyRecordSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('in_flight'), fingerprint: z.string() }),
  z.object({
    state: z.literal('done'),
    fingerprint: z.string(),
    status: z.int(),
    body: z.string(),
    contentType: z.string(),
  }),
]);
type IdempotencyRecord = z.infer<typeof IdempotencyRecordSchema>;

export interface IdempotencyOptions {
  store: Store;
  /** How long answers are kept and replayed. */
  ttlMs: number;
  /** The scope of keys: the session id (partner routes: the widget id). */
  scope: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string;
}

const conflict = (reason: 'different_request' | 'in_progress') =>
  new ApiError('idempotency_conflict', {
    status: reason === 'different_request' ? 422 : 409,
    params: { field: IDEMPOTENCY_KEY_HEADER, reason },
    retryAfterSeconds: reason === 'in_progress' ? 1 : undefined,
  });

/**
 * Answers worth replaying: successes and final refusals (`price_changed`, `quote_consumed`, …) — not the
 * "try again" ones (server errors, rate limits, an expired session).
 */
function keepAnswer(status: number): boolean {
  return status < 500 && status !== 429 && status !== 401;
}

/** The idempotency middleware for one create route. */
export function idempotency(options: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  return async function idempotentCreate(c, next) {
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
    const fingerprint = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n`)
      .update(await bodyText(c))
      .digest('base64url');
    const key = STORE_KEYS.idempotency(
      options.scope(c),
      createHash('sha256').update(header).digest('base64url'),
    );
    const running: IdempotencyRecord = { state: 'in_flight', fingerprint };

    if (!(await options.store.insert(key, JSON.stringify(running), IN_FLIGHT_LOCK_MS))) {
      const existing = await options.store.get(key);
      if (existing === null) throw conflict('in_progress');
      const record = IdempotencyRecordSchema.parse(JSON.parse(existing.value));
      if (record.fingerprint !== fingerprint) throw conflict('different_request');
      if (record.state === 'in_flight') throw conflict('in_progress');
      return answerBody(c, record.body, record.status, {
        'Content-Type': record.contentType,
        'Idempotent-Replayed': 'true',
        'Cache-Control': 'no-store',
      });
    }

    await next();

    const status = c.res.status;
    if (!keepAnswer(status)) {
      await options.store.compareAndDelete(key, 1);
      return;
    }
    const done: IdempotencyRecord = {
      state: 'done',
      fingerprint,
      status,
      body: await c.res.clone().text(),
      contentType: c.res.headers.get('Content-Type') ?? 'application/json',
    };
    await options.store.compareAndSet(key, 1, JSON.stringify(done), options.ttlMs);
  };
}
