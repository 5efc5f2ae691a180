/**
 * @module
 * Delivers queued webhook events: a worker loop claims due deliveries in bounded batches, a few from each widget,
 * and POSTs each to its widget's `webhookUrl`, signed (`Esim-Signature`). A failure (non-2xx, timeout, refused
 * connection) is retried with exponential backoff — 10 s (`webhookBackoffSeconds`), 20 s, 40 s … at most an hour
 * apart — until it is delivered or older than the retry span (≥ a day). Each widget's endpoint has a circuit: the
 * first delivery of a batch goes alone, and when it fails the widget's deliveries pause until the endpoint's next
 * backoff step (one probe per step, however many events wait, while other widgets go on); when it succeeds the rest
 * go at full speed. Every attempt is logged with the event id, type, attempt and result; never the secret or the body.
 * A stop claims nothing more and waits for the attempts under way to store their outcome (an event the partner
 * took is not sent again at the next start); what a batch still held is given back, due at once.
 */
import {
  signWebhook,
  WEBHOOK_DELIVERY_ATTEMPTS_LISTED,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '@esim-embed/shared';
import { z } from 'zod';
import { createBackgroundLoop } from '../background-loop';
import { type Backoff, backoffMs } from '../backoff';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store } from '../store/store';
import type { OutgoingCalls } from '../upstream/outgoing-call-observer';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { WebhookBodies } from './webhook-body';
import type { StoredDelivery, WebhookDelivery, WebhookQueue } from './webhook-queue';

const WEBHOOK_BACKOFF: Backoff = { firstMs: 10_000, maxMs: 60 * 60 * 1000 };

/**
 * The schedule whose first step is `firstMs` (config `webhookBackoffSeconds`): the pause after `attempts` failed
 * attempts, doubling, at most an hour.
 */
export function webhookBackoff(firstMs = WEBHOOK_BACKOFF.firstMs): (attempts: number) => number {
  const backoff = { ...WEBHOOK_BACKOFF, firstMs };
  return (attempts) => backoffMs(attempts - 1, backoff);
}

/** The pause after `attempts` failed attempts: 10 s doubling, at most an hour (the default schedule). */
export const webhookBackoffMs = webhookBackoff();

/** Deliveries claimed at once, in all. */
const BATCH_LIMIT = 500;
/** Deliveries claimed at once for one widget (so a backlog of one never fills a whole batch). */
const PER_WIDGET = 100;
/** Deliveries of one widget in flight at once after its probe succeeded. */
const CONCURRENCY = 16;

/** One endpoint's circuit: its consecutive failures, and until when its deliveries pause (ms; 0: unknown). */
const CircuitSchema = z.looseObject({ failures: z.int().min(1), untilMs: z.number().default(0) });

/**
 * Until when (ms since the epoch) the circuit of `widgetId`'s endpoint holds its deliveries back; null when it is
 * closed. What the partner's support desk reports as `paused`.
 */
export async function webhookCircuitPause(store: Store, widgetId: string): Promise<number | null> {
  return (await webhookCircuit(store, widgetId))?.untilMs ?? null;
}

/** The circuit of `widgetId`'s endpoint: its consecutive failures and until when it pauses; null when closed. */
export async function webhookCircuit(
  store: Store,
  widgetId: string,
): Promise<{ failures: number; untilMs: number } | null> {
  const stored = await store.get(STORE_KEYS.webhookCircuit(widgetId));
  if (stored === null) return null;
  const { failures, untilMs } = CircuitSchema.parse(JSON.parse(stored.value));
  return { failures, untilMs };
}

/**
 * End the pause of `widgetId`'s circuit now (a resend asked for an attempt at once), keeping its failures: the
 * next delivery goes as the endpoint's probe, and a new failure pauses it for the next backoff step. Answers
 * whether it ended a pause: only then is the widget's queue held by the circuit (and not by a batch under way on
 * some instance, which must keep its hold), so only then may the caller lift the queue's pause.
 */
export async function resumeWebhookCircuit(
  store: Store,
  widgetId: string,
  nowMs: number,
  retryForMs: number,
): Promise<boolean> {
  const key = STORE_KEYS.webhookCircuit(widgetId);
  const stored = await store.get(key);
  if (stored === null) return false;
  const circuit = CircuitSchema.parse(JSON.parse(stored.value));
  if (circuit.untilMs <= nowMs) return false;
  // A lost race means the sender wrote the circuit meanwhile: its word is the newer one.
  return await store.compareAndSet(
    key,
    stored.version,
    JSON.stringify({ ...circuit, untilMs: nowMs }),
    retryForMs,
  );
}

export interface WebhookSenderOptions {
  queue: WebhookQueue;
  /** Where each endpoint's circuit (its consecutive failures) is kept, shared by the instances. */
  store: Store;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  /** How long an event is retried before it is given up. */
  retryForMs: number;
  /** How often the worker claims due deliveries. Default 1 s. */
  intervalMs?: number;
  /** One attempt's timeout. Default 10 s. */
  timeoutMs?: number;
  /** The first backoff step (config `webhookBackoffSeconds`). Default 10 s. */
  backoffFirstMs?: number;
  now?: () => number;
  /** Told of every attempt (metrics, a trace span whose `traceparent` the POST carries); absent when both are off. */
  observer?: OutgoingCalls | undefined;
  /** Puts the traveller's address into a body as it leaves (`webhook-body.ts`); default: the body as stored. */
  bodies?: Pick<WebhookBodies, 'bodyOf'>;
}

/** The worker. */
export interface WebhookSender {
  /**
   * Claim what is due now and deliver it (the loop calls this; tests may too). Resolves when every delivery this
   * round claimed is done; the loop does not wait for a slow endpoint before it claims again.
   */
  deliverDue(): Promise<void>;
  start(): void;
  /**
   * Claim nothing more and start no new attempt (what a batch still holds is given back, due at once); resolves
   * once the claim and the attempts under way are done and their outcomes stored.
   */
  close(): Promise<void>;
}

/** The {@link WebhookSender}. */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { queue, store, widgets, logger, retryForMs } = options;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pauseAfter = webhookBackoff(options.backoffFirstMs);
  // A widget's batch is held this long: its probe, then the rest a few at a time, each within the timeout.
  const leaseMs = timeoutMs * (1 + Math.ceil(PER_WIDGET / CONCURRENCY)) + 5_000;
  let closing = false;
  /** The widgets' batches being delivered: a stop waits for them (an answered attempt has its outcome stored). */
  const delivering = new Set<Promise<void>>();

  async function post(
    url: string,
    secret: string,
    delivery: WebhookDelivery,
    traceHeaders: Record<string, string> | undefined,
  ): Promise<string> {
    // The traveller's address, kept in the checkout alone, goes in now (none once the traveller was erased); a
    // store that does not answer fails the round as any other store error does, not the endpoint's attempt.
    const body = (await options.bodies?.bodyOf(delivery)) ?? delivery.body;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          ...traceHeaders,
          'Content-Type': 'application/json',
          'User-Agent': 'esim-embed-webhooks/1',
          [WEBHOOK_ID_HEADER]: delivery.id,
          [WEBHOOK_SIGNATURE_HEADER]: await signWebhook(secret, body, Math.floor(now() / 1000)),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      await response.body?.cancel().catch(() => {});
      return String(response.status);
    } catch (error) {
      return error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network_error';
    }
  }

  const logFields = (delivery: WebhookDelivery, result: string) => ({
    eventId: delivery.id,
    type: delivery.type,
    widgetId: delivery.widgetId,
    attempt: delivery.attempts,
    result,
  });

  /** Write the outcome and take a finished delivery off the queue (a pending one is rescheduled). */
  async function settle(stored: StoredDelivery, next: WebhookDelivery): Promise<void> {
    if ((await queue.update(stored, next)) === null) return;
    if (next.state === 'pending') await queue.reschedule(next.id, next.nextAttemptAtMs);
    else await queue.remove(next.id);
  }

  /** Give up a delivery older than the retry span without calling its endpoint (it waited behind a pause, or its
   * next step came after the span). */
  async function giveUpUnsent(stored: StoredDelivery): Promise<void> {
    const { delivery } = stored;
    options.observer?.webhookDelivery(delivery.type, delivery.attempts).end('gave_up');
    await settle(stored, { ...delivery, state: 'gave_up', leaseUntilMs: null, lastResult: 'expired_unsent' });
    logger.error('webhook given up', logFields(delivery, 'expired_unsent'));
  }

  // A resent delivery's retry span starts again at the resend.
  const expired = (delivery: WebhookDelivery) =>
    now() - (delivery.resentAtMs ?? delivery.createdAtMs) >= retryForMs;

  /** One attempt; answers whether the endpoint took it (null: no endpoint is configured, nothing was learnt). */
  async function attempt(stored: StoredDelivery): Promise<boolean | null> {
    const delivery = { ...stored.delivery, attempts: stored.delivery.attempts + 1 };
    const widget = widgets.get(delivery.widgetId);
    const url = widget?.config.webhookUrl;
    const secret = widget?.webhookSecret;
    const observed = options.observer?.webhookDelivery(delivery.type, delivery.attempts);
    const result =
      url === undefined || secret === undefined
        ? 'not_configured'
        : await post(url, secret, delivery, observed?.headers);
    const ok = /^2\d\d$/.test(result);
    const state = ok ? 'delivered' : expired(delivery) || result === 'not_configured' ? 'gave_up' : 'pending';
    observed?.end(state === 'pending' ? 'failed' : state);
    const nextAttemptAtMs = now() + pauseAfter(delivery.attempts);
    // The record keeps the attempts the desk lists (the latest); `attempts` counts them all.
    const history = [...delivery.history, { atMs: now(), result }].slice(-WEBHOOK_DELIVERY_ATTEMPTS_LISTED);
    await settle(stored, {
      ...delivery,
      state,
      nextAttemptAtMs,
      leaseUntilMs: null,
      lastResult: result,
      history,
    });
    const fields = logFields(delivery, result);
    if (ok) logger.info('webhook delivered', fields);
    else if (state === 'gave_up') logger.error('webhook given up', fields);
    else
      logger.warn('webhook delivery failed, will retry', { ...fields, retryInMs: nextAttemptAtMs - now() });
    return result === 'not_configured' ? null : ok;
  }

  /** The endpoint failed once more: how long its deliveries pause (its next backoff step). */
  async function openCircuit(widgetId: string): Promise<number> {
    const key = STORE_KEYS.webhookCircuit(widgetId);
    const stored = await store.get(key);
    const failures = (stored === null ? 0 : CircuitSchema.parse(JSON.parse(stored.value)).failures) + 1;
    const untilMs = now() + pauseAfter(failures);
    const value = JSON.stringify({ failures, untilMs });
    // One writer per widget at a time (its batch is held): a lost race only means the same step again.
    if (stored === null) await store.insert(key, value, retryForMs);
    else await store.compareAndSet(key, stored.version, value, retryForMs);
    return untilMs;
  }

  async function closeCircuit(widgetId: string): Promise<void> {
    const key = STORE_KEYS.webhookCircuit(widgetId);
    const stored = await store.get(key);
    if (stored !== null) await store.compareAndDelete(key, stored.version);
  }

  /**
   * Deliver one widget's claimed batch: what is past the retry span given up unsent, then a probe alone, then the
   * rest a few at a time — or, when the probe failed, all of it back behind the circuit's pause.
   */
  async function deliverWidget(widgetId: string, batch: StoredDelivery[]): Promise<void> {
    // Held while this instance works it, so no other round or instance calls the endpoint meanwhile.
    await queue.pauseWidget(widgetId, now() + leaseMs);
    let pausedUntilMs = 0;
    try {
      const waiting: StoredDelivery[] = [];
      for (const stored of batch) {
        if (expired(stored.delivery)) await giveUpUnsent(stored);
        else waiting.push(stored);
      }
      let probed: boolean | null = null;
      while (probed === null && waiting.length > 0 && !closing) {
        probed = await attempt(waiting.shift() as StoredDelivery);
      }
      if (probed === false) {
        pausedUntilMs = await openCircuit(widgetId);
        for (const stored of waiting) await queue.reschedule(stored.delivery.id, now());
        return;
      }
      if (probed === true) await closeCircuit(widgetId);
      const workers = Array.from({ length: Math.min(CONCURRENCY, waiting.length) }, async () => {
        for (let stored = closing ? undefined : waiting.shift(); stored !== undefined; ) {
          await attempt(stored);
          stored = closing ? undefined : waiting.shift();
        }
      });
      await Promise.all(workers);
      // Left by a stop: due again at once (at the next start, or on another instance), not when the lease ends.
      for (const stored of waiting) await queue.reschedule(stored.delivery.id, now());
    } finally {
      await queue.pauseWidget(widgetId, pausedUntilMs);
    }
  }

  /** Claim one batch and start delivering it; answers the deliveries under way. */
  async function claimRound(): Promise<Promise<void>[]> {
    if (closing) return [];
    await queue.adoptLegacyList(now());
    const claimed = await queue.claim(now(), { limit: BATCH_LIMIT, perPartition: PER_WIDGET, leaseMs });
    const byWidget = new Map<string, StoredDelivery[]>();
    for (const stored of claimed) {
      const batch = byWidget.get(stored.delivery.widgetId) ?? [];
      batch.push(stored);
      byWidget.set(stored.delivery.widgetId, batch);
    }
    return [...byWidget].map(([widgetId, batch]) => {
      const delivery = deliverWidget(widgetId, batch).then(
        // A full batch means more may wait: claim again now rather than at the next tick (a backlog drains at
        // the speed of the endpoint, not one batch a period).
        () => {
          if (batch.length >= PER_WIDGET) loop.runSoon();
        },
        (error: unknown) => {
          logger.error('webhook delivery crashed', { widgetId, cause: String(error) });
        },
      );
      delivering.add(delivery);
      void delivery.finally(() => delivering.delete(delivery));
      return delivery;
    });
  }

  /**
   * The loop's claims: one at a time on this instance; deliveries under way do not hold the next claim back, and
   * a full batch delivered asks for the next claim at once.
   */
  const loop = createBackgroundLoop(() => claimRound(), {
    intervalMs: options.intervalMs ?? 1_000,
    logger,
    failure: 'webhook round failed',
    level: 'error',
  });

  async function deliverDue(): Promise<void> {
    await Promise.all(await claimRound());
  }

  return {
    deliverDue,
    start() {
      loop.start();
    },
    async close() {
      closing = true;
      // The claim under way hands its batches over before it ends: they are in `delivering` once it has.
      await loop.close();
      await Promise.all(delivering);
    },
  };
}
