/**
 * @module
 * Where the partner's support is reached from the widget: its support page, else a `mailto:` its support
 * email, else nowhere (the partner configured neither).
 */
import type { WidgetPublicConfig } from '@esim-embed/shared';

/** The link to the partner's support, or null when it configured none. */
export function supportHref(brand: WidgetPublicConfig['brand']): string | null {
  return brand.supportUrl || (brand.supportEmail ? `mailto:${brand.supportEmail}` : null);
}
