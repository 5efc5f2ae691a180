/**
 * @module
 * The partner's upstream account (`GET /account`: status, balance, limits) as the funding check reads it:
 * kept a few seconds, one read in flight shared by every caller, read again at once after an order was
 * placed, and served from the last good read for a short while when the upstream does not answer.
 */
import type { Account } from '@esim-embed/shared';
import type { UpstreamClient } from '../upstream/upstream-client';

/** An account as read, and when (ms since the epoch). */
export interface AccountSnapshot {
  account: Account;
  readAtMs: number;
}

export interface AccountSnapshotsOptions {
  upstream: Pick<UpstreamClient, 'getAccount'>;
  /** How long a read is served before the account is read again. Default 5 s. */
  freshMs?: number;
  /** How old a read may be and still be served while the upstream does not answer. Default 60 s. */
  maxStaleMs?: number;
  now?: () => number;
}

/** The cached account of one upstream credential. */
export interface AccountSnapshots {
  /** A read no older than `freshMs` (or, while the upstream fails, no older than `maxStaleMs`); throws otherwise. */
  read(): Promise<AccountSnapshot>;
  /** The last good read, if any (no upstream call). */
  peek(): AccountSnapshot | undefined;
  /** Forget the held read: the next `read` asks the upstream (an order was placed, the balance moved). */
  invalidate(): void;
}

/** The {@link AccountSnapshots} of one upstream client. */
export function createAccountSnapshots(options: AccountSnapshotsOptions): AccountSnapshots {
  const freshMs = options.freshMs ?? 5_000;
  const maxStaleMs = options.maxStaleMs ?? 60_000;
  const now = options.now ?? Date.now;
  let last: AccountSnapshot | undefined;
  let stale = false;
  let reading: Promise<AccountSnapshot> | undefined;

  function readUpstream(): Promise<AccountSnapshot> {
    reading ??= (async () => {
      const startedAt = now();
      try {
        const account = await options.upstream.getAccount();
        // The read reflects the balance as of when it was asked for, not when it arrived.
        last = { account, readAtMs: startedAt };
        stale = false;
        return last;
      } catch (error) {
        if (last !== undefined && now() - last.readAtMs <= maxStaleMs) return last;
        throw error;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  }

  return {
    async read() {
      if (last !== undefined && !stale && now() - last.readAtMs < freshMs) return last;
      return await readUpstream();
    },
    peek: () => last,
    invalidate() {
      stale = true;
    },
  };
}
