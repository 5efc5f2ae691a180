/**
 * @module
 * The state of one environment (`test` or `live`): account ledgers, quotes, orders, eSIMs, delivery links,
 * recipients, action requests, idempotency records and the catalog/pricing versions. Test and live never
 * share any of it.
 *
 * Over 300 lines: the record types of one environment side by side, with the one class that holds them.
 */
import type {
  AccountStatus,
  ActionReasonCode,
  ActionRequestStatus,
  ActionRequestType,
  BillingStatus,
  DeliveryMode,
  Environment,
  EsimAllowanceState,
  EsimInstallation,
  EsimProfileState,
  EsimServiceState,
  EsimState,
  Locale,
  NonNegativeMoney,
  Offer,
  OrderStatus,
  Product,
  PurchaseKind,
  RetailBrandControls,
  RetailBrandStatus,
  SupplyOperation,
  TopUpStatus,
  UsageStatus,
} from '@esim-embed/shared';
import type { PricingSnapshot } from '../catalog/pricing';
import { IdempotencyStore } from '../http/idempotency-store';
import { SEED_ACCOUNTS, type SeedAccount } from '../seed/accounts';
import { SEED_SUPPLY_OPERATIONS } from '../seed/supply-operations';
import { IdFactory } from './id-factory';

/** What happens to an order's provisioning. */
export type ProvisioningScenario = 'normal' | 'fail' | 'slow' | 'pay_later' | 'unpaid';

/** An account's mutable state in one environment. */
export interface AccountState {
  seed: SeedAccount;
  status: AccountStatus;
  /** Prepaid balance in minor units (captured orders already deducted). */
  balanceMinor: number;
  /** Held by orders that are not yet delivered. */
  reservedMinor: number;
  singleOrderLimitMinor: number | null;
  monthlySpendLimitMinor: number | null;
  updatedAtMs: number;
  /** Provisioning scenarios armed by the control API for this account's next orders, first first. */
  armedScenarios: ProvisioningScenario[];
  /** The feature switches of the account's retail brands, by brand key (changed by the control API). */
  retailBrandControls: Map<string, RetailBrandControls>;
  /** The status and live-checkout readiness of the account's retail brands, by brand key (control API). */
  retailBrandLaunch: Map<string, RetailBrandLaunch>;
  /** What `GET /capabilities` reports in `supplyOperations` (changed by the control API). */
  supplyOperations: SupplyOperation[];
  /**
   * Offers whose route the supply does not serve now: while `issue` is `route_dependent`, the exact offer
   * check (`GET /catalog/offers/{id}`) and an order of one answer `product_unavailable`.
   */
  routeUnservedOfferIds: Set<string>;
}

/** A retail brand's launch state that the control API changes. */
export interface RetailBrandLaunch {
  status: RetailBrandStatus;
  /** The `liveCheckout` readiness track is ready (false: blocked by a payment blocker). */
  liveCheckoutReady: boolean;
}

export interface QuoteRecord {
  id: string;
  accountId: string;
  kind: PurchaseKind;
  targetEsimId: string | null;
  /** The offer as priced at creation (its price and versions are what the quote holds). */
  offer: Offer;
  product: Product;
  createdAtMs: number;
  expiresAtMs: number;
  consumedByOrderId: string | null;
}

export interface OrderRecipientRecord {
  id: string | null;
  email: string | null;
  reference: string | null;
  locale: Locale | null;
}

export interface OrderRecord {
  id: string;
  accountId: string;
  quoteId: string;
  kind: PurchaseKind;
  targetEsimId: string | null;
  externalRef: string;
  status: OrderStatus;
  price: NonNegativeMoney;
  billingStatus: BillingStatus;
  deliveryMode: DeliveryMode;
  recipient: OrderRecipientRecord;
  esimId: string | null;
  stateRevision: number;
  product: Product;
  offer: Offer;
  createdAtMs: number;
  updatedAtMs: number;
  scenario: ProvisioningScenario;
  /**
   * Scenarios `pay_later` and `unpaid` only: the order opens as `draft`, awaits payment from this instant,
   * and is paid (or expires unpaid) at `paymentDueAtMs`; null for orders paid at creation.
   */
  awaitingPaymentAtMs: number | null;
  paymentDueAtMs: number | null;
  /** The status a refund request interrupted (restored when the request is rejected). */
  statusBeforeRefund: OrderStatus | null;
  /** When the order moves to `provisioning`, to its outcome, and to `completed`. */
  provisioningAtMs: number;
  outcomeAtMs: number;
  completedAtMs: number;
}

export interface EsimRecord {
  id: string;
  accountId: string;
  orderId: string;
  iccid: string;
  installation: EsimInstallation;
  state: EsimState;
  profileState: EsimProfileState;
  serviceState: EsimServiceState;
  allowanceState: EsimAllowanceState;
  /** Total allowance in MB; null for unlimited plans. */
  totalMb: number | null;
  usedMb: number;
  durationDays: number;
  activatedAtMs: number | null;
  deadlineAtMs: number | null;
  serviceExpiresAtMs: number | null;
  usageObservedAtMs: number;
  /** A top-up status forced by the control API (`POST /__sandbox/esims/{id} { topUpStatus }`); null: computed. */
  topUpStatusOverride?: TopUpStatus | null;
  /** A usage status forced by the control API (`{ usageStatus }`); null: computed. */
  usageStatusOverride?: UsageStatus | null;
  /** The offer the profile was bought with (decides top-up support and top-up offers). */
  offer: Offer;
  product: Product;
  createdAtMs: number;
}

export interface DeliveryLinkRecord {
  id: string;
  accountId: string;
  orderId: string;
  token: string;
  maxViews: number;
  viewCount: number;
  expiresAtMs: number;
  lastViewedAtMs: number | null;
  revokedAtMs: number | null;
  createdAtMs: number;
}

export interface RecipientRecord {
  id: string;
  accountId: string;
  externalRef: string;
  name: string | null;
  email: string | null;
  locale: Locale | null;
  archived: boolean;
  orderCount: number;
  lastOrderAtMs: number | null;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface ActionRequestRecord {
  id: string;
  accountId: string;
  esimId: string;
  orderId: string;
  externalRef: string;
  type: ActionRequestType;
  status: ActionRequestStatus;
  stateRevision: number;
  reasonCode: ActionReasonCode;
  reasonDetail: string | null;
  resolution: { code: string; note: string | null } | null;
  createdAtMs: number;
  updatedAtMs: number;
  completedAtMs: number | null;
  /** When a request the sandbox resolves by itself completes; null while it waits for manual review. */
  resolvesAtMs: number | null;
  /** When a request waiting for manual review moves from `requested` to `in_review`. */
  reviewAtMs: number | null;
  /** The order of the replacement eSIM of a completed reissue. */
  replacementOrderId: string | null;
}

/** An email the sandbox would have sent for a `platform` delivery order (kept in the control API's outbox). */
export interface OutboxEmailRecord {
  id: string;
  accountId: string;
  orderId: string;
  esimId: string;
  to: string;
  locale: Locale | null;
  reference: string | null;
  from: string;
  /** `brand_aware` for orders created on or after 2026-09-03T00:00:00Z, `standard` before. */
  presentation: 'brand_aware' | 'standard';
  /** The account's effective brand name (brand-aware), or the service's own name (standard). */
  senderName: string;
  replyTo: string | null;
  /** The non-removable line naming the service (brand-aware only). */
  attribution: string | null;
  subject: string;
  text: string;
  /** The hosted delivery page the email links to (a delivery link of the order). */
  deliveryLinkId: string;
  sentAtMs: number;
}

/** Everything one environment holds. */
export class EnvironmentState {
  readonly environment: Environment;
  readonly ids: IdFactory;
  readonly accounts = new Map<string, AccountState>();
  readonly quotes = new Map<string, QuoteRecord>();
  readonly orders = new Map<string, OrderRecord>();
  /** Orders whose state can still move without a request (the lifecycle visits only these). */
  readonly openOrders = new Set<string>();
  readonly esims = new Map<string, EsimRecord>();
  readonly deliveryLinks = new Map<string, DeliveryLinkRecord>();
  readonly deliveryLinksByToken = new Map<string, DeliveryLinkRecord>();
  readonly recipients = new Map<string, RecipientRecord>();
  readonly actionRequests = new Map<string, ActionRequestRecord>();
  /** Emails of `platform` delivery orders, oldest first. */
  readonly outbox: OutboxEmailRecord[] = [];
  readonly idempotency: IdempotencyStore;
  catalogVersion = 1;
  catalogGeneratedAtMs: number;
  pricingEpoch = 1;
  readonly offerBumps = new Map<string, number>();

  constructor(environment: Environment, options: { seed: number; nowMs: number; idempotencyTtlMs: number }) {
    this.environment = environment;
    this.ids = new IdFactory(options.seed, environment);
    this.catalogGeneratedAtMs = options.nowMs;
    this.idempotency = new IdempotencyStore(options.idempotencyTtlMs);
    for (const seed of SEED_ACCOUNTS) {
      this.accounts.set(seed.id, {
        seed,
        status: 'active',
        balanceMinor: seed.balanceMinor,
        reservedMinor: 0,
        singleOrderLimitMinor: seed.singleOrderLimitMinor,
        monthlySpendLimitMinor: seed.monthlySpendLimitMinor,
        updatedAtMs: Date.parse(seed.createdAt),
        armedScenarios: [],
        retailBrandControls: new Map(seed.retailBrands.map((brand) => [brand.key, { ...brand.controls }])),
        retailBrandLaunch: new Map(
          seed.retailBrands.map((brand) => [
            brand.key,
            { status: brand.status, liveCheckoutReady: brand.readiness.tracks.liveCheckout.ready },
          ]),
        ),
        supplyOperations: SEED_SUPPLY_OPERATIONS.map((operation) => ({ ...operation })),
        routeUnservedOfferIds: new Set(),
      });
    }
  }

  /** The catalog and pricing versions offers are priced under right now. */
  pricing(): PricingSnapshot {
    return {
      catalogVersion: this.catalogVersion,
      pricingEpoch: this.pricingEpoch,
      offerBumps: this.offerBumps,
    };
  }

  /** Starts a new catalog snapshot: cursors of the old one expire. */
  bumpCatalog(nowMs: number): void {
    this.catalogVersion += 1;
    this.catalogGeneratedAtMs = nowMs;
  }

  /** Moves the pricing version of every offer (or of one offer) and starts a new catalog snapshot. */
  bumpPricing(nowMs: number, offerId?: string): void {
    if (offerId) this.offerBumps.set(offerId, (this.offerBumps.get(offerId) ?? 0) + 1);
    else this.pricingEpoch += 1;
    this.bumpCatalog(nowMs);
  }

  /** The sum of an account's non-released order prices in the calendar month (UTC) of `nowMs`. */
  monthlySpendMinor(accountId: string, nowMs: number): number {
    const now = new Date(nowMs);
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    let total = 0;
    for (const order of this.orders.values()) {
      if (order.accountId !== accountId || order.createdAtMs < monthStart) continue;
      if (order.billingStatus === 'reserved' || order.billingStatus === 'captured')
        total += order.price.amountMinor;
    }
    return total;
  }
}
