/**
 * @module
 * Erasing one traveller's personal data at the partner's request (GDPR art. 17): a job on the store's work queue
 * (`QUEUE_NAMES.privacyErasures`), so that an instance killed mid-way leaves it to come back by itself, on any
 * instance. Its receipt (`STORE_KEYS.privacyErasure`) holds ids, counts and times, and the e-mail address only as a
 * keyed digest (the key ring's `privacy-erasure` key). The steps, each recorded in the receipt once done and each
 * harmless to run again:
 *
 * 1. `esims` — every manage token of their eSIMs answers `erased` (410) from then on, and their help requests
 *    keep no free text when next read (`after-sale/action-request-watch.ts`);
 * 2. `copies` — the address taken out of every copy: the bodies of the webhook deliveries about the traveller's
 *    checkouts (those a release before this one queued with the address), every kept answer of an idempotent
 *    request that names it, the help requests about their eSIMs (their free text, which may name the person);
 * 3. `checkouts` — the checkouts lose the address, the digest of the client address that opened them, and any
 *    error text that named the address; their money facts (ids, amounts, dates, status, order) stay, and the
 *    write takes them out of the address's index. Last, because the copies are found by the address the
 *    checkouts still hold: a job cut short before this step finds it again.
 * 4. `notified` — the `privacy.erased` webhook of each widget with an endpoint, then the receipt completed.
 *
 * Over 300 lines: the job's four steps in order, each with what its receipt records.
 */
import type {
  PrivacyCounts,
  PrivacyErasedWebhookEvent,
  PrivacyErasure,
  PrivacySubject,
} from '@esim-embed/shared';
import { z } from 'zod';
import type { ManageTokens } from '../after-sale/manage-token';
import { createBackgroundLoop } from '../background-loop';
import { searchedEmail } from '../checkout/checkout-index';
import type { CheckoutRepository } from '../checkout/checkout-record';
import { retentionMs } from '../config/config-schema';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { hmacSha256 } from '../security/hmac';
import { randomBase64url } from '../security/random-ids';
import { STORE_KEYS } from '../store/store';
import { storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import { QUEUE_NAMES } from '../store/work-queue';
import { eventId, queueWebhookEvent } from '../webhooks/webhook-events';
import type { WebhookQueue } from '../webhooks/webhook-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { ErasedAddresses } from './personal-data';
import { esimsOf, type PrivacySubjectsOptions, subjectCheckouts, subjectRef } from './privacy-subjects';
import { createTravellerRecords } from './traveller-records';

/** How long a claimed erasure is held by its instance before another may take it over. */
const LEASE_MS = 60_000;

/** The steps of a job, in order (see the module). */
const STEPS = ['esims', 'copies', 'checkouts', 'notified'] as const;
type Step = (typeof STEPS)[number];

const CountsSchema = z.object({
  checkouts: z.int().min(0).default(0),
  esims: z.int().min(0).default(0),
  webhookDeliveries: z.int().min(0).default(0),
  keptAnswers: z.int().min(0).default(0),
  actionRequests: z.int().min(0).default(0),
});
const noCounts = (): PrivacyCounts => CountsSchema.parse({});

/** An erasure as stored: read leniently (a field of a later release is kept). */
const StoredErasureSchema = z.looseObject({
  id: z.string(),
  widgetIds: z.array(z.string()),
  subject: z.object({ kind: z.enum(['email', 'checkout', 'esim', 'widget']), id: z.string().nullable() }),
  /** The keyed digest of the address asked for (`privacy-erasure` key), never the address; null for an id. */
  subjectDigest: z.string().nullable().default(null),
  checkoutIds: z.array(z.string()),
  esimIds: z.array(z.string()),
  done: z.array(z.enum(STEPS)).default([]),
  found: CountsSchema,
  erased: CountsSchema,
  requestedAtMs: z.number(),
  completedAtMs: z.number().nullable().default(null),
});
type StoredErasure = z.output<typeof StoredErasureSchema>;
/** What names a new erasure: whose, and what it erases. */
type NewErasure = Pick<
  StoredErasure,
  'id' | 'widgetIds' | 'subject' | 'subjectDigest' | 'checkoutIds' | 'esimIds'
>;

export interface PrivacyErasuresOptions extends PrivacySubjectsOptions {
  /** The checkout repository every checkout write goes through (its indexes kept with it). */
  repository: CheckoutRepository;
  webhookQueue: WebhookQueue;
  manageTokens: Pick<ManageTokens, 'erase'>;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  /** The key ring's `privacy-erasure` key: the receipt names an address by its HMAC under it. */
  digestKey: Uint8Array;
  /** How long a rewritten kept answer lives (the longest any is kept). */
  keptAnswerTtlMs: number;
  /** How long a rewritten help request lives (`retention.actionRequestDays`). */
  actionRequestTtlMs: number;
  /**
   * How long a receipt is kept: as long as an eSIM and its seller are (`retention.esimDays`), the partner's proof
   * that it was done. Default: that setting's default.
   */
  receiptKeptMs?: number;
  logger: Logger;
  /** How often the queue is read for erasures left by an instance that stopped. Default 5 s. */
  intervalMs?: number;
  now?: () => number;
  /** Told after each step is recorded (tests stop a job there, as a killed process would). */
  afterStep?: (step: Step, erasureId: string) => Promise<void>;
}

/** The partner's erasures. */
export interface PrivacyErasures {
  /**
   * Find what `subject` names among `widgets` (the caller's), record the receipt under `id` (kept with the
   * request's idempotency key, so a retry names the same one) and queue the job; answers the receipt, pending.
   */
  request(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    subject: PrivacySubject,
    id: string,
  ): Promise<PrivacyErasure>;
  /**
   * Erase every traveller of `widgetId`, a widget no longer in the config, from `checkoutIds` (its checkouts still
   * kept) under `id`; answers the receipt (the one already recorded under `id`, when there is one).
   */
  requestForRemovedWidget(
    widgetId: string,
    checkoutIds: readonly string[],
    id: string,
  ): Promise<PrivacyErasure>;
  /** The receipt `id` of one of `widgets`' erasures; `not_found` for any other. */
  read(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<PrivacyErasure>;
  /** Run the erasures due now (the loop calls this; tests may too). */
  runDue(): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The receipt as the partner reads it. */
function receiptOf(stored: StoredErasure): PrivacyErasure {
  return {
    id: stored.id,
    status: stored.completedAtMs === null ? 'pending' : 'completed',
    subject: stored.subject,
    widgetIds: stored.widgetIds,
    found: stored.found,
    erased: stored.erased,
    requestedAt: iso(stored.requestedAtMs),
    completedAt: stored.completedAtMs === null ? null : iso(stored.completedAtMs),
  };
}

const unknownErasure = (id: string) =>
  new ApiError('not_found', { params: { resource: 'privacy_erasure', erasureId: id } });

/** The {@link PrivacyErasures} of a store. */
export function createPrivacyErasures(options: PrivacyErasuresOptions): PrivacyErasures {
  const receiptKeptMs = options.receiptKeptMs ?? retentionMs().esimMs;
  const { store, repository, webhookQueue, widgets, logger } = options;
  const now = options.now ?? Date.now;
  const queue = store.queue(QUEUE_NAMES.privacyErasures);
  const records = createTravellerRecords(options);

  async function readStored(id: string): Promise<StoredErasure | null> {
    const stored = await store.get(STORE_KEYS.privacyErasure(id));
    return stored === null ? null : StoredErasureSchema.parse(JSON.parse(stored.value));
  }

  /** Record a step done with what it found and erased (a step recorded once: running it again adds nothing). */
  async function recordStep(
    id: string,
    step: Step,
    counts: { found: Partial<PrivacyCounts>; erased: Partial<PrivacyCounts> },
  ): Promise<StoredErasure> {
    const outcome = await versionedUpdate(
      storeSlot(store, STORE_KEYS.privacyErasure(id), receiptKeptMs),
      (current) => {
        if (current === null) throw new Error(`erasure ${id} is gone`);
        const stored = StoredErasureSchema.parse(JSON.parse(current.value));
        if (stored.done.includes(step)) return writeValue(current.value, stored);
        const next: StoredErasure = {
          ...stored,
          done: [...stored.done, step],
          found: { ...stored.found, ...counts.found },
          erased: { ...stored.erased, ...counts.erased },
          completedAtMs: step === 'notified' ? now() : stored.completedAtMs,
        };
        return writeValue(JSON.stringify(next), next);
      },
    );
    if (outcome.kind !== 'written') throw new Error(`erasure ${id} kept changing`);
    await options.afterStep?.(step, id);
    return outcome.result;
  }

  /** Tell each widget with an endpoint that the erasure is done (once: its event id is the erasure's). */
  async function notify(stored: StoredErasure, completedAtMs: number): Promise<void> {
    const receipt = receiptOf({ ...stored, completedAtMs });
    for (const widgetId of stored.widgetIds) {
      const widget = widgets.get(widgetId);
      if (widget?.config.webhookUrl === undefined || widget.webhookSecret === undefined) continue;
      const event: PrivacyErasedWebhookEvent = {
        id: eventId(`${stored.id}:${widgetId}`, 'privacy.erased'),
        type: 'privacy.erased',
        createdAt: iso(completedAtMs),
        widgetId,
        environment: widget.config.environment,
        data: { erasure: receipt },
      };
      await queueWebhookEvent(webhookQueue, event, completedAtMs);
    }
  }

  /** Run one erasure from the first step not yet recorded to the end. */
  async function run(id: string): Promise<void> {
    let stored = await readStored(id);
    if (stored === null || stored.completedAtMs !== null) {
      await queue.remove(id);
      return;
    }
    // The checkouts as they are now: before step 3 they still hold the address the copies are found by.
    const checkouts = (
      await Promise.all(stored.checkoutIds.map((checkoutId) => repository.getCheckout(checkoutId)))
    ).flatMap((found) => (found === null ? [] : [found.record]));
    const addresses: ErasedAddresses = new Set(
      checkouts.flatMap((record) => (record.email === null ? [] : [searchedEmail(record.email)])),
    );
    if (!stored.done.includes('esims')) {
      for (const esimId of stored.esimIds) await options.manageTokens.erase(esimId);
      const esims = stored.esimIds.length;
      stored = await recordStep(id, 'esims', { found: { esims }, erased: { esims } });
    }
    if (!stored.done.includes('copies')) {
      const deliveries = await records.deliveries(checkouts, stored.widgetIds, stored.esimIds, addresses);
      const keptAnswers = await records.keptAnswers(addresses);
      const requests = await records.actionRequests(stored.widgetIds, stored.esimIds, addresses);
      stored = await recordStep(id, 'copies', {
        found: { webhookDeliveries: deliveries.found, keptAnswers, actionRequests: requests.found },
        erased: { webhookDeliveries: deliveries.erased, keptAnswers, actionRequests: requests.erased },
      });
    }
    if (!stored.done.includes('checkouts')) {
      const erased = await records.checkouts(stored.checkoutIds, addresses);
      stored = await recordStep(id, 'checkouts', {
        found: { checkouts: stored.checkoutIds.length },
        erased: { checkouts: erased },
      });
    }
    // What the rewrites left in the store's files (old rows, free pages, the WAL) goes before the receipt says done.
    await store.compact?.();
    const completedAtMs = now();
    await notify(stored, completedAtMs);
    stored = await recordStep(id, 'notified', { found: {}, erased: {} });
    await queue.remove(id);
    logger.info('traveller erased', {
      erasureId: id,
      widgetIds: stored.widgetIds,
      subject: stored.subject.kind,
      checkouts: stored.erased.checkouts,
    });
  }

  async function runDue(): Promise<void> {
    for (;;) {
      const items = await queue.claim(now(), { limit: 10, perPartition: 10, leaseMs: LEASE_MS });
      if (items.length === 0) return;
      for (const item of items) {
        try {
          await run(item.id);
        } catch (error) {
          // Left leased: it comes back after the lease, here or on another instance, from the step it reached.
          logger.warn('an erasure stopped before its end; it goes on later', {
            erasureId: item.id,
            cause: String(error),
          });
          return;
        }
      }
    }
  }

  const loop = createBackgroundLoop(runDue, {
    intervalMs: options.intervalMs ?? 5_000,
    runAtStart: true,
    logger,
    failure: 'erasures could not be read',
  });

  /** The HMAC of an address as searches match it: tells two erasures of one address apart from others. */
  const digestOf = (email: string) =>
    hmacSha256(options.digestKey, searchedEmail(email)).subarray(0, 16).toString('base64url');

  /** Record a new erasure and queue its job (or answer the one recorded under its id already). */
  async function record(fields: NewErasure) {
    const stored: StoredErasure = {
      ...fields,
      done: [],
      found: noCounts(),
      erased: noCounts(),
      requestedAtMs: now(),
      completedAtMs: null,
    };
    // Written before it is queued: a job on the queue always has its receipt.
    if (!(await store.insert(STORE_KEYS.privacyErasure(stored.id), JSON.stringify(stored), receiptKeptMs))) {
      const raced = await readStored(stored.id);
      if (raced !== null) return receiptOf(raced);
    }
    await queue.add({ id: stored.id, partition: stored.widgetIds[0] ?? 'none', dueAtMs: now() });
    logger.info('erasure requested', {
      erasureId: stored.id,
      widgetIds: stored.widgetIds,
      subject: stored.subject.kind,
    });
    loop.runSoon();
    return receiptOf(stored);
  }

  return {
    async request(callerWidgets, subject, id) {
      const existing = await readStored(id);
      if (existing !== null) return receiptOf(existing);
      const checkouts = await subjectCheckouts(options, callerWidgets, subject);
      const esimIds = 'esimId' in subject ? [subject.esimId] : [];
      return await record({
        id,
        widgetIds: [...callerWidgets.keys()].sort(),
        subject: subjectRef(subject),
        subjectDigest: 'email' in subject ? digestOf(subject.email) : null,
        checkoutIds: checkouts.map((checkout) => checkout.id),
        esimIds: [...new Set([...esimIds, ...esimsOf(checkouts)])],
      });
    },
    async requestForRemovedWidget(widgetId, checkoutIds, id) {
      const existing = await readStored(id);
      if (existing !== null) return receiptOf(existing);
      const found = await Promise.all(checkoutIds.map((checkoutId) => repository.getCheckout(checkoutId)));
      const checkouts = found.flatMap((stored) => (stored === null ? [] : [stored.record]));
      return await record({
        id,
        widgetIds: [widgetId],
        subject: { kind: 'widget', id: widgetId },
        subjectDigest: null,
        checkoutIds: checkouts.map((checkout) => checkout.id),
        esimIds: esimsOf(checkouts),
      });
    },
    async read(callerWidgets, id) {
      const stored = /^era_[A-Za-z0-9_-]{8,64}$/.test(id) ? await readStored(id) : null;
      // Only the partner's own: an erasure of widgets the secret does not all open reads as unknown.
      if (stored === null || !stored.widgetIds.every((widgetId) => callerWidgets.has(widgetId))) {
        throw unknownErasure(id);
      }
      return receiptOf(stored);
    },
    runDue,
    start: () => loop.start(),
    close: () => loop.close(),
  };
}

/** A new erasure id (chosen before the request runs, so that a retry under its key names the same one). */
export const newErasureId = (): string => `era_${randomBase64url(16)}`;
