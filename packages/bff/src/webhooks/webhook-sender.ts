/**
 * @module
 * Delivers queued webhook events: a worker loop POSTs each due event to its widget's `webhookUrl`, signed
 * (`Esim-Signature`), and retries a failure (non-2xx, timeout, refused connection) with exponential backoff —
 * 10 s, 20 s, 40 s … at most an hour apart — until it is delivered or older than the retry span (≥ a day).
 * Every attempt is logged with the event id, type, attempt and result; never the secret or the body.
 */
import { signWebhook, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@esim-embed/shared';
import type { Logger } from '../logger';
import type { OutgoingCalls } from '../observability/outgoing-calls';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { StoredDelivery, WebhookQueue } from './webhook-queue';

/** The pause after `attempts` failed attempts: 10 s doubling, at most an hour. */
export function webhookBackoffMs(attempts: number): number {
  return Math.min(60 * 60 * 1000, 10_000 * 2 ** Math.max(0, attempts - 1));
}

/** Timers the worker runs on (replaceable in tests). */
export interface WorkerTimers {
  setInterval(run: () => void, ms: number): { unref?: () => void };
  clearInterval(handle: unknown): void;
}

export interface WebhookSenderOptions {
  queue: WebhookQueue;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  /** How long an event is retried before it is given up. */
  retryForMs: number;
  /** How often the worker looks for due deliveries. Default 1 s. */
  intervalMs?: number;
  /** One attempt's timeout. Default 10 s. */
  timeoutMs?: number;
  now?: () => number;
  timers?: WorkerTimers;
  /** Told of every attempt (metrics, a trace span whose `traceparent` the POST carries); absent when both are off. */
  observer?: OutgoingCalls | undefined;
}

/** The worker. */
export interface WebhookSender {
  /** Deliver what is due now (the loop calls this; tests may too). Resolves when this round is done. */
  deliverDue(): Promise<void>;
  start(): void;
  close(): void;
}

/** The {@link WebhookSender}. */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { queue, widgets, logger, retryForMs } = options;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timers: WorkerTimers = options.timers ?? {
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  };
  let handle: unknown;
  let running: Promise<void> | null = null;

  async function post(
    url: string,
    secret: string,
    stored: StoredDelivery,
    traceHeaders: Record<string, string> | undefined,
  ): Promise<string> {
    const { delivery } = stored;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          ...traceHeaders,
          'Content-Type': 'application/json',
          'User-Agent': 'esim-embed-webhooks/1',
          [WEBHOOK_ID_HEADER]: delivery.id,
          [WEBHOOK_SIGNATURE_HEADER]: await signWebhook(secret, delivery.body, Math.floor(now() / 1000)),
        },
        body: delivery.body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      await response.body?.cancel().catch(() => {});
      return String(response.status);
    } catch (error) {
      return error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network_error';
    }
  }

  async function attempt(stored: StoredDelivery): Promise<void> {
    const time = now();
    // The lease keeps another instance (or an overlapping round) from sending it at the same time.
    const leased = await queue.update(stored, {
      ...stored.delivery,
      attempts: stored.delivery.attempts + 1,
      leaseUntilMs: time + timeoutMs + 5_000,
    });
    if (leased === null) return;
    const { delivery } = leased;
    const widget = widgets.get(delivery.widgetId);
    const url = widget?.config.webhookUrl;
    const secret = widget?.webhookSecret;
    const observed = options.observer?.webhookDelivery(delivery.type, delivery.attempts);
    const result =
      url === undefined || secret === undefined
        ? 'not_configured'
        : await post(url, secret, leased, observed?.headers);
    const ok = /^2\d\d$/.test(result);
    const expired = now() - delivery.createdAtMs >= retryForMs;
    const state = ok ? 'delivered' : expired || result === 'not_configured' ? 'gave_up' : 'pending';
    observed?.end(state === 'pending' ? 'failed' : state);
    const nextAttemptAtMs = now() + webhookBackoffMs(delivery.attempts);
    await queue.update(leased, {
      ...delivery,
      state,
      nextAttemptAtMs,
      leaseUntilMs: null,
      lastResult: result,
    });
    const fields = {
      eventId: delivery.id,
      type: delivery.type,
      widgetId: delivery.widgetId,
      attempt: delivery.attempts,
      result,
    };
    if (ok) logger.info('webhook delivered', fields);
    else if (state === 'gave_up') logger.error('webhook given up', fields);
    else
      logger.warn('webhook delivery failed, will retry', { ...fields, retryInMs: nextAttemptAtMs - now() });
    if (state !== 'pending') await queue.remove(delivery.id);
  }

  async function round(): Promise<void> {
    for (const stored of await queue.due(now())) {
      await attempt(stored).catch((error: unknown) => {
        logger.error('webhook attempt crashed', { eventId: stored.delivery.id, cause: String(error) });
      });
    }
  }

  function deliverDue(): Promise<void> {
    // One round at a time on this instance; a call during a round waits for it, then runs again.
    const next = (running ?? Promise.resolve()).then(round);
    const tracked: Promise<void> = next
      .catch(() => {})
      .finally(() => {
        if (running === tracked) running = null;
      });
    running = tracked;
    return next;
  }

  return {
    deliverDue,
    start() {
      if (handle !== undefined) return;
      const timer = timers.setInterval(() => {
        if (running !== null) return;
        deliverDue().catch((error: unknown) => {
          logger.error('webhook round failed', { cause: String(error) });
        });
      }, options.intervalMs ?? 1_000);
      timer.unref?.();
      handle = timer;
    },
    close() {
      if (handle !== undefined) timers.clearInterval(handle);
      handle = undefined;
    },
  };
}
