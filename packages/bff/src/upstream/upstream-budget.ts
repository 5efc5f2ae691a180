/**
 * @module
 * The budget of one upstream key (credential), shared by the widgets that use it and by every BFF instance on
 * the store: calls counted per minute of the clock (as the upstream counts them), within the key's limit — the
 * one the upstream states (`RateLimit-Limit`, a 429's `params.limitPerMinute`), else the configured one — split
 * by {@link budgetShares}; a 429's `Retry-After` pauses the key for every instance. A call over its share is
 * refused with `rate_limited` and `Retry-After` before it is sent.
 */
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store, StoreUnavailableError } from '../store/store';
import { type BudgetSharePercents, budgetShares, DEFAULT_SHARE_PERCENTS } from './budget-shares';
import { currentUpstreamCaller } from './upstream-caller';

/** The key's calls per minute when neither the config nor the upstream says. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

const MINUTE_MS = 60_000;
/** Counters outlive their minute a little, so that a late decrement never starts a fresh window. */
const COUNTER_SLACK_MS = 5_000;
/** The longest pause a `Retry-After` imposes (a broken header must not stop sales for a day). */
const MAX_PAUSE_MS = 10 * MINUTE_MS;
/** How often a store outage is logged while calls go uncounted. */
const OUTAGE_WARNING_EVERY_MS = 10_000;
/** The pause after a 429 that names no `Retry-After`. */
const DEFAULT_PAUSE_MS = 5_000;

/** What one upstream answer tells the budget. */
export interface BudgetAnswer {
  status: number;
  /** The answer's `RateLimit-Limit` (calls per minute), when it states one. */
  statedLimit?: number | undefined;
  /** The answer's `Retry-After`, in ms. */
  retryAfterMs?: number | undefined;
}

/** The budget as one widget's upstream client uses it. */
export interface UpstreamBudgetGate {
  /** Take one call for this widget from the key's budget, or throw `rate_limited` (nothing is sent then). */
  beforeCall(): Promise<void>;
  /** Learn from an answer: the limit the upstream states, and the pause a 429 asks for. */
  afterAnswer(answer: BudgetAnswer): Promise<void>;
}

/** One key's budget. */
export interface UpstreamBudget {
  /** The key's digest (never the key). */
  readonly credential: string;
  /** The gate of one widget on this key. */
  gate(widgetId: string): UpstreamBudgetGate;
  /** The calls per minute in force now: the upstream's stated limit, else the configured one. */
  limitPerMinute(): number;
}

export interface UpstreamBudgetOptions {
  store: Store;
  /** The key's digest (`upstreamCredential`). */
  credential: string;
  /** The smallest `upstream.rateLimitPerMinute` configured for the key's widgets, if any. */
  configuredLimit?: number | undefined;
  /** How many widgets use the key (a lone widget may use the whole of it). */
  widgetsOnKey: number;
  percents?: BudgetSharePercents;
  logger: Logger;
  /** Told of every refusal, by share (the metrics count them). */
  onRefusal?: ((share: string) => void) | undefined;
  now?: () => number;
}

/** One counter of the current minute and the most it may reach. */
interface Slice {
  key: string;
  limit: number;
  /** What a refusal by this slice is called in the error's `params.share`. */
  share: string;
}

/** The {@link UpstreamBudget} of one key. */
export function createUpstreamBudget(options: UpstreamBudgetOptions): UpstreamBudget {
  const { store, credential, logger } = options;
  const now = options.now ?? Date.now;
  const percents = options.percents ?? DEFAULT_SHARE_PERCENTS;
  const configured = options.configuredLimit;
  /** The limit the upstream stated last (each instance hears it in its own answers), or null. */
  let stated: number | null = null;
  const pauseKey = STORE_KEYS.upstreamPause(credential);
  let lastOutageWarning = Number.NEGATIVE_INFINITY;

  /** The upstream's stated limit (lowered to the configured one, an operator's ceiling), else the configured one. */
  function limitPerMinute(): number {
    if (stated === null) return configured ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
    return configured === undefined ? stated : Math.min(configured, stated);
  }

  /** Add `by` to each counter of the minute, in one round trip. */
  async function add(slices: readonly Slice[], by: number, windowMs: number) {
    return await Promise.all(slices.map((slice) => store.increment(slice.key, by, windowMs)));
  }

  /** Take one call from each slice; when one is over its limit, give them all back and name it. */
  async function take(slices: readonly Slice[], windowMs: number): Promise<Slice | null> {
    if (slices.length === 0) return null;
    const counts = await add(slices, 1, windowMs);
    const over = slices.find((slice, index) => (counts[index]?.count ?? 0) > slice.limit) ?? null;
    // A refused call is not made: counters count calls sent.
    if (over !== null) await add(slices, -1, windowMs);
    return over;
  }

  /** Milliseconds the key is still paused for after a 429 (0: not paused). */
  async function pausedForMs(time: number): Promise<number> {
    const pause = await store.get(pauseKey);
    return pause === null ? 0 : Math.max(0, Number(pause.value) - time);
  }

  function refused(retryAfterMs: number, share: string): ApiError {
    options.onRefusal?.(share);
    return new ApiError('rate_limited', {
      params: { reason: 'upstream_budget', share },
      retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    });
  }

  /** Take one call for `widgetId` from the shares of the current caller, or throw `rate_limited`. */
  async function spend(widgetId: string): Promise<void> {
    const time = now();
    const minute = Math.floor(time / MINUTE_MS);
    const toNextMinute = (minute + 1) * MINUTE_MS - time;
    const windowMs = toNextMinute + COUNTER_SLACK_MS;
    const key = (name: string) => STORE_KEYS.counter(`upstream:${credential}:${minute}:${name}`);
    const shares = budgetShares(limitPerMinute(), options.widgetsOnKey, percents);
    const caller = currentUpstreamCaller();
    // Later calls of a request already let through count in its shares but are refused only by the key's
    // limit, so that no sale stops halfway (the order after the account read).
    const admitting = caller !== undefined && !caller.admitted;
    const own: Slice[] = [];
    if (caller?.address) {
      own.push({
        key: key(`address:${caller.address}`),
        limit: admitting ? shares.address : Infinity,
        share: 'address',
      });
    }
    if (caller?.sessionId) {
      own.push({
        key: key(`session:${caller.sessionId}`),
        limit: admitting ? shares.session : Infinity,
        share: 'session',
      });
    }
    const shared: Slice[] =
      caller === undefined
        ? [
            { key: key('background'), limit: shares.background, share: 'background' },
            { key: key('all'), limit: shares.backgroundCeiling, share: 'background' },
          ]
        : [
            { key: key('all'), limit: shares.limit, share: 'key' },
            {
              key: key(`widget:${widgetId}`),
              limit: admitting ? shares.widget : Infinity,
              share: 'widget',
            },
          ];

    // The caller's own slices first, alone: a flood over them never touches the key's counters.
    const overOwn = await take(own, windowMs);
    if (overOwn !== null) throw refused(toNextMinute, overOwn.share);
    const [overShared, paused] = await Promise.all([take(shared, windowMs), pausedForMs(time)]);
    if (overShared !== null || paused > 0) {
      await Promise.all([add(own, -1, windowMs), overShared === null ? add(shared, -1, windowMs) : []]);
      if (paused > 0) throw refused(paused, 'paused');
      throw refused(toNextMinute, (overShared as Slice).share);
    }
    if (caller !== undefined) caller.admitted = true;
  }

  function gate(widgetId: string): UpstreamBudgetGate {
    return {
      async beforeCall() {
        try {
          await spend(widgetId);
        } catch (error) {
          if (!(error instanceof StoreUnavailableError)) throw error;
          // Uncounted rather than stopped: a store outage already refuses travellers (their sessions are counted
          // there), and background work and the upstream's own 429 go on.
          if (now() - lastOutageWarning > OUTAGE_WARNING_EVERY_MS) {
            lastOutageWarning = now();
            logger.warn('the upstream budget cannot count while the store is away: calls go uncounted');
          }
        }
      },

      async afterAnswer(answer) {
        // The limit of the latest answer: an upstream that stops stating one (the limit was lifted) is back
        // under the configured one.
        const statedNow =
          answer.statedLimit !== undefined && answer.statedLimit >= 1 ? answer.statedLimit : null;
        if (statedNow !== stated && statedNow !== null) {
          logger.info('the upstream states the key rate limit', { limitPerMinute: statedNow });
        }
        stated = statedNow;
        if (answer.status !== 429) return;
        const pauseMs = Math.min(MAX_PAUSE_MS, answer.retryAfterMs ?? DEFAULT_PAUSE_MS);
        logger.warn('the upstream refused the key for its rate: the key pauses', {
          pauseMs,
          limitPerMinute: limitPerMinute(),
        });
        // Inserted, never replaced: the first instance to hear a 429 sets the pause for all.
        await store.insert(pauseKey, String(now() + pauseMs), pauseMs).catch((error: unknown) => {
          logger.warn('the upstream pause could not be stored', { cause: String(error) });
        });
      },
    };
  }

  return { credential, gate, limitPerMinute };
}
