/**
 * @module
 * The console's audit log: one entry per sign-in (refused ones too) and per write — who, what, when, and the ids
 * it touched — kept `auditDays` and listed newest first per partner. An entry holds ids and plain facts only:
 * never a password, code, token, link or e-mail address (the callers pass ids; `detail` is for reasons, roles
 * and counts).
 */
import type { ConsoleAuditAction, ConsoleAuditEntry } from '@esim-embed/shared/console';
import { z } from 'zod';
import { randomBase64url } from '../security/random-ids';
import { type ListPage, type ListPosition, readIndexPage } from '../store/index-pages';
import { STORE_INDEXES, STORE_KEYS, type Store } from '../store/store';

/** What one action records. */
export interface AuditRecord {
  partnerId: string;
  action: ConsoleAuditAction;
  actor: { userId: string | null; username: string };
  target?: Record<string, string>;
  detail?: Record<string, string | number | boolean>;
}

/** A signed-in caller as the log names them: their user and their partner. */
export interface AuditedCaller {
  user: { id: string; username: string };
  partner: { id: string };
}

export interface ConsoleAudit {
  record(entry: AuditRecord): Promise<void>;
  /** Record what a signed-in `caller` did: the caller is the actor, in the caller's partner's log. */
  recordBy(
    caller: AuditedCaller,
    action: ConsoleAuditAction,
    target?: Record<string, string>,
    detail?: Record<string, string | number | boolean>,
  ): Promise<void>;
  list(partnerId: string, after: ListPosition | null, limit: number): Promise<ListPage<ConsoleAuditEntry>>;
}

const StoredEntrySchema = z.object({
  id: z.string(),
  partnerId: z.string(),
  at: z.number(),
  action: z.string(),
  actor: z.object({ userId: z.string().nullable(), username: z.string() }),
  target: z.record(z.string(), z.string()),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});

/** The {@link ConsoleAudit} over a store. */
export function createConsoleAudit(options: {
  store: Store;
  keptMs: number;
  now: () => number;
}): ConsoleAudit {
  const { store } = options;
  const audit: ConsoleAudit = {
    recordBy: ({ user, partner }, action, target, detail) =>
      audit.record({
        partnerId: partner.id,
        action,
        actor: { userId: user.id, username: user.username },
        ...(target === undefined ? {} : { target }),
        ...(detail === undefined ? {} : { detail }),
      }),

    async record(entry) {
      const stored = {
        id: `aud_${randomBase64url(12)}`,
        partnerId: entry.partnerId,
        at: options.now(),
        action: entry.action,
        actor: entry.actor,
        target: entry.target ?? {},
        detail: entry.detail ?? {},
      };
      await store.insert(STORE_KEYS.consoleAudit(stored.id), JSON.stringify(stored), options.keptMs);
      await store
        .sortedIndex(STORE_INDEXES.consoleAudit(entry.partnerId))
        .add(stored.id, stored.at, options.keptMs);
    },

    list(partnerId, after, limit) {
      return readIndexPage({
        store,
        names: [STORE_INDEXES.consoleAudit(partnerId)],
        fromScore: Number.NEGATIVE_INFINITY,
        toScore: Number.POSITIVE_INFINITY,
        after,
        limit,
        async resolve(entry) {
          const found = await store.get(STORE_KEYS.consoleAudit(entry.member));
          if (found === null) return undefined;
          const parsed = StoredEntrySchema.safeParse(JSON.parse(found.value));
          if (!parsed.success || parsed.data.partnerId !== partnerId) return undefined;
          const { partnerId: _partner, at, ...rest } = parsed.data;
          return { ...rest, at: new Date(at).toISOString() } as ConsoleAuditEntry;
        },
      });
    },
  };
  return audit;
}
