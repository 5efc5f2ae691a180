/**
 * @module
 * The address of a manage link: a page's own address with `#esim=<widget id>.<token>` in its fragment, so the
 * token never reaches a server or its logs. One writer for both places a link is made: the widget's install step
 * (the page it is on) and the BFF's installation email (the partner's page for the widget).
 */
import { MANAGE_TOKEN_FRAGMENT_PARAM } from './after-sale';

/** The fragment parameters of a manage link of the release before: the token, and the widget it opens. */
export const LEGACY_MANAGE_FRAGMENT_PARAMS = { token: 'esim-manage', widget: 'esim-widget' } as const;

const MANAGE_PARAMS = [
  MANAGE_TOKEN_FRAGMENT_PARAM,
  LEGACY_MANAGE_FRAGMENT_PARAMS.token,
  LEGACY_MANAGE_FRAGMENT_PARAMS.widget,
];

/** A URL fragment's parameters (`#a=1&b=2`, with or without its `#`). */
export const fragmentParams = (hash: string): URLSearchParams => new URLSearchParams(hash.replace(/^#/, ''));

/** The fragment without any manage-link parameter (the page's own parameters kept). */
export function withoutManageParams(hash: string): string {
  const fragment = fragmentParams(hash);
  for (const name of MANAGE_PARAMS) fragment.delete(name);
  return fragment.toString();
}

/**
 * The manage link for a page: the page's own address with the widget and the token in the fragment; other
 * fragment parameters are kept.
 *
 * @example
 * manageLinkFor('https://travel.example.com/esim', token, 'acme'); // 'https://travel.example.com/esim#esim=acme.<token>'
 */
export function manageLinkFor(pageUrl: string, manageToken: string, widgetId: string): string {
  const url = new URL(pageUrl);
  const fragment = fragmentParams(withoutManageParams(url.hash));
  fragment.set(MANAGE_TOKEN_FRAGMENT_PARAM, `${widgetId}.${manageToken}`);
  url.hash = fragment.toString();
  return url.href;
}
