/**
 * @module
 * The console's users in the BFF's store (every store, through its interface): one record per user — name,
 * partner, role, password hash (scrypt), second factor sealed with AES-GCM under a key of the root secret — found
 * by id, or by name through the name's keyed digest (a copy of the store holds no list of names to read off its
 * keys), and listed per partner from a sorted index. Names are unique across the BFF: a sign-in finds its user by
 * name alone. Every change is a compare-and-set (`store/versioned-update.ts`), so two admins never undo each other.
 */
import type { ConsoleRole, ConsoleUser } from '@esim-embed/shared/console';
import { z } from 'zod';
import { seal, unseal } from '../after-sale/manage-token-crypto';
import { ApiError } from '../errors';
import type { KeyedDigest } from '../security/keyed-digest';
import { randomBase64url } from '../security/random-ids';
import { type ListPage, type ListPosition, readIndexPage } from '../store/index-pages';
import { STORE_INDEXES, STORE_KEYS, type Store } from '../store/store';
import { leaveValue, storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import type { ConsolePartner } from './console-partners';
import { hashPassword } from './password-hash';
import { newTotpSecret, otpauthUri } from './totp';

/** A user is kept this long after their last change or sign-in (each renews it). */
const USER_KEPT_MS = 10 * 365 * 24 * 60 * 60 * 1000;

/** A user's record as stored (lenient: a later release may add fields). */
const StoredUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  partnerId: z.string(),
  role: z.enum(['viewer', 'support', 'admin']),
  /** Null for a user who signs in through single sign-on only. */
  passwordHash: z.string().nullable(),
  /** The second factor's secret, sealed, and the last step whose code was used (a code is spent once). */
  secondFactor: z.object({ sealed: z.string(), usedStep: z.number().nullable() }).nullable(),
  disabled: z.boolean(),
  createdBy: z.enum(['cli', 'console', 'sso']),
  createdAt: z.number(),
  lastSignInAt: z.number().nullable(),
  /** Sessions opened before this time (ms) are over: set when the user is disabled or their role changes. */
  sessionsNotBefore: z.number(),
});
export type StoredConsoleUser = z.infer<typeof StoredUserSchema>;

/** What adding a user needs. */
export interface NewConsoleUser {
  username: string;
  /** Null: single sign-on only. */
  password: string | null;
  role: ConsoleRole;
  secondFactor: boolean;
  createdBy: StoredConsoleUser['createdBy'];
}

/** The console's users. */
export interface ConsoleUsers {
  /** Add a user of `partner`; answers them and, with a second factor, its enrolment URI (never again). */
  add(
    partner: Pick<ConsolePartner, 'id'>,
    user: NewConsoleUser,
  ): Promise<{ user: StoredConsoleUser; otpauthUri: string | null }>;
  read(id: string): Promise<StoredConsoleUser | null>;
  byName(username: string): Promise<StoredConsoleUser | null>;
  /**
   * Name an existing user under the current root secret's key, so that `byName` finds them again: a user added
   * under a root secret that is gone (the demo's per-process secret). False when the name is another user's.
   */
  claimName(user: StoredConsoleUser): Promise<boolean>;
  /** A page of the partner's users, newest first. */
  list(
    partner: ConsolePartner,
    after: ListPosition | null,
    limit: number,
  ): Promise<ListPage<StoredConsoleUser>>;
  /** Change a user's role or disabled flag; their open sessions end. */
  change(
    id: string,
    change: { role?: ConsoleRole | undefined; disabled?: boolean | undefined },
  ): Promise<StoredConsoleUser>;
  /** The second factor's secret of a user (null without one). */
  secondFactorOf(user: StoredConsoleUser): Buffer | null;
  /** Record a sign-in: its time and, when a code was used, its step (spent from then on). False: raced, try again. */
  signedIn(user: StoredConsoleUser, at: number, usedStep: number | null): Promise<boolean>;
}

export interface ConsoleUsersOptions {
  store: Store;
  /** Names a sign-in name in the store (`console-username` key). */
  usernameDigest: KeyedDigest;
  /**
   * The `console-second-factor` keys, newest first (one per root secret still listed): the newest seals, every
   * one opens — so a rotation of the root secret leaves each user's second factor readable.
   */
  sealKeys: readonly Buffer[];
  /** The issuer an authenticator app shows beside the code. */
  issuer: string;
  now: () => number;
}

/** Names are compared as typed, in lower case: `Jane@Example.com` and `jane@example.com` are one user. */
export const normalUsername = (username: string) => username.trim().toLowerCase();

/** A user as the console shows them: never their hash or second factor. */
export const toConsoleUser = (user: StoredConsoleUser): ConsoleUser => ({
  id: user.id,
  username: user.username,
  role: user.role,
  secondFactor: user.secondFactor !== null,
  disabled: user.disabled,
  createdBy: user.createdBy,
  createdAt: new Date(user.createdAt).toISOString(),
  lastSignInAt: user.lastSignInAt === null ? null : new Date(user.lastSignInAt).toISOString(),
});

const parseUser = (value: string): StoredConsoleUser | null => {
  try {
    return StoredUserSchema.parse(JSON.parse(value));
  } catch {
    return null;
  }
};

/** The {@link ConsoleUsers} over a store. */
export function createConsoleUsers(options: ConsoleUsersOptions): ConsoleUsers {
  const { store } = options;
  const [newestSealKey] = options.sealKeys;
  if (newestSealKey === undefined) throw new Error("no key to seal the console users' second factors with");

  async function read(id: string): Promise<StoredConsoleUser | null> {
    const found = await store.get(STORE_KEYS.consoleUser(id));
    return found === null ? null : parseUser(found.value);
  }

  async function claimName(user: StoredConsoleUser): Promise<boolean> {
    const key = STORE_KEYS.consoleUsername(options.usernameDigest(user.username));
    if (await store.insert(key, user.id, USER_KEPT_MS)) return true;
    return (await store.get(key))?.value === user.id;
  }

  /** Rewrite a user by `decide` (null: leave them as they are); the user as written, or null. */
  async function update(
    id: string,
    decide: (user: StoredConsoleUser) => StoredConsoleUser | null,
  ): Promise<StoredConsoleUser | null> {
    const outcome = await versionedUpdate(
      storeSlot(store, STORE_KEYS.consoleUser(id), USER_KEPT_MS),
      (current) => {
        const user = current === null ? null : parseUser(current.value);
        const next = user === null ? null : decide(user);
        return next === null ? leaveValue(null) : writeValue(JSON.stringify(next), next);
      },
    );
    if (outcome.kind === 'contended') throw new ApiError('store_unavailable', { retryAfterSeconds: 1 });
    return outcome.result;
  }

  return {
    async add(partner, wanted) {
      const username = normalUsername(wanted.username);
      const id = `usr_${randomBase64url(12)}`;
      // The name is taken first, by insert-if-absent: two admins adding one name never both succeed.
      const claimed = await store.insert(
        STORE_KEYS.consoleUsername(options.usernameDigest(username)),
        id,
        USER_KEPT_MS,
      );
      if (!claimed)
        throw new ApiError('validation_failed', { params: { field: 'username', reason: 'taken' } });
      const secret = wanted.secondFactor ? newTotpSecret() : null;
      const user: StoredConsoleUser = {
        id,
        username,
        partnerId: partner.id,
        role: wanted.role,
        passwordHash: wanted.password === null ? null : await hashPassword(wanted.password),
        secondFactor:
          secret === null
            ? null
            : { sealed: seal(newestSealKey, secret.toString('base64url')), usedStep: null },
        disabled: false,
        createdBy: wanted.createdBy,
        createdAt: options.now(),
        lastSignInAt: null,
        sessionsNotBefore: 0,
      };
      await store.sortedIndex(STORE_INDEXES.consoleUsers(partner.id)).add(id, user.createdAt, USER_KEPT_MS);
      await store.insert(STORE_KEYS.consoleUser(id), JSON.stringify(user), USER_KEPT_MS);
      return { user, otpauthUri: secret === null ? null : otpauthUri(secret, options.issuer, username) };
    },

    read,

    async byName(username) {
      const name = normalUsername(username);
      // The name under the newest root secret, else under one still listed (a rotation since it was added).
      for (const digest of [options.usernameDigest(name), ...options.usernameDigest.earlier(name)]) {
        const found = await store.get(STORE_KEYS.consoleUsername(digest));
        if (found === null) continue;
        const user = await read(found.value);
        // A name whose user was never written (a crash between the two inserts) names no one.
        if (user === null || user.username !== name) return null;
        if (digest !== options.usernameDigest(name)) await claimName(user);
        return user;
      }
      return null;
    },

    claimName,

    list(partner, after, limit) {
      // Every widget of the partner: a partner's first widget may change with the config, its users stay.
      const names = [...new Set([partner.id, ...partner.widgets.keys()])].map(STORE_INDEXES.consoleUsers);
      return readIndexPage({
        store,
        names,
        fromScore: Number.NEGATIVE_INFINITY,
        toScore: Number.POSITIVE_INFINITY,
        after,
        limit,
        async resolve(entry) {
          const user = await read(entry.member);
          return user !== null && partner.widgets.has(user.partnerId) ? user : undefined;
        },
      });
    },

    async change(id, change) {
      const changed = await update(id, (user) => ({
        ...user,
        role: change.role ?? user.role,
        disabled: change.disabled ?? user.disabled,
        sessionsNotBefore: options.now(),
      }));
      if (changed === null) throw new ApiError('not_found', { params: { userId: id } });
      return changed;
    },

    secondFactorOf(user) {
      if (user.secondFactor === null) return null;
      const { sealed } = user.secondFactor;
      const opened = options.sealKeys.reduce<string | null>(
        (found, key) => found ?? unseal(key, sealed),
        null,
      );
      return opened === null ? null : Buffer.from(opened, 'base64url');
    },

    async signedIn(user, at, usedStep) {
      const recorded = await update(user.id, (current) => {
        // Another sign-in spent this code meanwhile: this one is refused.
        if (usedStep !== null && (current.secondFactor?.usedStep ?? -1) >= usedStep) return null;
        return {
          ...current,
          lastSignInAt: at,
          secondFactor:
            current.secondFactor === null || usedStep === null
              ? current.secondFactor
              : { ...current.secondFactor, usedStep },
        };
      });
      return recorded !== null;
    },
  };
}
