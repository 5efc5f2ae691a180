/**
 * @module
 * What a widget's catalog service is made with (`catalog-service.ts`), apart from it so that the state it keeps
 * (`catalog-state.ts`) can read them without importing the service.
 */
import type { PricingRule } from '../config/pricing-rule';
import type { Logger } from '../logger';
import type { UpstreamClient } from '../upstream/upstream-client';
import type { AccountLogo } from './account-logo';
import type { WidgetBrandOverrides } from './brand';
import type { FitnessSubject } from './widget-fitness';

/** Options of `createCatalogService`. */
export interface CatalogServiceOptions {
  /** The widget's upstream client. */
  upstream: UpstreamClient;
  /** The widget's pricing rule; default: the upstream's recommended retail. */
  pricing?: PricingRule | undefined;
  /** The widget's own brand overrides (config). */
  brandOverrides?: WidgetBrandOverrides | undefined;
  /** The BFF's public origin, for same-origin logo paths. */
  publicOrigin?: string | undefined;
  /** Names the BFF's address of the account's logo (absent: the account's logo is not shown). */
  accountLogo?: Pick<AccountLogo, 'address'> | undefined;
  /** The display name when the account gives none (the widget's configured name). */
  displayName?: string | undefined;
  /** What the capabilities are checked against (environment, mode, brand key). Absent: a direct test widget. */
  widget?: FitnessSubject | undefined;
  logger: Logger;
  /** Time between background refreshes. Default 60 s; 0 turns them off. */
  refreshIntervalMs?: number;
  /**
   * While the upstream's `catalogVersion` stays the same, a refresh reuses the held snapshot for up to this
   * long before walking the whole catalog again (prices may move without a new version). Default 10 min.
   */
  fullSyncMaxAgeMs?: number;
  /** Items per catalog page. Default 200. */
  pageSize?: number;
}
