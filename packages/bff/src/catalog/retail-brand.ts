/**
 * @module
 * White label: the retail brand a widget sells under — the one the credential's attestation names, or the
 * account's only one — and what it allows, failing closed. A brand with `browse: false` shows no catalog,
 * `checkout: false` sells nothing (no new quotes), `existingOrderRecovery: false` opens no "my eSIM" and mints
 * no manage links. The brand's `status` is obeyed: `paused` and `terminated` show and sell nothing, a brand not
 * yet launched (`draft`, `onboarding`, `review`) sells in the test environment only; in live a checkout also
 * needs `readiness.tracks.liveCheckout` ready. When the white label cannot be known — the account unreadable
 * while a credential is bound to a brand (or could read it), or the attested brand missing from the account —
 * nothing that needs it is allowed. Every refusal is `storefront_app_disabled` with a `reason`.
 * `brandPayment`, `wholesaleFunding` and `periodClose` concern the brand's money, not the widget.
 */
import {
  ACCOUNT_UNREADABLE,
  type Account,
  type Capabilities,
  type Environment,
  type RetailBrand,
  type RetailBrandControls,
} from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { Logger } from '../logger';

/** The switches the BFF honours. */
export type HonouredControl = keyof Pick<
  RetailBrandControls,
  'browse' | 'checkout' | 'existingOrderRecovery'
>;

/** What the widget needs of its retail brand. */
export type AppliedRetailBrand = Pick<
  RetailBrand,
  'key' | 'publicName' | 'status' | 'controls' | 'legal' | 'readiness'
>;

/** Why the white label cannot be known. */
export type WhiteLabelUnknownCause = 'account_unreadable' | 'attested_brand_missing';

/** The white label a widget sells under. */
export type WhiteLabel =
  /** No retail brand applies (a generic credential on an account without one): nothing to obey. */
  | { kind: 'none' }
  /** The brand applies, in the credential's environment. */
  | { kind: 'brand'; brand: AppliedRetailBrand; environment: Environment }
  /** A brand may apply but cannot be read: nothing that needs it is allowed. */
  | { kind: 'unknown'; cause: WhiteLabelUnknownCause; brandKey: string | null };

/** The white label of a widget without a retail brand. */
export const NO_WHITE_LABEL: WhiteLabel = { kind: 'none' };

/**
 * The white label the widget sells under: the attestation's `brandKey` when the credential is brand-scoped, else
 * the account's only brand; none when the account has none, or several and the credential names none (the
 * account's own brand applies then). `account` null: it could not be read (nor ever was) — unknown, unless the
 * credential is generic and lacks `balance:read` (it can never read the account: a readiness warning says so).
 */
export function whiteLabelOf(
  account: Pick<Account, 'retailBrands'> | null,
  capabilities: Pick<Capabilities, 'tenantAttestation' | 'environment' | 'grantedScopes'>,
  logger: Logger,
): WhiteLabel {
  const key = capabilities.tenantAttestation?.brandKey;
  if (account === null) {
    if (key === undefined && !capabilities.grantedScopes.includes('balance:read')) return NO_WHITE_LABEL;
    return { kind: 'unknown', cause: 'account_unreadable', brandKey: key ?? null };
  }
  const brands = account.retailBrands;
  const applied = (brand: AppliedRetailBrand): WhiteLabel => ({
    kind: 'brand',
    brand,
    environment: capabilities.environment,
  });
  if (key !== undefined) {
    const named = brands.find((brand) => brand.key === key);
    if (named !== undefined) return applied(named);
    logger.warn('the attested retail brand is not on the account: nothing is shown or sold', {
      brandKey: key,
    });
    return { kind: 'unknown', cause: 'attested_brand_missing', brandKey: key };
  }
  if (brands.length > 1) {
    logger.warn('several retail brands and a credential that names none: none applied', {
      brandKeys: brands.map((brand) => brand.key),
    });
    return NO_WHITE_LABEL;
  }
  const only = brands[0];
  return only === undefined ? NO_WHITE_LABEL : applied(only);
}

/** The retail brand that applies, or null (none, or unknown). */
export function appliedBrandOf(whiteLabel: WhiteLabel): AppliedRetailBrand | null {
  return whiteLabel.kind === 'brand' ? whiteLabel.brand : null;
}

/** Statuses under which a brand shows and sells nothing. */
const STOPPED = new Set<RetailBrand['status']>(['paused', 'terminated']);
/** Statuses of a brand not launched yet: it sells in the test environment only. */
const NOT_LAUNCHED = new Set<RetailBrand['status']>(['draft', 'onboarding', 'review']);

/** How soon a client may ask again while the account was never read (the catalog reads it again within that). */
const ACCOUNT_UNREAD_RETRY_AFTER_SECONDS = 5;

/**
 * Refuse what the white label does not allow now (`storefront_app_disabled`, with the reason). A white label not
 * known because the upstream has not answered the account yet is a passing outage, not the partner's decision:
 * `upstream_unavailable` with a `Retry-After`, so nobody is told the store is not available here.
 */
export function requireControl(whiteLabel: WhiteLabel, control: HonouredControl): void {
  const refusal = (params: Record<string, unknown>) =>
    new ApiError('storefront_app_disabled', { params: { ...params, control } });
  if (whiteLabel.kind === 'none') return;
  if (whiteLabel.kind === 'unknown' && whiteLabel.cause === ACCOUNT_UNREADABLE) {
    throw new ApiError('upstream_unavailable', {
      params: { reason: 'retail_brand_unknown', cause: whiteLabel.cause, control },
      retryAfterSeconds: ACCOUNT_UNREAD_RETRY_AFTER_SECONDS,
    });
  }
  if (whiteLabel.kind === 'unknown') {
    throw refusal({ reason: 'retail_brand_unknown', cause: whiteLabel.cause, brandKey: whiteLabel.brandKey });
  }
  const { brand, environment } = whiteLabel;
  const selling = control === 'browse' || control === 'checkout';
  const notSelling = STOPPED.has(brand.status) || (environment === 'live' && NOT_LAUNCHED.has(brand.status));
  if (selling && notSelling) {
    throw refusal({ reason: 'retail_brand_status', status: brand.status, brandKey: brand.key });
  }
  const liveCheckout = brand.readiness.tracks.liveCheckout;
  if (control === 'checkout' && environment === 'live' && !liveCheckout.ready) {
    throw refusal({
      reason: 'retail_brand_not_ready',
      track: 'liveCheckout',
      blockers: liveCheckout.blockers.map((blocker) => blocker.code),
      brandKey: brand.key,
    });
  }
  if (!brand.controls[control]) throw refusal({ reason: 'retail_brand_control', brandKey: brand.key });
}

/** What an operator should hear when the white label changes (null: nothing worth a line). */
export function whiteLabelChange(before: WhiteLabel | undefined, after: WhiteLabel): string | null {
  const said = (label: WhiteLabel | undefined) =>
    label === undefined
      ? 'none'
      : label.kind === 'brand'
        ? `${label.brand.key}:${label.brand.status}:${label.brand.readiness.tracks.liveCheckout.ready}`
        : label.kind === 'unknown'
          ? `unknown:${label.cause}`
          : 'none';
  if (said(before) === said(after)) return null;
  if (after.kind === 'unknown') return 'the white label cannot be read: the widget shows and sells nothing';
  if (after.kind === 'brand' && STOPPED.has(after.brand.status))
    return `the retail brand is ${after.brand.status}: the widget shows and sells nothing`;
  if (
    after.kind === 'brand' &&
    after.environment === 'live' &&
    !after.brand.readiness.tracks.liveCheckout.ready
  )
    return 'the retail brand is not ready for live checkout: the widget sells nothing';
  return before === undefined ? null : 'the white label allows the widget to sell again';
}
