/**
 * @module
 * A widget at run time: its validated config, its secrets (read once from the environment), its origin
 * policy, the upstream client and catalog service it sells through, and its account logo served by the BFF.
 */
import type { AccountLogo } from '../catalog/account-logo';
import type { CatalogService } from '../catalog/catalog-service';
import type { WidgetConfig } from '../config/config-schema';
import type { OriginPolicy } from '../security/origin-policy';
import type { UpstreamClient } from '../upstream/upstream-client';

/** Everything the BFF holds for one widget. */
export interface WidgetRuntime {
  config: WidgetConfig;
  /** The partner server's secret for `/v1/partner/*` (absent: those routes refuse this widget). */
  partnerSecret: string | undefined;
  /** The webhook signing secret (absent: this widget sends no webhooks). */
  webhookSecret?: string | undefined;
  originPolicy: OriginPolicy;
  upstream: UpstreamClient;
  catalog: CatalogService;
  /** The upstream account's logo, fetched and held to be served from the BFF's origin. */
  accountLogo: AccountLogo;
}
