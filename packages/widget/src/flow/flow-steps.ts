/**
 * @module
 * The steps of a purchase and what each carries, and where a checkout in progress is kept so that a page
 * reload resumes it (`sessionStorage`: this tab only, gone when the tab closes), and so is a create sent but not
 * settled yet (`steps/pending-create.ts`; here only what the first step needs of it). After the sale, a manage
 * link opens the eSIM's own view (`install/manage-link-address.ts`).
 */
import type { Checkout, Installation, Plan } from '@esim-embed/shared';

/** A destination as the plans step needs it. */
export interface DestinationRef {
  code: string;
  name: string;
  flag: string;
}

/** A checkout the widget may read: its id and the client secret that proves it is ours. */
export interface CheckoutHandle {
  id: string;
  clientSecret: string;
  /** Set when the checkout tops up an existing eSIM: which one, and the token that opens its view. */
  topUp?: { esimId: string; manageToken: string };
}

/** Where a top-up was started from: the eSIM and the manage token that opens it. */
export interface TopUpOrigin {
  esimId: string;
  manageToken: string;
}

/** One screen of the flow. */
export type Step =
  | { name: 'destinations' }
  | { name: 'plans'; destination: DestinationRef }
  /** `resume`: a create kept from before a reload is settled here first (`steps/pending-create.ts`). */
  | { name: 'checkout'; plan: Plan; destination: DestinationRef; topUp?: TopUpOrigin; resume?: boolean }
  /** `resumed`: recalled from this tab's storage after a reload, not just created. */
  | { name: 'progress'; handle: CheckoutHandle; resumed?: boolean }
  | { name: 'install'; handle: CheckoutHandle; checkout: Checkout; installation: Installation }
  /** The eSIM's own view; `toppedUp` after a top-up just completed. */
  | { name: 'my-esim'; manageToken: string; toppedUp?: boolean };

function storageKey(widgetId: string): string {
  return `esim-widget:${widgetId}:checkout`;
}

export function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // A sandboxed frame or blocked storage throws on access: the widget works, it just cannot resume.
    return null;
  }
}

/** Remembers the checkout in progress for this widget in this tab. */
export function rememberCheckout(widgetId: string, handle: CheckoutHandle): void {
  storage()?.setItem(storageKey(widgetId), JSON.stringify(handle));
}

/** The checkout in progress for this widget in this tab, if any. */
export function recalledCheckout(widgetId: string): CheckoutHandle | null {
  const raw = storage()?.getItem(storageKey(widgetId));
  if (!raw) return null;
  try {
    const { id, clientSecret, topUp } = JSON.parse(raw) as Partial<CheckoutHandle>;
    if (typeof id !== 'string' || typeof clientSecret !== 'string') return null;
    const valid = typeof topUp?.esimId === 'string' && typeof topUp.manageToken === 'string';
    return valid ? { id, clientSecret, topUp } : { id, clientSecret };
  } catch {
    return null;
  }
}

/** Forgets the checkout (finished with, or the traveller starts over). */
export function forgetCheckout(widgetId: string): void {
  storage()?.removeItem(storageKey(widgetId));
}

/**
 * Where a create sent but not settled is kept (`steps/pending-create.ts`): per widget, BFF and page of this tab's
 * origin (`apiBase` as the client names it: its session token goes to no other BFF).
 */
export function pendingCreateKey(widgetId: string, apiBase: string): string {
  return `esim-widget:${widgetId}:create ${apiBase} ${globalThis.location?.pathname}`;
}

/**
 * Whether a kept create can still be settled: its session's token may read its answer back until `replayUntil` (the
 * session's end plus the BFF's grace); an entry kept by an earlier release, or from a BFF that names no grace, until
 * the token expires.
 */
export function stillSettleable(entry: { tokenExpiresAt?: unknown; replayUntil?: unknown }): boolean {
  const until = typeof entry.replayUntil === 'string' ? entry.replayUntil : entry.tokenExpiresAt;
  return typeof until === 'string' && Date.parse(until) > Date.now();
}

/** A kept create's purchase as the checkout step shows it. */
export type PendingPurchase = Pick<Extract<Step, { name: 'checkout' }>, 'plan' | 'destination' | 'topUp'>;

/**
 * The purchase of the create kept for this widget, BFF and page that can still be settled, to settle first (before
 * a manage link's view, too); one past its session's grace is forgotten (only the mark that one went unconfirmed
 * stays: its token and body are gone).
 */
export function pendingPurchase(widgetId: string, apiBase: string): PendingPurchase | null {
  const key = pendingCreateKey(widgetId, apiBase);
  try {
    const entry = JSON.parse(storage()?.getItem(key) ?? 'null');
    if (!entry?.token) return null;
    if (stillSettleable(entry) && entry.plan?.offerId && entry.destination?.code)
      return { plan: entry.plan, destination: entry.destination, topUp: entry.topUp };
    storage()?.setItem(key, '{"unconfirmed":true}');
  } catch {
    // Unreadable, or storage refused: nothing to settle here (the checkout says it went unconfirmed).
  }
  return null;
}
