/**
 * @module
 * How one upstream key's calls per minute are shared: sales may use the whole minute, background work only its
 * own share and never the minute's last share, and no address, session or widget more than its slice.
 */

import { type UpstreamBudgetConfig, UpstreamBudgetSchema } from '../config/config-schema';

/** The shares of a key's minute, as percentages of its limit (the config's `upstreamBudget`). */
export type BudgetSharePercents = UpstreamBudgetConfig;

/** The defaults: a fifth for the background, a tenth per address, a twentieth per session, half per widget. */
export const DEFAULT_SHARE_PERCENTS: BudgetSharePercents = UpstreamBudgetSchema.parse({});

/**
 * Calls one session, and one address, may always make in a minute whatever the percentages give on a small key: a
 * purchase takes about ten upstream calls (quote, account, order, a few status reads, the installation).
 */
export const MIN_SESSION_CALLS = 30;
export const MIN_ADDRESS_CALLS = 60;

/** Calls per minute of one key, by who may make them. */
export interface BudgetShares {
  /** The key's calls per minute: sales may use all of them. */
  limit: number;
  /** The most background calls in a minute. */
  background: number;
  /** Background calls stop once the minute's calls reach this: the last `background` calls are for sales. */
  backgroundCeiling: number;
  /** The most calls caused by one client address. */
  address: number;
  /** The most calls caused by one session. */
  session: number;
  /** The most calls of one widget (the whole limit for a widget alone on its key). */
  widget: number;
}

const percentOf = (limit: number, percent: number) => Math.floor((limit * percent) / 100);

/**
 * The shares of a key allowed `limit` calls a minute and used by `widgetsOnKey` widgets.
 *
 * @example
 * budgetShares(600, 3, DEFAULT_SHARE_PERCENTS);
 * // { limit: 600, background: 120, backgroundCeiling: 480, address: 60, session: 30, widget: 300 }
 */
export function budgetShares(
  limit: number,
  widgetsOnKey: number,
  percents: BudgetSharePercents = DEFAULT_SHARE_PERCENTS,
): BudgetShares {
  const background = percentOf(limit, percents.backgroundPercent);
  return {
    limit,
    background,
    backgroundCeiling: limit - background,
    address: Math.min(limit, Math.max(MIN_ADDRESS_CALLS, percentOf(limit, percents.addressPercent))),
    session: Math.min(limit, Math.max(MIN_SESSION_CALLS, percentOf(limit, percents.sessionPercent))),
    widget: widgetsOnKey > 1 ? Math.max(1, percentOf(limit, percents.widgetPercent)) : limit,
  };
}
