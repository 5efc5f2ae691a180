/**
 * @module
 * The steps of a purchase and what each carries, and where a checkout in progress is kept so that a page
 * reload resumes it (`sessionStorage`: this tab only, gone when the tab closes).
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
}

/** One screen of the flow. */
export type Step =
  | { name: 'destinations' }
  | { name: 'plans'; destination: DestinationRef }
  | { name: 'checkout'; plan: Plan; destination: DestinationRef }
  | { name: 'progress'; handle: CheckoutHandle }
  | { name: 'install'; handle: CheckoutHandle; checkout: Checkout; installation: Installation };

function storageKey(widgetId: string): string {
  return `esim-widget:${widgetId}:checkout`;
}

function storage(): Storage | null {
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
    const value = JSON.parse(raw) as Partial<CheckoutHandle>;
    return typeof value.id === 'string' && typeof value.clientSecret === 'string'
      ? { id: value.id, clientSecret: value.clientSecret }
      : null;
  } catch {
    return null;
  }
}

/** Forgets the checkout (finished with, or the traveller starts over). */
export function forgetCheckout(widgetId: string): void {
  storage()?.removeItem(storageKey(widgetId));
}
