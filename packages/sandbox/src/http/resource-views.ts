/**
 * @module
 * Internal records rendered as the contract's resources: absolute links from the request's base URL, and
 * the scope effects (`recipients:read`, `esims:read`) applied to orders.
 *
 * Over 300 lines: one view per contract resource, so every resource is rendered in one place.
 */
import type {
  Account,
  ActionRequest,
  DeliveryLink,
  EsimAction,
  EsimActionType,
  EsimDetail,
  EsimListItem,
  Order,
  UpstreamQuote as Quote,
  ReadinessBlocker,
  Recipient,
  RetailBrand,
} from '@esim-embed/shared';
import { isoTime } from '../clock';
import type {
  AccountState,
  ActionRequestRecord,
  DeliveryLinkRecord,
  EnvironmentState,
  EsimRecord,
  OrderRecord,
  QuoteRecord,
  RecipientRecord,
  RetailBrandLaunch,
} from '../state/environment-state';
import { esimActionEligibility } from '../state/esim-action-policy';
import type { AuthContext } from './sandbox-env';

const isoOrNull = (ms: number | null) => (ms === null ? null : isoTime(ms));

/** A quote. */
export function quoteView(env: EnvironmentState, quote: QuoteRecord): Quote {
  return {
    id: quote.id,
    environment: env.environment,
    kind: quote.kind,
    targetEsimId: quote.targetEsimId,
    offerId: quote.offer.id,
    productId: quote.product.id,
    price: quote.offer.price,
    recommendedRetail: quote.offer.recommendedRetail,
    catalogVersion: quote.offer.catalogVersion,
    pricingVersion: quote.offer.pricingVersion,
    product: quote.product,
    offer: quote.offer,
    createdAt: isoTime(quote.createdAtMs),
    expiresAt: isoTime(quote.expiresAtMs),
  };
}

function billingOf(order: OrderRecord): Order['billing'] {
  const amount = order.price;
  const status = order.billingStatus;
  return {
    status,
    reservedAmount: amount,
    capturedAmount: status === 'captured' || status === 'refunded' ? amount : null,
    releasedAmount: status === 'released' ? amount : null,
    refundedAmount: status === 'refunded' ? amount : null,
  };
}

/** An order, with the key's scope effects. */
export function orderView(auth: AuthContext, order: OrderRecord, base: string): Order {
  const seesRecipients = auth.scopes.has('recipients:read');
  const seesEsims = auth.scopes.has('esims:read');
  return {
    id: order.id,
    quoteId: order.quoteId,
    kind: order.kind,
    targetEsimId: seesEsims ? order.targetEsimId : null,
    externalRef: order.externalRef,
    status: order.status,
    price: order.price,
    billing: billingOf(order),
    deliveryMode: order.deliveryMode,
    recipient: seesRecipients
      ? { ...order.recipient }
      : { id: null, email: null, reference: null, locale: null },
    esim:
      seesEsims && order.esimId
        ? { id: order.esimId, resourceUrl: `${base}/esims/${encodeURIComponent(order.esimId)}` }
        : null,
    environment: auth.env.environment,
    stateRevision: order.stateRevision,
    product: order.product,
    offer: order.offer,
    createdAt: isoTime(order.createdAtMs),
    updatedAt: isoTime(order.updatedAtMs),
  };
}

/** An order link `{ id, externalRef, resourceUrl }`. */
export function orderRef(order: OrderRecord, base: string) {
  return {
    id: order.id,
    externalRef: order.externalRef,
    resourceUrl: `${base}/orders/${encodeURIComponent(order.id)}`,
  };
}

/** An eSIM as listed. */
export function esimListView(
  env: EnvironmentState,
  esim: EsimRecord,
  base: string,
  nowMs: number,
): EsimListItem {
  const order = env.orders.get(esim.orderId);
  const observedAtMs = Math.max(esim.usageObservedAtMs, nowMs - (nowMs % 60_000));
  return {
    id: esim.id,
    environment: env.environment,
    iccid: esim.iccid,
    state: esim.state,
    profileState: esim.profileState,
    serviceState: esim.serviceState,
    allowanceState: esim.allowanceState,
    usage: {
      totalMb: esim.totalMb,
      usedMb: esim.usedMb,
      remainingMb: esim.totalMb === null ? null : Math.max(0, esim.totalMb - esim.usedMb),
      status: esim.state === 'revoked' ? 'unavailable' : (esim.usageStatusOverride ?? 'fresh'),
      observedAt: isoTime(observedAtMs),
      nextRefreshAt: isoTime(observedAtMs + 15 * 60_000),
      consecutiveFailures: 0,
    },
    activation: {
      activatedAt: isoOrNull(esim.activatedAtMs),
      deadlineAt: isoOrNull(esim.deadlineAtMs),
      serviceExpiresAt: isoOrNull(esim.serviceExpiresAtMs),
      serviceExpiresOn:
        esim.serviceExpiresAtMs === null ? null : isoTime(esim.serviceExpiresAtMs).slice(0, 10),
    },
    order: order
      ? orderRef(order, base)
      : {
          id: esim.orderId,
          externalRef: 'unknown',
          resourceUrl: `${base}/orders/${encodeURIComponent(esim.orderId)}`,
        },
    actionsUrl: `${base}/esims/${encodeURIComponent(esim.id)}/actions`,
    createdAt: isoTime(esim.createdAtMs),
  };
}

/** An eSIM with its installation data. */
export function esimDetailView(
  env: EnvironmentState,
  esim: EsimRecord,
  base: string,
  nowMs: number,
): EsimDetail {
  return { ...esimListView(env, esim, base, nowMs), installation: { ...esim.installation } };
}

/** The post-sale actions of a profile, as discovered now: the policy's decisions with their links and times. */
export function esimActionsView(
  env: EnvironmentState,
  esim: EsimRecord,
  base: string,
  nowMs: number,
  topUpAvailable: boolean,
): EsimAction[] {
  const esimPath = `${base}/esims/${encodeURIComponent(esim.id)}`;
  const observedAt = isoTime(nowMs);
  const freshUntil = isoTime(nowMs + 5 * 60_000);
  const eligibility = esimActionEligibility(env, esim, topUpAvailable);
  const href: Record<EsimActionType, string> = {
    top_up: `${esimPath}/top-up-offers`,
    cancellation: `${esimPath}/action-requests`,
    refund: `${esimPath}/action-requests`,
    reissue: `${esimPath}/action-requests`,
  };
  return (['top_up', 'cancellation', 'refund', 'reissue'] as const).map((type) => {
    const decided = eligibility[type];
    return {
      type,
      ...decided,
      observedAt,
      freshUntil,
      href: decided.availability === 'unavailable' ? null : href[type],
    };
  });
}

/** A delivery link; `url` is the secret hosted page. */
export function deliveryLinkView(
  env: EnvironmentState,
  link: DeliveryLinkRecord,
  base: string,
): DeliveryLink {
  return {
    id: link.id,
    environment: env.environment,
    orderId: link.orderId,
    url: `${base}/d/${link.token}`,
    maxViews: link.maxViews,
    viewCount: link.viewCount,
    expiresAt: isoTime(link.expiresAtMs),
    lastViewedAt: isoOrNull(link.lastViewedAtMs),
    revokedAt: isoOrNull(link.revokedAtMs),
    createdAt: isoTime(link.createdAtMs),
  };
}

/** A recipient. */
export function recipientView(env: EnvironmentState, recipient: RecipientRecord): Recipient {
  return {
    id: recipient.id,
    externalRef: recipient.externalRef,
    name: recipient.name,
    email: recipient.email,
    locale: recipient.locale,
    archived: recipient.archived,
    orderCount: recipient.orderCount,
    lastOrderAt: isoOrNull(recipient.lastOrderAtMs),
    environment: env.environment,
    createdAt: isoTime(recipient.createdAtMs),
    updatedAt: isoTime(recipient.updatedAtMs),
  };
}

/** A post-sale action request. */
export function actionRequestView(
  env: EnvironmentState,
  request: ActionRequestRecord,
  base: string,
): ActionRequest {
  const order = env.orders.get(request.orderId);
  const replacement = request.replacementOrderId ? env.orders.get(request.replacementOrderId) : undefined;
  return {
    id: request.id,
    externalRef: request.externalRef,
    type: request.type,
    status: request.status,
    stateRevision: request.stateRevision,
    environment: env.environment,
    order: order
      ? orderRef(order, base)
      : { id: request.orderId, externalRef: 'unknown', resourceUrl: `${base}/orders/${request.orderId}` },
    reason: { code: request.reasonCode, detail: request.reasonDetail },
    resolution: request.resolution,
    replacementOrder: replacement ? orderRef(replacement, base) : null,
    resourceUrl: `${base}/action-requests/${encodeURIComponent(request.id)}`,
    createdAt: isoTime(request.createdAtMs),
    updatedAt: isoTime(request.updatedAtMs),
    completedAt: isoOrNull(request.completedAtMs),
  };
}

/** The key's own account with its brand, pricing, limits and balance. */
export function accountView(account: AccountState, brandAssetsBaseUrl: string): Account {
  const seed = account.seed;
  const money = (amountMinor: number) => ({ amountMinor, currency: seed.currency });
  const { logoFile, ...brand } = seed.brand;
  return {
    id: seed.id,
    parentAccountId: seed.parentAccountId,
    externalRef: seed.externalRef,
    name: seed.name,
    kind: seed.kind,
    status: account.status,
    currency: seed.currency,
    pricing: {
      version: `pricebook-${seed.id}-1`,
      discountPct: seed.discountPct,
      policy: seed.wholeRubOnly
        ? 'discount_from_recommended_retail_whole_rub'
        : 'discount_from_recommended_retail',
    },
    limits: {
      singleOrder: account.singleOrderLimitMinor === null ? null : money(account.singleOrderLimitMinor),
      monthlySpend: account.monthlySpendLimitMinor === null ? null : money(account.monthlySpendLimitMinor),
    },
    brand: {
      ...brand,
      logoUrl: logoFile ? `${brandAssetsBaseUrl.replace(/\/+$/, '')}/assets/logos/${logoFile}` : null,
    },
    brandOverrides: null,
    retailBrands: seed.retailBrands.map((brand) =>
      launched(
        {
          ...brand,
          controls: { ...(account.retailBrandControls.get(brand.key) ?? brand.controls) },
        },
        account.retailBrandLaunch.get(brand.key),
      ),
    ),
    balance: {
      balance: money(account.balanceMinor),
      reserved: money(account.reservedMinor),
      availableBalance: money(account.balanceMinor - account.reservedMinor),
    },
    createdAt: seed.createdAt,
    updatedAt: isoTime(Math.max(account.updatedAtMs, Date.parse(seed.createdAt))),
  };
}

/** A payment blocker on the live-checkout track, as the control API sets it. */
const LIVE_CHECKOUT_BLOCKER: ReadinessBlocker = {
  code: 'payment_provider_not_ready',
  category: 'payment',
  owner: 'brand_owner',
  evidence: 'missing',
  actionKey: 'connect_payment_provider',
  sensitive: false,
};

/** The brand with the status and live-checkout readiness the control API set (the seed's when none). */
function launched(brand: RetailBrand, launch: RetailBrandLaunch | undefined): RetailBrand {
  if (launch === undefined) return brand;
  const tracks = { ...brand.readiness.tracks };
  tracks.liveCheckout = launch.liveCheckoutReady
    ? { state: 'ready', ready: true, blockers: [] }
    : { state: 'blocked', ready: false, blockers: [LIVE_CHECKOUT_BLOCKER] };
  const blockers = Object.values(tracks).flatMap((track) => track.blockers);
  return {
    ...brand,
    status: launch.status,
    readiness: { ready: blockers.length === 0, blockers, tracks },
  };
}
