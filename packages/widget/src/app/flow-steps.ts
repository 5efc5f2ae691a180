/**
 * @module
 * The steps of a purchase and what each carries, and where a checkout in progress is kept so that a page
 * reload resumes it (`sessionStorage`: this tab only, gone when the tab closes). After the sale, the page
 * URL's fragment (`#esim-manage=<token>`) opens the eSIM's own view.
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
  | { name: 'checkout'; plan: Plan; destination: DestinationRef; topUp?: TopUpOrigin }
  /** `resumed`: recalled from this tab's storage after a reload, not just created. */
  | { name: 'progress'; handle: CheckoutHandle; resumed?: boolean }
  | { name: 'install'; handle: CheckoutHandle; checkout: Checkout; installation: Installation }
  /** The eSIM's own view; `toppedUp` after a top-up just completed. */
  | { name: 'my-esim'; manageToken: string; toppedUp?: boolean };

/** The URL-fragment parameter of a manage link (the shared `MANAGE_TOKEN_FRAGMENT_PARAM`). */
export const MANAGE_FRAGMENT_PARAM = 'esim-manage';

/** The fragment parameter that names the widget a manage link is for, on a page with several widgets. */
export const MANAGE_WIDGET_FRAGMENT_PARAM = 'esim-widget';

/**
 * The manage token in a URL fragment (`#esim-manage=<token>`, possibly beside other parameters) for the widget
 * `widgetId`, if any. A link that names another widget (`&esim-widget=<id>`) is left to that widget.
 */
export function manageTokenInFragment(hash: string, widgetId: string): string | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const forWidget = fragment.get(MANAGE_WIDGET_FRAGMENT_PARAM);
  if (forWidget && forWidget !== widgetId) return null;
  const token = fragment.get(MANAGE_FRAGMENT_PARAM)?.trim();
  return token ? token : null;
}

/**
 * The manage link for a page: the page's own address with the token (and the widget it opens) in the
 * fragment, so that the token is never sent to the partner's server or written to its logs; other fragment
 * parameters are kept.
 */
export function manageLinkFor(pageUrl: string, manageToken: string, widgetId: string): string {
  const url = new URL(pageUrl);
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
  fragment.set(MANAGE_FRAGMENT_PARAM, manageToken);
  fragment.set(MANAGE_WIDGET_FRAGMENT_PARAM, widgetId);
  url.hash = fragment.toString();
  return url.href;
}

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
    if (typeof value.id !== 'string' || typeof value.clientSecret !== 'string') return null;
    const topUp = value.topUp;
    return typeof topUp?.esimId === 'string' && typeof topUp.manageToken === 'string'
      ? { id: value.id, clientSecret: value.clientSecret, topUp }
      : { id: value.id, clientSecret: value.clientSecret };
  } catch {
    return null;
  }
}

/** Forgets the checkout (finished with, or the traveller starts over). */
export function forgetCheckout(widgetId: string): void {
  storage()?.removeItem(storageKey(widgetId));
}
