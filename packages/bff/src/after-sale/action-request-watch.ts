/**
 * @module
 * The help requests the partner made through this BFF, followed until they end: each one's widget, eSIM and
 * last status are kept in the store; those not yet `completed` or `rejected` are on a work queue (by widget) and
 * read again in the background in bounded batches (and whenever the partner reads one), and every status change
 * is sent as a signed `action_request.updated` webhook. A completed reissue's new eSIM is remembered so that the
 * traveller's "my eSIM" opens it; a completed refund or cancellation has the eSIM's checkout read again at once,
 * so that its `checkout.cancelled` and `checkout.refunded` go out now rather than when the partner next reads the
 * checkout. Each record keeps the request as last read and is in its widget's sorted indexes (all, by status, by
 * eSIM) for the partner's support desk (`action-request-desk.ts`); those the release before wrote (no view, no
 * index) are read once more and indexed by the index build at start (`store/index-rebuild.ts`).
 *
 * Over 300 lines: a request's record, its queue item and its webhook move together; the partner's list is
 * `action-request-desk.ts`.
 */
import {
  type ActionRequestWebhookEvent,
  type PartnerActionRequest,
  PartnerActionRequestSchema,
} from '@esim-embed/shared';
import { z } from 'zod';
import { createBackgroundLoop } from '../background-loop';
import type { EsimOwners } from '../checkout/esim-owners';
import { retentionMs } from '../config/config-schema';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { IndexedRecords } from '../store/index-rebuild';
import { legacyIdListMover } from '../store/legacy-id-list';
import { STORE_KEYS, type Store, type Versioned } from '../store/store';
import { leaveValue, storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import { QUEUE_NAMES } from '../store/work-queue';
import { eventId, queueWebhookEvent } from '../webhooks/webhook-events';
import type { WebhookQueue } from '../webhooks/webhook-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { ACTION_REQUEST_INDEXES } from './action-request-desk';
import { fetchActionRequest } from './action-requests';

/** How many reissues in a row "my eSIM" follows (a chain longer than this is not expected). */
const MAX_REPLACEMENTS = 5;
/** Requests claimed at once, in all and of one widget; batches one sweep claims at most. */
const BATCH = { limit: 100, perPartition: 25 } as const;
const BATCHES_PER_SWEEP = 10;
/** How long a claimed request is held for its reader (it comes back by itself after an instance dies). */
const LEASE_MS = 60_000;

/** A help request as stored: read with its own lenient schema (fields added later default). */
const StoredActionRequestSchema = z.object({
  schemaVersion: z.int().default(1),
  id: z.string(),
  widgetId: z.string(),
  esimId: z.string(),
  status: z.string(),
  updatedAt: z.string(),
  /** The request as last read (the desk lists it); records of the release before have none. */
  view: z.unknown().optional(),
});
export type StoredActionRequest = z.output<typeof StoredActionRequestSchema>;

/** A help request without the partner's own words about its traveller (one erased at the partner's request). */
export function withoutReasonDetail<R extends { reason?: { detail?: unknown } }>(request: R): R {
  const reason = request.reason;
  return reason?.detail == null ? request : { ...request, reason: { ...reason, detail: null } };
}

const terminal = (status: string) => status === 'completed' || status === 'rejected';

export interface ActionRequestWatchOptions {
  store: Store;
  /** Who sold each eSIM: a reissue's replacement is the same seller's. */
  esimOwners: Pick<EsimOwners, 'recordReplacement'>;
  queue: WebhookQueue;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  /** How often the open requests are read. */
  intervalMs: number;
  /**
   * A refund or cancellation of `esimId` completed: read the checkout that sold it again (its order is refunded
   * now, which ends the checkout and sends its webhooks). Idempotent; a failure has the status told again later.
   */
  refundCompleted?: ((widget: WidgetRuntime, esimId: string) => Promise<void>) | undefined;
  /**
   * How long a help request's record (and a reissue's replacement) is kept after its last change
   * (`retention.actionRequestDays`); its index entries are written with it, with the same life. Default: the
   * config's default.
   */
  retentionMs?: number | undefined;
  now?: () => number;
}

/** Follows the partner's help requests. */
export interface ActionRequestWatch {
  /** Record what was read of a request: a new status is stored and its webhook queued. Answers it as is. */
  observe(widget: WidgetRuntime, request: PartnerActionRequest): Promise<PartnerActionRequest>;
  /** The widget and eSIM of a request this BFF made, or null. */
  known(id: string): Promise<{ widgetId: string; esimId: string } | null>;
  /**
   * The eSIM a traveller's eSIM was replaced by (after every completed reissue), or the eSIM itself. Kept per
   * upstream account: the partner may have asked through any of its widgets that sell through it.
   */
  currentEsim(widget: WidgetRuntime, esimId: string): Promise<string>;
  /** Read every open request that is due (the loop calls this; tests may too). */
  sweep(): Promise<void>;
  /**
   * The stored requests as the index build at start reads and indexes them. One of the release before keeps no
   * view of the request: it is read from the upstream once (a status it moved to meanwhile is observed as the
   * watch would, told included), its view stored, and then indexed — ended ones too, which the watch no longer reads.
   */
  readonly indexedRecords: IndexedRecords<StoredActionRequest>;
  start(): void;
  /** Stop following; resolves once a sweep under way has finished. */
  close(): Promise<void>;
}

/** The {@link ActionRequestWatch}. */
export function createActionRequestWatch(options: ActionRequestWatchOptions): ActionRequestWatch {
  const retention = options.retentionMs ?? retentionMs().actionRequestMs;
  const { store, widgets, logger, esimOwners } = options;
  const webhooks = options.queue;
  const now = options.now ?? Date.now;
  const queue = store.queue(QUEUE_NAMES.actionRequestWatch);

  const parseStored = (found: Versioned) => StoredActionRequestSchema.parse(JSON.parse(found.value));
  async function stored(id: string) {
    const found = await store.get(STORE_KEYS.actionRequest(id));
    return found === null ? null : { record: parseStored(found), stored: found };
  }

  async function queueEvent(widget: WidgetRuntime, request: PartnerActionRequest): Promise<void> {
    if (widget.config.webhookUrl === undefined || widget.webhookSecret === undefined) return;
    const time = now();
    const event: ActionRequestWebhookEvent = {
      // One event per status of one request: queued twice (two instances, a retried write) it is still one.
      id: eventId(`${request.id}:${request.status}`, 'action_request.updated'),
      type: 'action_request.updated',
      createdAt: new Date(time).toISOString(),
      widgetId: widget.config.id,
      environment: widget.config.environment,
      data: { actionRequest: request },
    };
    if (await queueWebhookEvent(webhooks, event, time)) {
      logger.info('webhook event queued', {
        eventId: event.id,
        type: event.type,
        widgetId: widget.config.id,
        actionRequestId: request.id,
        status: request.status,
      });
    }
  }

  /**
   * Put a request in its widget's indexes (its status index moved from `previous`), with the life its record was
   * just written with, so that they end together; for a record not written now (the index build at start), the life
   * left after the request's last change upstream, which the record's write followed: they end no later than it.
   */
  async function indexRequest(
    widgetId: string,
    request: PartnerActionRequest,
    previous: string | null,
    writtenNow = true,
  ) {
    const score = Date.parse(request.createdAt);
    const lifeMs = writtenNow ? retention : Date.parse(request.updatedAt) + retention - now();
    if (lifeMs <= 0) return;
    const add = (name: string) => store.sortedIndex(name).add(request.id, score, lifeMs);
    if (previous !== null && previous !== request.status)
      await store.sortedIndex(ACTION_REQUEST_INDEXES.status(widgetId, previous)).remove(request.id);
    await add(ACTION_REQUEST_INDEXES.status(widgetId, request.status));
    await add(ACTION_REQUEST_INDEXES.all(widgetId));
    await add(ACTION_REQUEST_INDEXES.esim(widgetId, request.esimId));
  }

  /** Index a stored request (see {@link ActionRequestWatch.indexedRecords}); false when it cannot be listed. */
  async function indexStored(record: StoredActionRequest): Promise<boolean> {
    const kept = PartnerActionRequestSchema.safeParse(record.view);
    if (kept.success) {
      await indexRequest(record.widgetId, kept.data, null, false);
      return true;
    }
    // A widget no longer configured: no partner lists its requests.
    const widget = widgets.get(record.widgetId);
    if (widget === undefined) return false;
    let request: PartnerActionRequest;
    try {
      request = await fetchActionRequest(widget, record.id, record.esimId);
    } catch (error) {
      // Unknown to the upstream: there is nothing to show. Any other failure may pass: the build tries again.
      if (error instanceof ApiError && error.code === 'action_request_not_found') return false;
      throw error;
    }
    if (request.status !== record.status) {
      await watch.observe(widget, request);
      return true;
    }
    const outcome = await versionedUpdate(
      storeSlot(store, STORE_KEYS.actionRequest(record.id), retention),
      (current) => {
        const latest = current === null ? null : parseStored(current);
        // Gone, or read and written by the watch meanwhile (it indexed it): that write stands.
        if (latest === null || latest.view !== undefined || latest.status !== request.status)
          return leaveValue(false);
        return writeValue(JSON.stringify({ ...latest, view: request }), true);
      },
    );
    if (outcome.kind !== 'written') return false;
    await indexRequest(widget.config.id, request, null);
    return true;
  }

  async function rememberReplacement(widget: WidgetRuntime, request: PartnerActionRequest) {
    if (request.type !== 'reissue' || request.status !== 'completed' || request.replacementEsimId === null)
      return;
    const key = STORE_KEYS.esimReplacement(widget.upstream.credential, request.esimId);
    // The partner reaches the replacement as it reached the eSIM it replaces (partner routes check the seller).
    await esimOwners.recordReplacement(
      request.esimId,
      request.replacementEsimId,
      Date.parse(request.completedAt ?? request.updatedAt),
    );
    if (await store.insert(key, request.replacementEsimId, retention)) {
      logger.info('eSIM replaced by a reissue', {
        widgetId: widget.config.id,
        esimId: request.esimId,
        replacementEsimId: request.replacementEsimId,
        actionRequestId: request.id,
      });
    }
  }

  const moveLegacyList = legacyIdListMover(
    store,
    STORE_KEYS.legacyActionRequestWatch(),
    queue,
    async (id) => (await stored(id))?.record.widgetId ?? null,
  );

  /** Read one open request again; it stays on the queue, due after the interval, until it ends. */
  async function follow(id: string): Promise<void> {
    try {
      const found = await stored(id);
      const widget = found === null ? undefined : widgets.get(found.record.widgetId);
      if (found === null || widget === undefined) {
        await queue.remove(id);
        return;
      }
      await watch.observe(widget, await fetchActionRequest(widget, id, found.record.esimId));
    } catch (error) {
      logger.warn('a watched help request could not be read', {
        actionRequestId: id,
        code: error instanceof ApiError ? error.code : 'internal',
      });
    }
    // A no-op when observing it ended it (it left the queue).
    await queue.reschedule(id, now() + options.intervalMs);
  }

  const watch: ActionRequestWatch = {
    async observe(widget, asRead) {
      // The help requests of a traveller erased at the partner's request keep no free text here (nor send it).
      const erased =
        asRead.reason.detail !== null && (await store.get(STORE_KEYS.esimErased(asRead.esimId))) !== null;
      const request = erased ? withoutReasonDetail(asRead) : asRead;
      // Told before the status is written, both idempotent (insert once, event id per status): a crash or a
      // store hiccup in between leaves the old status stored, so the next read or sweep tells again.
      const seen = await stored(request.id);
      if (seen?.record.status === request.status) return request;
      await rememberReplacement(widget, request);
      if (request.status === 'completed' && (request.type === 'refund' || request.type === 'cancellation'))
        await options.refundCompleted?.(widget, request.esimId);
      await queueEvent(widget, request);
      const record: StoredActionRequest = {
        schemaVersion: 1,
        id: request.id,
        widgetId: widget.config.id,
        esimId: request.esimId,
        status: request.status,
        updatedAt: request.updatedAt,
        view: request,
      };
      // Another reader writing the same status first is as good as this write; a busy record is told again later.
      await versionedUpdate(
        storeSlot(store, STORE_KEYS.actionRequest(request.id), retention),
        (current, round) =>
          round > 0 && current !== null && parseStored(current).status === request.status
            ? leaveValue(null)
            : writeValue(JSON.stringify(record), null),
        { initial: seen === null ? null : seen.stored },
      );
      await indexRequest(widget.config.id, request, seen?.record.status ?? null);
      if (terminal(request.status)) await queue.remove(request.id);
      else await queue.add({ id: request.id, partition: widget.config.id, dueAtMs: now() });
      return request;
    },
    async known(id) {
      const found = await stored(id);
      return found === null ? null : { widgetId: found.record.widgetId, esimId: found.record.esimId };
    },
    async currentEsim(widget, esimId) {
      let current = esimId;
      for (let hop = 0; hop < MAX_REPLACEMENTS; hop += 1) {
        const next = await store.get(STORE_KEYS.esimReplacement(widget.upstream.credential, current));
        if (next === null) break;
        current = next.value;
      }
      return current;
    },
    async sweep() {
      await moveLegacyList(now());
      for (let batch = 0; batch < BATCHES_PER_SWEEP; batch += 1) {
        const claimed = await queue.claim(now(), { ...BATCH, leaseMs: LEASE_MS });
        for (const { id } of claimed) await follow(id);
        if (claimed.length < BATCH.limit) return;
      }
    },
    indexedRecords: {
      kind: 'action-request',
      prefix: STORE_KEYS.actionRequest(''),
      read: (value) => StoredActionRequestSchema.parse(JSON.parse(value)),
      index: indexStored,
    },
    start() {
      loop.start();
    },
    close() {
      return loop.close();
    },
  };
  const loop = createBackgroundLoop(() => watch.sweep(), {
    intervalMs: options.intervalMs,
    logger,
    failure: 'the help-request watch failed',
  });
  return watch;
}
