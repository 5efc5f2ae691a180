/**
 * @module
 * The Content-Security-Policy a partner's page needs for `<esim-widget>`, written once: the widget's README,
 * docs/deployment.md and the demo's embed snippet show it, and the e2e suite serves its strict form to
 * Chromium. Pure data, no DOM: a partner's server can import it to build its header.
 */

/** What the policy depends on. */
export interface PartnerCspOptions {
  /**
   * The BFF's origin (`https://bff.example.com`): the script tag's `widget.js` and its chunks, under any of
   * the BFF's script paths (`/widget.js`, `/v<major>/widget.js`, `/widget@<version>/widget.js`), and the
   * widget API.
   */
  bffOrigin: string;
  /**
   * Other origins the brand logo comes from: the origin of a `logoUrl` you configured on another host than
   * the BFF. The BFF is always in `img-src`: it serves the upstream account's logo (no `logoUrl`) and a
   * `logoUrl` that is a path (`/brand/acme.svg`).
   */
  logoOrigins?: readonly string[];
}

/** A policy as directives and their sources, in the order they are written. */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/**
 * The sources the widget needs, to add to your page's policy: scripts, API calls and the logo from the BFF,
 * and a logo configured on another host from there. Styles are constructed stylesheets (outside `style-src`)
 * and the QR code is SVG elements (no `data:` image), so nothing else is needed, and no `'unsafe-*'` source.
 *
 * @example
 * formatCsp(partnerCsp({ bffOrigin: 'https://bff.example.com' }));
 * // "script-src https://bff.example.com; connect-src https://bff.example.com; img-src https://bff.example.com"
 */
export function partnerCsp({ bffOrigin, logoOrigins = [] }: PartnerCspOptions): CspDirectives {
  return {
    'script-src': [bffOrigin],
    'connect-src': [bffOrigin],
    'img-src': [bffOrigin, ...logoOrigins.filter((origin) => origin !== bffOrigin)],
  };
}

/**
 * The widget's sources in a policy that allows nothing else, with Trusted Types enforced: a page that holds
 * only the widget can use it as it is. The e2e suite buys an eSIM under it in Chromium, with no violation.
 */
export function strictPartnerCsp(options: PartnerCspOptions): CspDirectives {
  return {
    'default-src': ["'none'"],
    ...partnerCsp(options),
    'style-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
    'require-trusted-types-for': ["'script'"],
    'trusted-types': ["'none'"],
  };
}

/**
 * The policy as a header value (`a x; b y`), or with `lines`, one directive a line, each ending in `;`, as
 * the docs show it.
 */
export function formatCsp(directives: CspDirectives, { lines = false }: { lines?: boolean } = {}): string {
  const written = Object.entries(directives).map(([name, sources]) => [name, ...sources].join(' '));
  return lines ? written.map((directive) => `${directive};`).join('\n') : written.join('; ');
}
