/**
 * @module
 * The manage link in the page's address: written as `#esim=<widget id>.<token>` (short enough for an SMS; the
 * widget id lets a page with several widgets open it in the right one), read once, then taken out of the
 * address bar and kept in this tab's `sessionStorage`, so that analytics and session-replay scripts of the
 * host page cannot read it from the URL after load. Links of the release before
 * (`#esim-manage=<token>&esim-widget=<id>`) are read the same way.
 */
import {
  fragmentParams,
  LEGACY_MANAGE_FRAGMENT_PARAMS,
  type MANAGE_TOKEN_FRAGMENT_PARAM,
  withoutManageParams,
} from '@esim-embed/shared';

/** The fragment parameter of a manage link: the shared `MANAGE_TOKEN_FRAGMENT_PARAM`, checked at compile time. */
export const MANAGE_FRAGMENT_PARAM = 'esim' satisfies typeof MANAGE_TOKEN_FRAGMENT_PARAM;

/** How a manage link is written (the page's address with the token in its fragment), shared with the BFF's email. */
export { manageLinkFor } from '@esim-embed/shared';

/**
 * The manage token in a URL fragment for the widget `widgetId`, if any (beside other parameters or alone).
 * A link that names another widget is left to that widget; a link of the release before without a name opens
 * any.
 */
export function manageTokenInFragment(hash: string, widgetId: string): string | null {
  const fragment = fragmentParams(hash);
  const current = fragment.get(MANAGE_FRAGMENT_PARAM)?.trim();
  if (current) {
    const dot = current.indexOf('.');
    if (dot <= 0 || current.slice(0, dot) !== widgetId) return null;
    return current.slice(dot + 1) || null;
  }
  const forWidget = fragment.get(LEGACY_MANAGE_FRAGMENT_PARAMS.widget);
  if (forWidget && forWidget !== widgetId) return null;
  return fragment.get(LEGACY_MANAGE_FRAGMENT_PARAMS.token)?.trim() || null;
}

const storageKey = (widgetId: string) => `esim-widget:${widgetId}:manage`;

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // A sandboxed frame or blocked storage throws on access: the link then opens the view only once.
    return null;
  }
}

/**
 * The manage token of a manage link for `widgetId` just followed: taken out of the page's address (history entry
 * replaced, the host page's state and other fragment parameters kept) and kept in this tab's `sessionStorage`.
 */
export function takeFollowedManageToken(widgetId: string): string | null {
  const location = globalThis.location;
  const token = location ? manageTokenInFragment(location.hash, widgetId) : null;
  if (token === null) return null;
  try {
    storage()?.setItem(storageKey(widgetId), token);
  } catch {
    // Storage full or refused: the view opens now, a reload shows the widget's start.
  }
  const url = new URL(location.href);
  url.hash = withoutManageParams(url.hash);
  globalThis.history?.replaceState(globalThis.history.state, '', url.href);
  return token;
}

/** The manage token for `widgetId` in this tab: of a link just followed, or kept since (a reload). */
export function takeManageToken(widgetId: string): string | null {
  return takeFollowedManageToken(widgetId) ?? storage()?.getItem(storageKey(widgetId)) ?? null;
}

/** Forgets the manage token of `widgetId` in this tab (the BFF refused it). */
export function forgetManageToken(widgetId: string): void {
  storage()?.removeItem(storageKey(widgetId));
}
