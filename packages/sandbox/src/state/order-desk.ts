/**
 * @module
 * Quotes and orders: pricing an offer into a quote (new eSIM or top-up), and turning a quote into an order
 * with every check the contract names — consumed, expired, price changed, limits, balance — then reserving
 * the price on the prepaid balance.
 */
import {
  type CreateOrderRequest,
  fieldFailureParams,
  type Offer,
  type OrderRecipientInput,
  type QuoteRequest,
  type TopUpStatus,
} from '@esim-embed/shared';
import { priceOffer } from '../catalog/pricing';
import { SandboxError } from '../http/sandbox-error';
import type {
  AccountState,
  EnvironmentState,
  EsimRecord,
  OrderRecord,
  ProvisioningScenario,
  QuoteRecord,
} from './environment-state';
import { isProfileGone } from './esim-action-policy';
import type { SandboxState } from './sandbox-state';

/** Top-up offers never list more than this many plans. */
const MAX_TOP_UP_OFFERS = 12;

/** An account's view of one offer, or `offer_not_found`. */
export function pricedOffer(
  state: SandboxState,
  env: EnvironmentState,
  account: AccountState,
  offerId: string,
): Offer {
  const offer = state.catalog.offerById.get(offerId);
  if (!offer) throw new SandboxError('offer_not_found', { params: { offerId } });
  return priceOffer(
    offer,
    {
      currency: account.seed.currency,
      wholeRubOnly: account.seed.wholeRubOnly,
      discountPct: account.seed.discountPct,
    },
    env.pricing(),
  );
}

/** Whether a profile can be topped up now, and with which offers. */
export function topUpOptions(
  state: SandboxState,
  env: EnvironmentState,
  account: AccountState,
  esim: EsimRecord,
): { status: TopUpStatus; offers: Offer[] } {
  if (isProfileGone(esim)) return { status: 'profile_ineligible', offers: [] };
  // A status forced through the control API, so that every status of the contract can be shown in tests.
  const forced = esim.topUpStatusOverride ?? null;
  if (forced !== null && forced !== 'available') return { status: forced, offers: [] };
  if (esim.offer.capabilities.topUp !== 'guaranteed') return { status: 'not_supported', offers: [] };
  const iso = esim.product.country.iso;
  const offers: Offer[] = [];
  for (const offer of state.catalog.offers) {
    if (offers.length >= MAX_TOP_UP_OFFERS) break;
    const product = state.catalog.productById.get(offer.productId);
    if (!product || product.country.iso !== iso || product.package.kind !== 'fixed') continue;
    if (offer.capabilities.topUp !== 'guaranteed') continue;
    offers.push(pricedOffer(state, env, account, offer.id));
  }
  return { status: 'available', offers };
}

/**
 * The exact offer check of a `route_dependent` issue supply: an offer whose route the supply does not serve now
 * is refused with `product_unavailable` (by `GET /catalog/offers/{id}` and by an order of it).
 */
export function requireRouteServed(account: AccountState, offerId: string): void {
  const issue = account.supplyOperations.find((operation) => operation.id === 'issue');
  if (issue?.availability !== 'route_dependent' || !account.routeUnservedOfferIds.has(offerId)) return;
  throw new SandboxError('product_unavailable', { params: { offerId, reason: 'route_not_served' } });
}

/** `POST /quotes`: holds the offer's current price until `expiresAt`. */
export function createQuote(
  state: SandboxState,
  env: EnvironmentState,
  account: AccountState,
  request: QuoteRequest,
  nowMs: number,
): QuoteRecord {
  const offer = pricedOffer(state, env, account, request.offerId);
  const product = state.catalog.productById.get(offer.productId);
  if (!product) throw new SandboxError('product_not_found', { params: { productId: offer.productId } });
  let targetEsimId: string | null = null;
  if (request.esimId !== undefined) {
    const esim = env.esims.get(request.esimId);
    if (!esim || esim.accountId !== account.seed.id) {
      throw new SandboxError('esim_not_found', { params: { esimId: request.esimId } });
    }
    const options = topUpOptions(state, env, account, esim);
    if (options.status !== 'available') {
      throw new SandboxError('action_not_available', {
        params: { action: 'top_up', esimId: esim.id, status: options.status },
      });
    }
    if (!options.offers.some((candidate) => candidate.id === offer.id)) {
      throw new SandboxError('offer_not_found', {
        params: { offerId: offer.id, esimId: esim.id, reason: 'not_a_top_up_offer_of_this_esim' },
      });
    }
    targetEsimId = esim.id;
  }
  const quote: QuoteRecord = {
    id: env.ids.next('qte'),
    accountId: account.seed.id,
    kind: targetEsimId ? 'top_up' : 'issue',
    targetEsimId,
    offer,
    product,
    createdAtMs: nowMs,
    expiresAtMs: nowMs + state.options.quoteTtlSeconds * 1000,
    consumedByOrderId: null,
  };
  env.quotes.set(quote.id, quote);
  return quote;
}

/** The provisioning path of a new order: an armed control scenario first, then the recipient email's tag. */
function scenarioFor(
  account: AccountState,
  recipient: OrderRecipientInput | undefined,
  email: string | null,
) {
  const armed = account.armedScenarios.shift();
  if (armed) return armed;
  const local = (email ?? recipient?.email ?? '').split('@')[0]?.toLowerCase() ?? '';
  if (local.includes('+fail')) return 'fail' satisfies ProvisioningScenario;
  if (local.includes('+slow')) return 'slow' satisfies ProvisioningScenario;
  if (local.includes('+paylater')) return 'pay_later' satisfies ProvisioningScenario;
  if (local.includes('+unpaid')) return 'unpaid' satisfies ProvisioningScenario;
  return 'normal' satisfies ProvisioningScenario;
}

/** `POST /orders`: checks the quote, the limits and the balance, reserves the price and opens the order. */
export function placeOrder(
  state: SandboxState,
  env: EnvironmentState,
  account: AccountState,
  request: CreateOrderRequest,
  nowMs: number,
): OrderRecord {
  const quote = env.quotes.get(request.quoteId);
  if (!quote || quote.accountId !== account.seed.id) {
    throw new SandboxError('quote_not_found', { params: { quoteId: request.quoteId } });
  }
  if (quote.consumedByOrderId) {
    throw new SandboxError('quote_consumed', {
      params: { quoteId: quote.id, orderId: quote.consumedByOrderId },
    });
  }
  if (nowMs >= quote.expiresAtMs) {
    throw new SandboxError('quote_expired', {
      params: { quoteId: quote.id, expiresAt: new Date(quote.expiresAtMs).toISOString() },
    });
  }
  const current = pricedOffer(state, env, account, quote.offer.id);
  if (current.pricingVersion !== quote.offer.pricingVersion) {
    throw new SandboxError('price_changed', {
      params: {
        quoteId: quote.id,
        offerId: current.id,
        quotedPricingVersion: quote.offer.pricingVersion,
        currentPricingVersion: current.pricingVersion,
        quotedPrice: quote.offer.price,
        currentPrice: current.price,
      },
    });
  }
  let recipientRecord = null;
  if (request.recipientId !== undefined) {
    recipientRecord = env.recipients.get(request.recipientId) ?? null;
    if (!recipientRecord || recipientRecord.accountId !== account.seed.id) {
      throw new SandboxError('recipient_not_found', { params: { recipientId: request.recipientId } });
    }
  }
  const email = request.recipient?.email ?? recipientRecord?.email ?? null;
  const deliveryMode = request.deliveryMode ?? 'partner';
  if (deliveryMode === 'platform' && !email) {
    throw new SandboxError('validation_failed', {
      params: {
        ...fieldFailureParams('body', [
          {
            field: 'recipient.email',
            code: 'required',
            message: 'deliveryMode "platform" requires recipient.email',
          },
        ]),
      },
    });
  }
  if (account.status !== 'active') {
    throw new SandboxError('account_not_active', {
      params: { accountId: account.seed.id, status: account.status },
    });
  }
  if (quote.kind === 'issue') requireRouteServed(account, quote.offer.id);
  if (quote.kind === 'top_up') {
    const esim = quote.targetEsimId ? env.esims.get(quote.targetEsimId) : undefined;
    if (!esim || isProfileGone(esim)) {
      throw new SandboxError('action_not_available', {
        params: { action: 'top_up', esimId: quote.targetEsimId, status: 'profile_ineligible' },
      });
    }
  }
  const price = quote.offer.price;
  const money = (amountMinor: number) => ({ amountMinor, currency: price.currency });
  if (account.singleOrderLimitMinor !== null && price.amountMinor > account.singleOrderLimitMinor) {
    throw new SandboxError('order_limit_exceeded', {
      params: { limit: money(account.singleOrderLimitMinor), price },
    });
  }
  if (account.monthlySpendLimitMinor !== null) {
    const spent = env.monthlySpendMinor(account.seed.id, nowMs);
    if (spent + price.amountMinor > account.monthlySpendLimitMinor) {
      throw new SandboxError('monthly_limit_exceeded', {
        params: { limit: money(account.monthlySpendLimitMinor), spent: money(spent), price },
      });
    }
  }
  const available = account.balanceMinor - account.reservedMinor;
  if (available < price.amountMinor) {
    throw new SandboxError('insufficient_balance', {
      params: { required: price, availableBalance: { amountMinor: available, currency: price.currency } },
    });
  }

  const scenario = scenarioFor(account, request.recipient, email);
  const delays = state.options.stepDelaysMs;
  // A payment scenario opens the order as `draft`, awaits payment, then is paid (or expires unpaid).
  const awaitsPayment = scenario === 'pay_later' || scenario === 'unpaid';
  const awaitingPaymentAtMs = awaitsPayment ? nowMs + delays.provisioning : null;
  const paymentDueAtMs = awaitingPaymentAtMs === null ? null : awaitingPaymentAtMs + delays.delivery;
  const provisioningAtMs = (paymentDueAtMs ?? nowMs) + delays.provisioning;
  const outcomeAtMs =
    provisioningAtMs + (scenario === 'slow' ? state.options.slowProvisioningMs : delays.delivery);
  const order: OrderRecord = {
    id: env.ids.next('ord'),
    accountId: account.seed.id,
    quoteId: quote.id,
    kind: quote.kind,
    targetEsimId: quote.targetEsimId,
    externalRef: request.externalRef,
    status: awaitsPayment ? 'draft' : 'paid',
    price,
    billingStatus: 'reserved',
    deliveryMode,
    recipient: {
      id: recipientRecord?.id ?? null,
      email,
      reference: request.recipient?.reference ?? null,
      locale: request.recipient?.locale ?? recipientRecord?.locale ?? null,
    },
    esimId: quote.kind === 'top_up' ? quote.targetEsimId : null,
    stateRevision: 1,
    product: quote.product,
    offer: quote.offer,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    scenario,
    awaitingPaymentAtMs,
    paymentDueAtMs,
    statusBeforeRefund: null,
    provisioningAtMs,
    outcomeAtMs,
    completedAtMs: outcomeAtMs + delays.completion,
  };
  quote.consumedByOrderId = order.id;
  account.reservedMinor += price.amountMinor;
  account.updatedAtMs = nowMs;
  if (recipientRecord) {
    recipientRecord.orderCount += 1;
    recipientRecord.lastOrderAtMs = nowMs;
    recipientRecord.updatedAtMs = nowMs;
  }
  env.orders.set(order.id, order);
  env.openOrders.add(order.id);
  return order;
}
