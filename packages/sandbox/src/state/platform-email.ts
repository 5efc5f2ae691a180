/**
 * @module
 * `platform` delivery: the transactional email the service sends a traveller when an order's eSIM is issued,
 * kept in the environment's outbox instead of being sent. The contract's presentation rule decides its
 * sender: orders created on or after 2026-09-03T00:00:00Z carry the account's effective brand, the partner's
 * Reply-To and a non-removable attribution to the service; earlier orders keep the standard presentation.
 */
import type { AccountState, EnvironmentState, OrderRecord, OutboxEmailRecord } from './environment-state';

/** Orders created from this instant get the brand-aware presentation. */
export const BRAND_AWARE_EMAIL_FROM_MS = Date.parse('2026-09-03T00:00:00Z');

/** The service's verified sender address and name (the same in both presentations). */
export const PLATFORM_SENDER = 'no-reply@mail.sandbox.esim-embed.example';
export const PLATFORM_NAME = 'eSIM Sandbox';

/** The line a brand-aware email always ends with: the service that actually delivers the eSIM. */
export const PLATFORM_ATTRIBUTION = `eSIM delivery by ${PLATFORM_NAME}.`;

/** How long the hosted page linked from the email stays open, and how often it may be opened. */
const EMAIL_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const EMAIL_LINK_MAX_VIEWS = 5;

/** The brand name and Reply-To of the account's effective brand (its active retail brand first). */
function effectiveBrand(account: AccountState): { name: string; replyTo: string | null } {
  const retail = account.seed.retailBrands.find((brand) => brand.status === 'active');
  return {
    name: retail?.publicName ?? account.seed.brand.displayName ?? account.seed.name,
    replyTo: retail?.communication.supportEmail ?? account.seed.brand.supportEmail,
  };
}

/** Put the email of a delivered `platform` order in the outbox, with a hosted delivery link for its eSIM. */
export function sendPlatformEmail(
  env: EnvironmentState,
  account: AccountState,
  order: OrderRecord,
  atMs: number,
): OutboxEmailRecord | null {
  const to = order.recipient.email;
  if (order.deliveryMode !== 'platform' || order.kind !== 'issue' || to === null || order.esimId === null)
    return null;
  const token = env.ids.chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 40);
  const link = {
    id: env.ids.next('dlk'),
    accountId: account.seed.id,
    orderId: order.id,
    token,
    maxViews: EMAIL_LINK_MAX_VIEWS,
    viewCount: 0,
    expiresAtMs: atMs + EMAIL_LINK_TTL_MS,
    lastViewedAtMs: null,
    revokedAtMs: null,
    createdAtMs: atMs,
  };
  env.deliveryLinks.set(link.id, link);
  env.deliveryLinksByToken.set(token, link);
  const brandAware = order.createdAtMs >= BRAND_AWARE_EMAIL_FROM_MS;
  const brand = effectiveBrand(account);
  const senderName = brandAware ? brand.name : PLATFORM_NAME;
  const lines = [
    `Your eSIM for ${order.product.title} is ready.`,
    'Open the link below on the phone you travel with and follow the steps to install it.',
    '{deliveryUrl}',
  ];
  if (brandAware)
    lines.push('', `Questions? Reply to this email to reach ${brand.name}.`, PLATFORM_ATTRIBUTION);
  const email: OutboxEmailRecord = {
    id: env.ids.next('eml'),
    accountId: account.seed.id,
    orderId: order.id,
    esimId: order.esimId,
    to,
    locale: order.recipient.locale,
    reference: order.recipient.reference,
    from: PLATFORM_SENDER,
    presentation: brandAware ? 'brand_aware' : 'standard',
    senderName,
    replyTo: brandAware ? brand.replyTo : null,
    attribution: brandAware ? PLATFORM_ATTRIBUTION : null,
    subject: `${senderName}: your eSIM is ready`,
    text: lines.join('\n'),
    deliveryLinkId: link.id,
    sentAtMs: atMs,
  };
  env.outbox.push(email);
  return email;
}
