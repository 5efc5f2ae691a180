/**
 * @module
 * The spend caps of `direct` checkout in `live`, where a browser alone can spend the partner's balance: the
 * wholesale spend is counted per session and per widget and day, and a checkout over either cap is refused.
 */
import type { NonNegativeMoney } from '@esim-embed/shared';
import { ApiError } from '../errors';
import { STORE_KEYS, type Store } from '../store/store';
import type { SessionCaller } from './checkout-context';

/** A day's counter outlives its day, so a checkout just before midnight is still counted in it. */
const COUNTER_TTL_MS = 25 * 60 * 60 * 1000;

/**
 * Counts the spend, or refuses (and gives back) a spend over either cap. Returns how to give the spend back
 * when the checkout does not happen after all. Other widgets and modes spend nothing here.
 */
export async function reserveSpend(
  store: Store,
  caller: SessionCaller,
  wholesale: NonNegativeMoney,
  time: number,
): Promise<() => Promise<void>> {
  const { config } = caller.widget;
  const nothing = async () => {};
  if (config.environment !== 'live' || config.checkoutMode !== 'direct') return nothing;
  const day = new Date(time).toISOString().slice(0, 10);
  const caps = [
    { scope: 'session', cap: config.limits.maxSpendPerSession, name: `spend:session:${caller.claims.sid}` },
    { scope: 'day', cap: config.limits.maxSpendPerDay, name: `spend:day:${config.id}:${day}` },
  ] as const;
  const taken: string[] = [];
  for (const { scope, cap, name } of caps) {
    // No cap or another currency: the config schema requires caps, so refuse rather than spend unbounded.
    const amount = wholesale.amountMinor;
    const counter = await store.increment(STORE_KEYS.counter(name), amount, COUNTER_TTL_MS);
    taken.push(name);
    if (cap === undefined || cap.currency !== wholesale.currency || counter.count > cap.amountMinor) {
      for (const giveBack of taken) {
        await store.increment(STORE_KEYS.counter(giveBack), -amount, COUNTER_TTL_MS);
      }
      throw new ApiError('order_limit_exceeded', { params: { cap: scope } });
    }
  }
  return async () => {
    for (const name of taken) {
      await store.increment(STORE_KEYS.counter(name), -wholesale.amountMinor, COUNTER_TTL_MS);
    }
  };
}
