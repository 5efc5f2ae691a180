/**
 * @module
 * The brand a traveller sees: the upstream account's brand (its local `brandOverrides` first), the
 * widget's own overrides on top, terms and privacy links from the retail brand's legal pages unless the widget
 * sets them, every field checked before it reaches the browser. A bad field falls
 * back to its default with a warning; it never breaks the widget. The account's logo is named at the BFF's
 * address for it (`account-logo.ts`), never at the upstream's host.
 */
import type { Account, RetailBrandLegal, WidgetBrand } from '@esim-embed/shared';
import { z } from 'zod';
import type { Logger } from '../logger';

/** The widget config's brand overrides: any field set wins; `null` clears (no logo, no support link). */
export type WidgetBrandOverrides = Partial<WidgetBrand>;

/** Options of {@link resolveWidgetBrand}. */
export interface BrandResolution {
  /** The upstream account (`GET /account`), or null when it could not be read. */
  account: Pick<Account, 'name' | 'brand' | 'brandOverrides'> | null;
  /** The legal pages of the retail brand the widget sells under: terms and privacy when the widget sets none. */
  legal?: Pick<RetailBrandLegal, 'termsUrl' | 'privacyUrl'> | undefined;
  overrides?: WidgetBrandOverrides | undefined;
  /** The BFF's public origin (`https://bff.example`): a logo path like `/brand/acme.svg` is served from it. */
  publicOrigin?: string | undefined;
  /**
   * The BFF's address of the account's logo at `sourceUrl` (its upstream URL, already checked), or null: the
   * widget never loads an image from the upstream's host. Absent: the account's logo is not shown.
   */
  accountLogo?: ((sourceUrl: string) => string | null) | undefined;
  /** The display name when neither the account nor the overrides give one (the widget's name). */
  fallbackName?: string | undefined;
  logger: Logger;
}

/** The colour when none is given or the given one is not `#RRGGBB`. */
export const DEFAULT_PRIMARY_COLOR = '#1F6FEB';

/**
 * The contract's logo is a PNG, JPEG or GIF by its content, whatever its URL looks like (CDNs serve
 * `…/logo/1234` or `…/logo?w=200`); the account's logo is looked at by its bytes only when the BFF fetches it
 * to serve it (`logo-fetch.ts`). Before that the URL decides what it can: a last path segment without an
 * extension passes, one naming PNG, JPEG or GIF passes, one naming any other type (`.svg`, `.webp`, `.html`) is
 * refused. SVG is allowed only from the BFF's own origin: files the operator serves (the demo's logos).
 */
const LOGO_EXTENSION = /\.([a-z0-9]{1,8})$/i;
const CONTRACT_LOGO_TYPE = /^(png|jpe?g|gif)$/i;
const OWN_LOGO_TYPE = /^(png|jpe?g|gif|svg)$/i;
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const Email = z.email().max(254);

type Field = keyof WidgetBrand;

/**
 * The widget's brand: per field the widget override, else the account's `brandOverrides`, else its
 * `brand`; then validated (HTTPS PNG/JPEG/GIF or extension-less logo, or a same-origin one that may be an
 * SVG, `#RRGGBB`, HTTPS links, email). A logo from the account becomes the BFF's address for it.
 *
 * @example
 * resolveWidgetBrand({ account, overrides: { primaryColor: '#FF6600' }, publicOrigin, logger });
 */
export function resolveWidgetBrand(resolution: BrandResolution): WidgetBrand {
  const { account, overrides = {}, logger } = resolution;
  const upstream = account?.brand;
  const local = account?.brandOverrides;
  const pick = (field: Exclude<Field, 'termsUrl' | 'privacyUrl'>): string | null | undefined => {
    if (overrides[field] !== undefined) return overrides[field];
    return local?.[field] ?? upstream?.[field] ?? undefined;
  };
  // The widget's own link (null: none) wins over the retail brand's.
  const legalLink = (field: 'termsUrl' | 'privacyUrl') =>
    overrides[field] !== undefined ? overrides[field] : resolution.legal?.[field];
  const invalid = (field: Field, reason: string) => {
    logger.warn('brand field invalid, default used', { field, reason });
  };

  const fallbackName = (account?.name.trim() || resolution.fallbackName?.trim() || 'eSIM').slice(0, 120);
  let displayName = pick('displayName')?.trim() ?? '';
  if (displayName.length === 0 || displayName.length > 120) {
    if (displayName.length > 0) invalid('displayName', 'longer than 120 characters');
    displayName = fallbackName;
  }

  let primaryColor = pick('primaryColor') ?? DEFAULT_PRIMARY_COLOR;
  if (!HEX_COLOR.test(primaryColor)) {
    invalid('primaryColor', 'not #RRGGBB');
    primaryColor = DEFAULT_PRIMARY_COLOR;
  }

  const checked = (
    field: Field,
    value: string | null | undefined,
    check: (value: string) => string | null,
  ) => {
    if (value === null || value === undefined || value.trim() === '') return null;
    const result = check(value.trim());
    if (result === null) invalid(field, 'not an allowed value');
    return result;
  };

  const logo = checked('logoUrl', pick('logoUrl'), (value) => logoUrl(value, resolution.publicOrigin));
  const accountsLogo = logo !== null && overrides.logoUrl === undefined;

  return {
    displayName,
    logoUrl: accountsLogo ? (resolution.accountLogo?.(logo) ?? null) : logo,
    primaryColor: primaryColor.toUpperCase(),
    supportEmail: checked('supportEmail', pick('supportEmail'), (value) =>
      Email.safeParse(value).success ? value : null,
    ),
    supportUrl: checked('supportUrl', pick('supportUrl'), httpsUrl),
    termsUrl: checked('termsUrl', legalLink('termsUrl'), httpsUrl),
    privacyUrl: checked('privacyUrl', legalLink('privacyUrl'), httpsUrl),
  };
}

/** An absolute HTTPS URL without credentials, or null. */
function httpsUrl(value: string): string | null {
  return secureUrl(value)?.href ?? null;
}

/**
 * An HTTPS image URL (PNG, JPEG, GIF or no extension), or a path on the BFF's own origin made absolute
 * (SVG allowed there too).
 */
function logoUrl(value: string, publicOrigin: string | undefined): string | null {
  const sameOrigin = value.startsWith('/') && !value.startsWith('//');
  const url = sameOrigin ? ownUrl(value, publicOrigin) : secureUrl(value);
  if (!url) return null;
  const lastSegment = url.pathname.split('/').pop() ?? '';
  const extension = LOGO_EXTENSION.exec(lastSegment)?.[1];
  if (extension === undefined) return sameOrigin ? null : url.href;
  return (sameOrigin ? OWN_LOGO_TYPE : CONTRACT_LOGO_TYPE).test(extension) ? url.href : null;
}

function secureUrl(value: string): URL | undefined {
  const url = parseUrl(value);
  return url?.protocol === 'https:' && !url.username && !url.password ? url : undefined;
}

function ownUrl(path: string, publicOrigin: string | undefined): URL | undefined {
  if (!publicOrigin) return undefined;
  const url = parseUrl(path, publicOrigin);
  return url?.origin === new URL(publicOrigin).origin ? url : undefined;
}

function parseUrl(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}
