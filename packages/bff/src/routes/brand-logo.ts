/**
 * @module
 * `GET /v1/brand/{widgetId}/logo/{hash}`: the upstream account's logo from the BFF's own origin, the address a
 * session's brand names (`catalog/account-logo.ts`). Public like the public catalog (a logo is on every page of
 * the shop) and immutable: the hash names one logo URL, so any cache may keep the answer for a year. No logo, a
 * hash that is not the account's logo now, a failed fetch or bytes that are not a PNG, JPEG or GIF are
 * `not_found` (never cached): the widget then shows the brand's name. Never a redirect to the upstream.
 */

import { accountLogoHash } from '../catalog/account-logo';
import { ApiError } from '../errors';
import { answerBody } from '../http/answer';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { RouteHandlers } from './mount-routes';

/** An image any page may show (the app-wide `same-site` policy would block it on partner pages). */
const LOGO_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
} as const;

export interface BrandLogoRoutesOptions {
  widgets: ReadonlyMap<string, WidgetRuntime>;
}

/** The account logo route (no auth). */
export function brandLogoHandlers(options: BrandLogoRoutesOptions): RouteHandlers<'accountLogo'> {
  return {
    async accountLogo(c) {
      const widget = options.widgets.get(c.req.param('widgetId') ?? '');
      if (widget === undefined || !widget.config.enabled) throw new ApiError('not_found');
      const sourceUrl = await widget.catalog.accountLogoUrl();
      if (sourceUrl === null || accountLogoHash(sourceUrl) !== c.req.param('hash')) {
        throw new ApiError('not_found', { params: { reason: 'logo_not_current' } });
      }
      const image = await widget.accountLogo.image(sourceUrl);
      if (image === null) throw new ApiError('not_found', { params: { reason: 'logo_unavailable' } });
      return answerBody(c, image.bytes, 200, { ...LOGO_HEADERS, 'Content-Type': image.contentType });
    },
  };
}
