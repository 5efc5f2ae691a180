/**
 * @module
 * Each widget's webhook endpoint has a circuit, kept in the store and shared by the instances: its consecutive
 * failures, and until when its deliveries pause. The sender opens it on a failed probe and closes it on a
 * delivered one (`webhook-sender.ts`); the partner's desk reports its pause and a resend ends it
 * (`webhook-delivery-desk.ts`).
 */
import { z } from 'zod';
import { STORE_KEYS, type Store } from '../store/store';

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

/**
 * The endpoint of `widgetId` failed once more: its failures counted, its deliveries paused for its next backoff
 * step (`pauseAfter` the failures); answers until when.
 */
export async function openWebhookCircuit(
  store: Store,
  widgetId: string,
  options: { nowMs: number; pauseAfter: (failures: number) => number; retryForMs: number },
): Promise<number> {
  const key = STORE_KEYS.webhookCircuit(widgetId);
  const stored = await store.get(key);
  const failures = (stored === null ? 0 : CircuitSchema.parse(JSON.parse(stored.value)).failures) + 1;
  const untilMs = options.nowMs + options.pauseAfter(failures);
  const value = JSON.stringify({ failures, untilMs });
  // One writer per widget at a time (its batch is held): a lost race only means the same step again.
  if (stored === null) await store.insert(key, value, options.retryForMs);
  else await store.compareAndSet(key, stored.version, value, options.retryForMs);
  return untilMs;
}

/** The endpoint of `widgetId` took a delivery: its circuit closes (its failures forgotten). */
export async function closeWebhookCircuit(store: Store, widgetId: string): Promise<void> {
  const key = STORE_KEYS.webhookCircuit(widgetId);
  const stored = await store.get(key);
  if (stored !== null) await store.compareAndDelete(key, stored.version);
}
