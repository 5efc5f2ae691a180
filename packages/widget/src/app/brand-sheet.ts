/**
 * @module
 * The partner's brand as CSS: the session's primary colour and the colours derived from it for contrast,
 * set on `:host` through a constructable stylesheet (no `style` attribute, no `<style>` element). A page's
 * own `esim-widget { --esim-color-brand: … }` still wins, since outer rules beat `:host` rules.
 */
import type { WidgetBrand } from '@esim-embed/shared';
import { brandTextOn, readableTextOn } from '../theme/contrast';

const LIGHT_SURFACE = '#ffffff';
const DARK_SURFACE = '#15171c';
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** The `:host` rule that applies a brand colour. */
export function brandCss(brand: Pick<WidgetBrand, 'primaryColor'>): string {
  // The schema already checks the colour; this keeps anything else out of the stylesheet all the same.
  if (!HEX_COLOR.test(brand.primaryColor)) return '';
  const color = brand.primaryColor.toLowerCase();
  return `:host{--esim-color-brand:${color};--esim-color-on-brand:${readableTextOn(color)};--esim-brand-text-light:${brandTextOn(color, LIGHT_SURFACE)};--esim-brand-text-dark:${brandTextOn(color, DARK_SURFACE)}}`;
}

/** A constructable stylesheet with the given CSS. */
export function constructStyleSheet(css: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return sheet;
}
