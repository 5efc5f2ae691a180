/**
 * @module
 * Console sessions in the store: a random token in the session cookie (the store keeps only its SHA-256), with
 * the user, a CSRF token for writes, when it began and when it was last used. A session ends after `idleMs`
 * without a request (its record's time to live, moved at most once a minute so that reads do not each write) and
 * `lifetimeMs` after its sign-in whatever happens; a user's disabling or change of role ends every session they
 * had (`sessionsNotBefore` on the user, checked by the auth).
 */
import { z } from 'zod';
import { hashOf } from '../after-sale/manage-token-crypto';
import { randomBase64url } from '../security/random-ids';
import { STORE_KEYS, type Store } from '../store/store';

/** A session moves its idle end at most this often (a write per minute of use, not per request). */
const TOUCH_EVERY_MS = 60_000;

const StoredSessionSchema = z.object({
  userId: z.string(),
  csrfToken: z.string(),
  via: z.enum(['password', 'sso']),
  startedAt: z.number(),
  lastSeenAt: z.number(),
});
export type ConsoleSessionRecord = z.infer<typeof StoredSessionSchema>;

/** A session read back, with the times it ends. */
export interface OpenSession extends ConsoleSessionRecord {
  idleEndsAt: number;
  endsAt: number;
}

export interface ConsoleSessions {
  /** Open a session for `userId`; answers its cookie token (never stored) and the session. */
  open(userId: string, via: ConsoleSessionRecord['via']): Promise<{ token: string; session: OpenSession }>;
  /** The session of a cookie token, its idle end moved; null when unknown or over. */
  use(token: string): Promise<OpenSession | null>;
  /** End a session (signing out). */
  end(token: string): Promise<void>;
}

export interface ConsoleSessionsOptions {
  store: Store;
  idleMs: number;
  lifetimeMs: number;
  now: () => number;
}

const parseSession = (value: string): ConsoleSessionRecord | null => {
  try {
    return StoredSessionSchema.parse(JSON.parse(value));
  } catch {
    return null;
  }
};

/** A token a cookie may carry: 32 random bytes as base64url. */
const isToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The {@link ConsoleSessions} over a store. */
export function createConsoleSessions(options: ConsoleSessionsOptions): ConsoleSessions {
  const { store, idleMs, lifetimeMs, now } = options;
  const withEnds = (record: ConsoleSessionRecord): OpenSession => ({
    ...record,
    idleEndsAt: Math.min(record.lastSeenAt + idleMs, record.startedAt + lifetimeMs),
    endsAt: record.startedAt + lifetimeMs,
  });
  const ttlOf = (record: ConsoleSessionRecord) => withEnds(record).idleEndsAt - now();

  return {
    async open(userId, via) {
      const token = randomBase64url(32);
      const time = now();
      const record = { userId, csrfToken: randomBase64url(24), via, startedAt: time, lastSeenAt: time };
      await store.insert(STORE_KEYS.consoleSession(hashOf(token)), JSON.stringify(record), ttlOf(record));
      return { token, session: withEnds(record) };
    },

    async use(token) {
      if (!isToken(token)) return null;
      const key = STORE_KEYS.consoleSession(hashOf(token));
      const found = await store.get(key);
      const record = found === null ? null : parseSession(found.value);
      if (found === null || record === null) return null;
      const time = now();
      const session = withEnds(record);
      // The store's time to live ends it too; this clock is the one tests move.
      if (time >= session.idleEndsAt) return null;
      if (time - record.lastSeenAt < TOUCH_EVERY_MS) return session;
      const touched = { ...record, lastSeenAt: time };
      // A concurrent request moved it already: either write is as good.
      await store.compareAndSet(key, found.version, JSON.stringify(touched), ttlOf(touched));
      return withEnds(touched);
    },

    async end(token) {
      if (!isToken(token)) return;
      const key = STORE_KEYS.consoleSession(hashOf(token));
      const found = await store.get(key);
      if (found !== null) await store.compareAndDelete(key, found.version);
    },
  };
}
