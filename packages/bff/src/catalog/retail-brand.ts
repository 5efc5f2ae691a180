/**
 * @module
 * White label: the retail brand a widget sells under — the one the credential's attestation names, or the
 * account's only one — and what its switches (`controls`) allow. A brand with `browse: false` shows no
 * catalog, `checkout: false` sells nothing (no new quotes), `existingOrderRecovery: false` opens no
 * "my eSIM" and mints no manage links; the refusal is `storefront_app_disabled` naming the switch.
 * `brandPayment`, `wholesaleFunding` and `periodClose` concern the brand's money, not the widget.
 */
import type { Account, Capabilities, RetailBrand, RetailBrandControls } from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { Logger } from '../logger';

/** The switches the BFF honours. */
export type HonouredControl = keyof Pick<
  RetailBrandControls,
  'browse' | 'checkout' | 'existingOrderRecovery'
>;

/** What the widget needs of its retail brand. */
export type AppliedRetailBrand = Pick<RetailBrand, 'key' | 'publicName' | 'status' | 'controls' | 'legal'>;

/**
 * The retail brand of the account that the widget sells under: the attestation's `brandKey` when the
 * credential is brand-scoped, else the account's only brand; none when the account has none, or several and
 * the credential names none (the account's own brand applies then).
 */
export function appliedRetailBrand(
  account: Pick<Account, 'retailBrands'> | null,
  capabilities: Pick<Capabilities, 'tenantAttestation'>,
  logger: Logger,
): AppliedRetailBrand | null {
  const brands = account?.retailBrands ?? [];
  if (brands.length === 0) return null;
  const key = capabilities.tenantAttestation?.brandKey;
  if (key !== undefined) {
    const named = brands.find((brand) => brand.key === key);
    if (named === undefined)
      logger.warn('the attested retail brand is not on the account', { brandKey: key });
    return named ?? null;
  }
  if (brands.length > 1) {
    logger.warn('several retail brands and a credential that names none: none applied', {
      brandKeys: brands.map((brand) => brand.key),
    });
    return null;
  }
  return brands[0] ?? null;
}

/** Refuse what the brand's switch turns off (`storefront_app_disabled`); no brand: everything is allowed. */
export function requireControl(brand: AppliedRetailBrand | null, control: HonouredControl): void {
  if (brand === null || brand.controls[control]) return;
  throw new ApiError('storefront_app_disabled', {
    params: { reason: 'retail_brand_control', control, brandKey: brand.key },
  });
}
