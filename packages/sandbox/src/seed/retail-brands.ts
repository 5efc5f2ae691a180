/**
 * @module
 * The seeded retail brands (white label): Harbour Mobile, a brand cell run on the Harbour Travel account,
 * with its legal pages, support address, feature switches (`controls`) and launch readiness; and Aurora Travel,
 * the brand cell that the Aurora account's keys attest (`tenantAttestation.brandKey`), launched, every switch
 * on, no legal pages of its own. The control API changes their switches, status and live-checkout readiness
 * per environment (`POST /__sandbox/accounts/{id}`).
 */
import type { ReadinessTrack, RetailBrand } from '@esim-embed/shared';

const readyTrack: ReadinessTrack = { state: 'ready', ready: true, blockers: [] };
const notRequired: ReadinessTrack = { state: 'not_required', ready: true, blockers: [] };

/** The key of the seeded retail brand (the `brandKey` of an attestation for it). */
export const HARBOUR_BRAND_KEY = 'harbour-mobile';

/** Harbour Mobile: active, every switch on, legal pages on its own site. */
export const HARBOUR_RETAIL_BRAND: RetailBrand = {
  id: 'rbr_harbour_mobile',
  key: HARBOUR_BRAND_KEY,
  publicName: 'Harbour Mobile',
  status: 'active',
  locale: 'en',
  timezone: 'Europe/Lisbon',
  manifest: { version: 3, digest: 'c'.repeat(64) },
  controls: {
    browse: true,
    checkout: true,
    brandPayment: true,
    wholesaleFunding: true,
    periodClose: true,
    existingOrderRecovery: true,
  },
  legal: {
    supportUrl: 'https://harbour-mobile.example/support',
    privacyUrl: 'https://harbour-mobile.example/legal/privacy',
    termsUrl: 'https://harbour-mobile.example/legal/terms',
    refundUrl: 'https://harbour-mobile.example/legal/refunds',
    accountDeletionUrl: 'https://harbour-mobile.example/account/delete',
  },
  communication: { supportEmail: 'care@harbour-mobile.example', ready: true, blockers: [] },
  commercial: {
    agreementPublicVersion: '2026-06',
    discountPct: 20,
    participationPct: 10,
    participationMechanism: 'contractual_profit_share',
    paymentMode: 'brand_mor',
    settlementCurrency: 'USD',
    merchantLegalName: 'Harbour Travel Lda',
    serviceLegalName: 'eSIM Sandbox Services Ltd',
    payment: null,
  },
  domains: [
    {
      hostname: 'esim.harbour-mobile.example',
      purpose: 'site',
      status: 'active',
      tlsStatus: 'active',
      verifiedAt: '2026-06-02T10:00:00.000Z',
    },
  ],
  apps: [],
  readiness: {
    ready: true,
    blockers: [],
    tracks: {
      review: readyTrack,
      web: readyTrack,
      iosRelease: notRequired,
      androidRelease: notRequired,
      liveCheckout: readyTrack,
      financeClose: readyTrack,
    },
  },
};

/** The key of the brand cell the Aurora account's keys are bound to. */
export const AURORA_BRAND_KEY = 'aurora-travel';

/** Aurora Travel: the attested brand of the Aurora account, active, every switch on. */
export const AURORA_RETAIL_BRAND: RetailBrand = {
  id: 'rbr_aurora_travel',
  key: AURORA_BRAND_KEY,
  publicName: 'Аврора',
  status: 'active',
  locale: 'ru',
  timezone: 'Europe/Moscow',
  manifest: { version: 3, digest: null },
  controls: {
    browse: true,
    checkout: true,
    brandPayment: false,
    wholesaleFunding: true,
    periodClose: true,
    existingOrderRecovery: true,
  },
  legal: { supportUrl: null, privacyUrl: null, termsUrl: null, refundUrl: null, accountDeletionUrl: null },
  communication: { supportEmail: null, ready: true, blockers: [] },
  commercial: null,
  domains: [],
  apps: [],
  readiness: {
    ready: true,
    blockers: [],
    tracks: {
      review: readyTrack,
      web: readyTrack,
      iosRelease: notRequired,
      androidRelease: notRequired,
      liveCheckout: readyTrack,
      financeClose: notRequired,
    },
  },
};
