/**
 * @module
 * What happens when a checkout changes state, in one place: its webhook events queued, the background watch,
 * the seller of its eSIM recorded, the partner's funding hold following it, the installation email queued, the
 * sale in the partner's ledger, the transitions metric — and the one checkout repository, built here, through which every change is written
 * (keeping the partner lists' indexes, `checkout-index.ts`, with every write).
 *
 * A reaction that fails is done again, never dropped: the status a change enters is written into the record's
 * `reactionsDue` by the same compare-and-set as the change, and the checkout is on the watch list before that
 * write; the reactions run at once, and the statuses whose reactions all succeeded leave `reactionsDue`. Any
 * left (a store error, a crash after the write) are done again by the watch, which keeps the checkout until
 * none are. Every reaction is idempotent — event ids per checkout and status, a seller inserted once, holds
 * changed by checkout id, an installation email queued once per checkout — so doing one again repeats nothing.
 */
import { CHECKOUT_TERMINAL_STATUSES } from '@esim-embed/shared';
import type { Logger } from '../logger';
import type { Store } from '../store/store';
import { leaveValue, versionedUpdate, writeValue } from '../store/versioned-update';
import { type CheckoutIndexNames, type CheckoutIndexOptions, createCheckoutIndex } from './checkout-index';
import {
  type CheckoutObserver,
  type CheckoutRecord,
  type CheckoutRepository,
  checkoutSlot,
  createCheckoutRepository,
  type Stored,
} from './checkout-record';
import type { CheckoutWatch } from './checkout-watch';
import type { EsimOwners } from './esim-owners';
import type { OrderReferences } from './order-references';

/** What a change of status sets off; each part idempotent. */
export interface CheckoutReactions {
  /** Queues the webhook events of the status a checkout entered. */
  webhooks: CheckoutObserver;
  /** Records who sold the eSIM a checkout issued. */
  esimOwners: Pick<EsimOwners, 'record'>;
  /** Moves the checkout's funding hold with its status (absent: no funding check). */
  funding?: { observe: CheckoutObserver } | undefined;
  /**
   * Queues the installation email of a ready eSIM the BFF sends itself (absent: it sends none); answers the
   * email's record on the checkout (null: none is sent), which the checkout's webhooks then carry.
   */
  installationEmails?:
    | ((entered: CheckoutRecord) => Promise<CheckoutRecord['installationEmail']>)
    | undefined;
  /** The watch list: checkouts still moving, or with reactions due. */
  watch: Pick<CheckoutWatch, 'add' | 'remove'>;
  /** Which checkout each order reference belongs to (recorded before a checkout may place its order). */
  orderReferences: Pick<OrderReferences, 'record'>;
  /**
   * The partner's sales ledger, told of the checkout as it stands: on each change of status (done again until
   * it succeeds, as every reaction), and on a write that keeps the status (best effort: the next write or change
   * of status tells it again). Absent: no ledger is kept.
   */
  salesLedger?:
    | { follow(before: CheckoutRecord | null, after: Stored<CheckoutRecord>): Promise<void> }
    | undefined;
}

export interface CheckoutTransitionsOptions {
  store: Store;
  logger: Logger;
  reactions: CheckoutReactions;
  /** Counts each change of status as it is written (the metrics, when on). */
  counted?: ((status: string) => void) | undefined;
  /** The names of the partner lists' indexes (`checkout-index.ts`). */
  indexNames: CheckoutIndexNames;
  /** How long a checkout, and an eSIM in its seller's list, are kept. Default: the config's defaults. */
  retention?: CheckoutIndexOptions['retention'];
  /** The clock the indexes' renewal reads (`checkout-index.ts`). Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The checkouts' repository and what their changes of status set off. */
export interface CheckoutTransitions {
  /** The one checkout repository: every change of status written through it sets its reactions off. */
  repository: CheckoutRepository;
  /**
   * Do the reactions still due on a stored checkout (the watch calls this, with the record it just read when it
   * has one); true when none remain. A record of an earlier release that finished counts its last status as due
   * once.
   */
  settle(checkoutId: string, seen?: CheckoutRecord): Promise<boolean>;
}

const terminal = (status: string) => (CHECKOUT_TERMINAL_STATUSES as readonly string[]).includes(status);

/** `due` without one occurrence of each of `done` (statuses entered again since stay due). */
function without(due: readonly string[], done: readonly string[]): string[] {
  const left = [...due];
  for (const status of done) {
    const at = left.indexOf(status);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

/** The {@link CheckoutTransitions} of a BFF. */
export function createCheckoutTransitions(options: CheckoutTransitionsOptions): CheckoutTransitions {
  const { logger, reactions } = options;

  /** Every reaction to `record` having entered `status`; throws when one of them failed. */
  async function reactTo(stored: Stored<CheckoutRecord>, status: string): Promise<void> {
    const record = stored.record;
    let entered = { ...record, status } as CheckoutRecord;
    // Each runs even when one before it failed: what succeeded is not redone for nothing, all are idempotent.
    const failures: unknown[] = [];
    for (const reaction of [
      // First, so that the webhooks' checkout says the email is on its way.
      async () => {
        const email = await reactions.installationEmails?.(entered);
        if (email != null) entered = { ...entered, installationEmail: email };
      },
      () => reactions.webhooks(null, entered),
      () => reactions.esimOwners.record(entered),
      () => reactions.funding?.observe(null, entered),
      // The checkout as it is (not as it entered `status`): the ledger keeps the latest of a sale.
      () => reactions.salesLedger?.follow(null, stored),
    ]) {
      await Promise.resolve()
        .then(reaction)
        .catch((error: unknown) => failures.push(error));
    }
    if (failures.length > 0) throw failures[0];
  }

  /**
   * Do the reactions due on `stored`, clear the statuses done, and let a finished checkout leave the watch.
   * Answers the checkout as it stands afterwards, and whether nothing is due any more.
   */
  async function react(
    stored: Stored<CheckoutRecord>,
    due: readonly string[],
  ): Promise<{ stored: Stored<CheckoutRecord>; settled: boolean }> {
    const record = stored.record;
    const done: string[] = [];
    for (const status of due) {
      try {
        await reactTo(stored, status);
      } catch (error) {
        // Left due on the record: the watch does it again (the change itself is written and stands).
        logger.warn('a reaction to a checkout change failed: the watch does it again', {
          checkoutId: record.id,
          status,
          cause: String(error),
        });
        break;
      }
      done.push(status);
    }
    if (done.length < due.length) {
      // Put on the watch before the write already; again here in case a sweep let it go in between.
      await reactions.watch.add(record).catch(() => undefined);
    }
    if (done.length === 0) return { stored, settled: false };
    const cleared = await versionedUpdate(
      checkoutSlot(repository, record.id),
      (current) => {
        if (current === null) return leaveValue(false);
        const left = without(current.record.reactionsDue ?? [], done);
        const finished = left.length === 0 && terminal(current.record.status);
        if (left.length === (current.record.reactionsDue ?? []).length) return leaveValue(finished);
        return writeValue({ ...current.record, reactionsDue: left }, finished);
      },
      { initial: stored },
    );
    if (cleared.kind === 'contended' || cleared.kind === 'deleted') return { stored, settled: false };
    // A finished checkout with nothing due leaves the watch now (else the watch's next sweep takes it off).
    if (cleared.result) await reactions.watch.remove(record.id);
    return {
      stored: cleared.kind === 'written' ? cleared.stored : stored,
      settled: done.length === due.length,
    };
  }

  // Every write keeps the partner lists' indexes too (checkout-index.ts), whether or not the status changes.
  const repository = createCheckoutRepository(
    options.store,
    {
      async prepare(next) {
        // On the watch before the change is written: a crash right after the write leaves its reactions found.
        await reactions.watch.add(next);
        // Known as ours before any order can carry its reference: reconciliation never calls such an order foreign.
        if (next.status === 'placing') await reactions.orderReferences.record(next);
      },
      async written(_before, after) {
        options.counted?.(after.record.status);
        // The change is written and stands: its reactions' failures are logged and left due, never thrown.
        try {
          return (await react(after, after.record.reactionsDue ?? [after.record.status])).stored;
        } catch (error) {
          logger.warn('a reaction to a checkout change failed: the watch does it again', {
            checkoutId: after.record.id,
            status: after.record.status,
            cause: String(error),
          });
          return after;
        }
      },
      async kept(before, after) {
        await reactions.salesLedger?.follow(before, after).catch((error: unknown) => {
          logger.warn('a sale was not brought up to date: its next change does it', {
            checkoutId: after.record.id,
            cause: String(error),
          });
        });
      },
    },
    createCheckoutIndex(options.store, {
      names: options.indexNames,
      retention: options.retention,
      now: options.now,
    }),
    options.now,
  );

  return {
    repository,
    async settle(checkoutId, seen) {
      // Read just now with nothing due: no second read of the store.
      if (seen?.reactionsDue !== undefined && seen.reactionsDue.length === 0) return true;
      const stored = await repository.getCheckout(checkoutId);
      if (stored === null) return true;
      const { reactionsDue, status } = stored.record;
      // A finished checkout of an earlier release: its last status's events are queued again (same ids).
      const due = reactionsDue ?? (terminal(status) ? [status] : []);
      if (due.length === 0) return true;
      return (await react(stored, due)).settled;
    },
  };
}
